! MPI test program "rma" in Fortran with `use mpi_f08`: mpi_rma_fortran.f90
! with typed handles and IERROR left out; the same calls, so the same
! expected trace.
!
!   mpirun -np N mpi_rma_f08     (N even)
program mpi_rma_f08
    use mpi_f08
    implicit none
    integer, parameter :: winints = 64, cnt = 8, fenceputs = 2
    integer :: rank, nprocs, right, left, partner, p, i
    type(MPI_Win) :: win
    type(MPI_Group) :: world, pair
    ! one-element arrays, not scalars: gfortran refuses an external routine
    ! called with arrays here and scalars there
    integer, volatile :: mem(winints), got(cnt), fetched(1), old(1), peek(1)
    integer :: outb(cnt, fenceputs), ones(cnt), value(1), one(1), compare(1), swap(1)
    integer(kind=MPI_ADDRESS_KIND) :: winsize, disp

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    if (mod(nprocs, 2) /= 0) call MPI_Abort(MPI_COMM_WORLD, 3)
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)
    partner = ieor(rank, 1)

    mem = 0
    winsize = winints * 4
    call MPI_Win_create(mem, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)

    do p = 1, fenceputs
        outb(:, p) = (p - 1) + 100 * rank
    end do
    do i = 1, cnt
        mem(40 + i) = 7 * rank + i - 1
    end do
    call MPI_Win_fence(0, win)
    do p = 1, fenceputs
        disp = (p - 1) * cnt
        call MPI_Put(outb(1, p), cnt, MPI_INTEGER, right, disp, cnt, MPI_INTEGER, win)
    end do
    disp = 40
    call MPI_Get(got, cnt, MPI_INTEGER, left, disp, cnt, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    do p = 1, fenceputs
        if (mem((p - 1) * cnt + 1) /= (p - 1) + 100 * left) call MPI_Abort(MPI_COMM_WORLD, 4)
    end do
    if (got(cnt) /= 7 * left + cnt - 1) call MPI_Abort(MPI_COMM_WORLD, 5)

    call MPI_Comm_group(MPI_COMM_WORLD, world)
    call MPI_Group_incl(world, 1, (/ partner /), pair)
    ones = rank + 1
    mem(25:24 + cnt) = 1000
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Win_post(pair, 0, win)
    call MPI_Win_start(pair, 0, win)
    disp = 16
    call MPI_Put(ones, cnt, MPI_INTEGER, partner, disp, cnt, MPI_INTEGER, win)
    disp = 24
    call MPI_Accumulate(ones, cnt, MPI_INTEGER, partner, disp, cnt, MPI_INTEGER, MPI_SUM, win)
    call MPI_Win_complete(win)
    call MPI_Win_wait(win)
    if (mem(17) /= partner + 1 .or. mem(25) /= 1000 + partner + 1) &
        call MPI_Abort(MPI_COMM_WORLD, 6)
    call MPI_Group_free(pair)
    call MPI_Group_free(world)

    call MPI_Barrier(MPI_COMM_WORLD)
    value = rank + 5
    one = 1
    fetched = -1
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win)
    disp = 32
    call MPI_Put(value, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win)
    disp = 33
    call MPI_Fetch_and_op(one, fetched, MPI_INTEGER, right, disp, MPI_SUM, win)
    call MPI_Win_unlock(right, win)
    call MPI_Barrier(MPI_COMM_WORLD)
    compare = 1
    swap = 50 + rank
    old = -1
    peek = -1
    call MPI_Win_lock_all(0, win)
    disp = 32
    call MPI_Get(peek, 1, MPI_INTEGER, left, disp, 1, MPI_INTEGER, win)
    call MPI_Win_flush_all(win)
    disp = 33
    call MPI_Compare_and_swap(swap, compare, old, MPI_INTEGER, right, disp, win)
    call MPI_Win_unlock_all(win)
    call MPI_Barrier(MPI_COMM_WORLD)
    if (fetched(1) /= 0 .or. old(1) /= 1 .or. peek(1) /= mod(left + nprocs - 1, nprocs) + 5 .or. &
        mem(33) /= left + 5 .or. mem(34) /= 50 + left) call MPI_Abort(MPI_COMM_WORLD, 7)
    call MPI_Win_free(win)
    call MPI_Finalize()
end program mpi_rma_f08
! SPDX-License-Identifier: BSD-3-Clause
