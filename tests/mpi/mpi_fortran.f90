! MPI test program "fortran" (mpif.h bindings): on an even number of ranks,
! MPI_Send/MPI_Recv to the right neighbour (even ranks first, tag 1, 4
! integers), MPI_Irecv/MPI_Isend/MPI_Waitall the other way (tag 2, 3
! integers), MPI_Allreduce and MPI_Bcast on MPI_COMM_WORLD, MPI_Comm_split
! (color rank / 2, key -rank), an MPI_Allreduce on the split communicator,
! MPI_Comm_set_name/MPI_Comm_get_name on it, MPI_Get_processor_name and
! MPI_Comm_free. Wrong results abort the job. check_mpi_trace.c (scenario
! "fortran") knows these calls.
program mpi_fortran
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, nprocs, right, left, split, i
    integer :: out1(4), in1(4), out2(3), in2(3), requests(2)
    integer :: statuses(MPI_STATUS_SIZE, 2), status(MPI_STATUS_SIZE)
    integer :: total, value, namelen
    character(len=MPI_MAX_OBJECT_NAME) :: name
    character(len=MPI_MAX_PROCESSOR_NAME) :: host

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (mod(nprocs, 2) /= 0) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)

    out1 = rank
    if (mod(rank, 2) == 0) then
        call MPI_Send(out1, 4, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
        call MPI_Recv(in1, 4, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
    else
        call MPI_Recv(in1, 4, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
        call MPI_Send(out1, 4, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
    end if
    if (in1(4) /= left) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)

    out2 = rank
    call MPI_Irecv(in2, 3, MPI_INTEGER, right, 2, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(out2, 3, MPI_INTEGER, left, 2, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitall(2, requests, statuses, ierr)
    if (in2(3) /= right) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)

    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (total /= nprocs * (nprocs - 1) / 2) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    value = 0
    if (rank == 0) value = 42
    call MPI_Bcast(value, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (value /= 42) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)

    call MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, split, ierr)
    i = 1
    call MPI_Allreduce(i, total, 1, MPI_INTEGER, MPI_SUM, split, ierr)
    if (total /= 2) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    ! CHARACTER arguments pass through the region-only wrappers with their
    ! hidden lengths: a name set is read back, the processor's name fits.
    call MPI_Comm_set_name(split, 'weft split', ierr)
    name = ''
    call MPI_Comm_get_name(split, name, namelen, ierr)
    if (name /= 'weft split' .or. namelen /= 10) call MPI_Abort(MPI_COMM_WORLD, 4, ierr)
    call MPI_Get_processor_name(host, namelen, ierr)
    if (namelen < 1 .or. namelen > len(host)) call MPI_Abort(MPI_COMM_WORLD, 5, ierr)
    call MPI_Comm_free(split, ierr)

    call MPI_Finalize(ierr)
end program mpi_fortran
! SPDX-License-Identifier: BSD-3-Clause
