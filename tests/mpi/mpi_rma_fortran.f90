! MPI test program "rma" in Fortran (mpif.h bindings): the calls of
! mpi_rma.c in the same order with the same numbers (mpi_scenarios.h,
! scenario rma), so the checker expects the same trace. Window memory and
! receive buffers are VOLATILE: MPI writes them during calls that do not
! name them. Wrong data aborts the job.
!
!   mpirun -np N mpi_rma_fortran     (N even)
program mpi_rma_fortran
    implicit none
    include 'mpif.h'
    integer, parameter :: winints = 64, cnt = 8, fenceputs = 2
    integer :: ierr, rank, nprocs, right, left, partner, win, world, pair, p, i
    ! one-element arrays, not scalars: gfortran refuses an external routine
    ! called with arrays here and scalars there
    integer, volatile :: mem(winints), got(cnt), fetched(1), old(1), peek(1)
    integer :: outb(cnt, fenceputs), ones(cnt), value(1), one(1), compare(1), swap(1)
    integer(kind=MPI_ADDRESS_KIND) :: winsize, disp

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (mod(nprocs, 2) /= 0) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)
    partner = ieor(rank, 1)

    mem = 0
    winsize = winints * 4
    call MPI_Win_create(mem, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)

    do p = 1, fenceputs
        outb(:, p) = (p - 1) + 100 * rank
    end do
    do i = 1, cnt
        mem(40 + i) = 7 * rank + i - 1
    end do
    call MPI_Win_fence(0, win, ierr)
    do p = 1, fenceputs
        disp = (p - 1) * cnt
        call MPI_Put(outb(1, p), cnt, MPI_INTEGER, right, disp, cnt, MPI_INTEGER, win, ierr)
    end do
    disp = 40
    call MPI_Get(got, cnt, MPI_INTEGER, left, disp, cnt, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    do p = 1, fenceputs
        if (mem((p - 1) * cnt + 1) /= (p - 1) + 100 * left) call MPI_Abort(MPI_COMM_WORLD, 4, ierr)
    end do
    if (got(cnt) /= 7 * left + cnt - 1) call MPI_Abort(MPI_COMM_WORLD, 5, ierr)

    call MPI_Comm_group(MPI_COMM_WORLD, world, ierr)
    call MPI_Group_incl(world, 1, (/ partner /), pair, ierr)
    ones = rank + 1
    mem(25:24 + cnt) = 1000
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_post(pair, 0, win, ierr)
    call MPI_Win_start(pair, 0, win, ierr)
    disp = 16
    call MPI_Put(ones, cnt, MPI_INTEGER, partner, disp, cnt, MPI_INTEGER, win, ierr)
    disp = 24
    call MPI_Accumulate(ones, cnt, MPI_INTEGER, partner, disp, cnt, MPI_INTEGER, MPI_SUM, win, &
                        ierr)
    call MPI_Win_complete(win, ierr)
    call MPI_Win_wait(win, ierr)
    if (mem(17) /= partner + 1 .or. mem(25) /= 1000 + partner + 1) &
        call MPI_Abort(MPI_COMM_WORLD, 6, ierr)
    call MPI_Group_free(pair, ierr)
    call MPI_Group_free(world, ierr)

    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    value = rank + 5
    one = 1
    fetched = -1
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win, ierr)
    disp = 32
    call MPI_Put(value, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
    disp = 33
    call MPI_Fetch_and_op(one, fetched, MPI_INTEGER, right, disp, MPI_SUM, win, ierr)
    call MPI_Win_unlock(right, win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    compare = 1
    swap = 50 + rank
    old = -1
    peek = -1
    call MPI_Win_lock_all(0, win, ierr)
    disp = 32
    call MPI_Get(peek, 1, MPI_INTEGER, left, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_flush_all(win, ierr)
    disp = 33
    call MPI_Compare_and_swap(swap, compare, old, MPI_INTEGER, right, disp, win, ierr)
    call MPI_Win_unlock_all(win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (fetched(1) /= 0 .or. old(1) /= 1 .or. peek(1) /= mod(left + nprocs - 1, nprocs) + 5 .or. &
        mem(33) /= left + 5 .or. mem(34) /= 50 + left) call MPI_Abort(MPI_COMM_WORLD, 7, ierr)
    call MPI_Win_free(win, ierr)
    call MPI_Finalize(ierr)
end program mpi_rma_fortran
! SPDX-License-Identifier: BSD-3-Clause
