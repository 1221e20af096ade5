! An MPI+OpenMP Fortran program as mpif90 links it: with Open MPI it needs
! libmpi_mpifh.so (and for `use mpi_f08`, built from hybrid_mpi_f08.f90,
! libmpi_usempif08.so) but not libmpi.so, which `weft run --mpi=auto` took
! for "not an MPI program" (issue 19). A ring exchange (Irecv, Isend, Test
! until it arrived, Wait), an OpenMP loop, an Allreduce and a Barrier.
program hybrid_mpi
  use mpi
  implicit none
  integer :: ierr, provided, rank, nranks, peer, i
  integer :: sendbuf(8), recvbuf(8), requests(2)
  logical :: arrived
  double precision :: local, total
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  peer = mod(rank + 1, nranks)
  sendbuf = rank
  call MPI_Irecv(recvbuf, 8, MPI_INTEGER, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Isend(sendbuf, 8, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, requests(2), ierr)
  arrived = .false.
  do while (.not. arrived)
     call MPI_Test(requests(1), arrived, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Wait(requests(2), MPI_STATUS_IGNORE, ierr)
  local = 0
!$omp parallel do reduction(+:local)
  do i = 1, 1000
     local = local + i * (recvbuf(1) + 1)
  end do
!$omp end parallel do
  call MPI_Allreduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,f12.1)', 'total=', total
  call MPI_Finalize(ierr)
end program hybrid_mpi
! SPDX-License-Identifier: BSD-3-Clause
