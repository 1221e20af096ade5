! MPI test program "io" in Fortran (mpif.h bindings): the calls of mpi_io.c
! in the same order with the same numbers (mpi_scenarios.h, scenario io), so
! the checker expects the same trace. Wrong data aborts the job.
!
!   mpirun -np N mpi_io_fortran COUNTS_DIR     (N even)
program mpi_io_fortran
    implicit none
    include 'mpif.h'
    integer, parameter :: count = 1000, blockbytes = 4000, nblocks = 4, short = 3
    integer :: ierr, rank, nprocs, partner, info, fh, request, b, got
    integer :: outbuf(count, nblocks), inbuf(count)
    integer :: status(MPI_STATUS_SIZE)
    integer(kind=MPI_OFFSET_KIND) :: endoff
    character(len=4096) :: dir

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (mod(nprocs, 2) /= 0) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    call get_command_argument(1, dir)
    partner = ieor(rank, 1)

    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'access_style', 'read_mostly', ierr)
    call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/io_shared.dat', &
                       MPI_MODE_CREATE + MPI_MODE_RDWR, info, fh, ierr)
    if (ierr /= MPI_SUCCESS) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    call MPI_Info_free(info, ierr)

    do b = 1, nblocks
        call fill(outbuf(:, b), rank, b - 1)
    end do
    call MPI_File_write_at(fh, offset(0, rank), outbuf(1, 1), count, MPI_INTEGER, &
                           MPI_STATUS_IGNORE, ierr)
    call MPI_File_write_at_all(fh, offset(1, rank), outbuf(1, 2), count, MPI_INTEGER, &
                               MPI_STATUS_IGNORE, ierr)
    call MPI_File_iwrite_at(fh, offset(2, rank), outbuf(1, 3), count, MPI_INTEGER, request, ierr)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
    call MPI_File_iwrite_at_all(fh, offset(3, rank), outbuf(1, 4), count, MPI_INTEGER, request, &
                                ierr)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
    call MPI_File_sync(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_File_sync(fh, ierr)

    call MPI_File_read_at(fh, offset(0, partner), inbuf, count, MPI_INTEGER, MPI_STATUS_IGNORE, &
                          ierr)
    call expect(inbuf, partner, 0)
    call MPI_File_read_at_all(fh, offset(1, partner), inbuf, count, MPI_INTEGER, &
                              MPI_STATUS_IGNORE, ierr)
    call expect(inbuf, partner, 1)
    call MPI_File_iread_at(fh, offset(2, partner), inbuf, count, MPI_INTEGER, request, ierr)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
    call expect(inbuf, partner, 2)
    call MPI_File_seek(fh, offset(3, partner), MPI_SEEK_SET, ierr)
    call MPI_File_read_all_begin(fh, inbuf, count, MPI_INTEGER, ierr)
    call MPI_File_read_all_end(fh, inbuf, MPI_STATUS_IGNORE, ierr)
    call expect(inbuf, partner, 3)

    endoff = offset(nblocks - 1, nprocs - 1) + blockbytes
    call MPI_File_read_at(fh, endoff - short * 4, inbuf, count, MPI_INTEGER, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, got, ierr)
    if (got /= short) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)

    call MPI_File_close(fh, ierr)
    call MPI_Finalize(ierr)

contains

    integer(kind=MPI_OFFSET_KIND) function offset(block, of_rank)
        integer, intent(in) :: block, of_rank
        offset = (int(block, MPI_OFFSET_KIND) * nprocs + of_rank) * blockbytes
    end function offset

    subroutine fill(buf, of_rank, block)
        integer, intent(out) :: buf(count)
        integer, intent(in) :: of_rank, block
        integer :: i
        do i = 1, count
            buf(i) = of_rank * 100000 + block * 10000 + i - 1
        end do
    end subroutine fill

    subroutine expect(buf, of_rank, block)
        integer, intent(in) :: buf(count), of_rank, block
        integer :: i, e
        do i = 1, count
            if (buf(i) /= of_rank * 100000 + block * 10000 + i - 1) &
                call MPI_Abort(MPI_COMM_WORLD, 4, e)
        end do
    end subroutine expect
end program mpi_io_fortran
! SPDX-License-Identifier: BSD-3-Clause
