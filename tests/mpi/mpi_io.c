/* MPI test program "io": MPI-IO on one shared file, independent and
 * collective, blocking, non-blocking and split collective writes and
 * reads, a seek, a sync, a short read (see mpi_scenarios.h). Every rank
 * checks the data it reads back from its partner.
 *
 *   mpirun -np N mpi_io COUNTS_DIR     (N even) */
#include <mpi.h>
#include <stdio.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

static int rank, size;

static MPI_Offset offset_of(int block, int of_rank)
{
    return ((MPI_Offset)block * size + of_rank) * IO_BLOCK_BYTES;
}

static void fill(int *buf, int of_rank, int block)
{
    for (int i = 0; i < IO_COUNT; i++)
        buf[i] = of_rank * 100000 + block * 10000 + i;
}

static void expect(const int *buf, int of_rank, int block, const char *what)
{
    int ok = 1;
    for (int i = 0; i < IO_COUNT; i++)
        ok = ok && buf[i] == of_rank * 100000 + block * 10000 + i;
    mpi_program_require(ok, rank, what);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require_even(rank, size);
    mpi_program_require(argc > 1, rank, "usage: mpi_io COUNTS_DIR");

    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], IO_FILE_NAME);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "read_mostly");
    MPI_File fh;
    mpi_program_require(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info,
                                      &fh) == MPI_SUCCESS,
                        rank, "MPI_File_open");
    MPI_Info_free(&info);

    int out[IO_BLOCKS][IO_COUNT];
    for (int b = 0; b < IO_BLOCKS; b++)
        fill(out[b], rank, b);
    MPI_File_write_at(fh, offset_of(0, rank), out[0], IO_COUNT, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_write_at_all(fh, offset_of(1, rank), out[1], IO_COUNT, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Request request;
    MPI_File_iwrite_at(fh, offset_of(2, rank), out[2], IO_COUNT, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_iwrite_at_all(fh, offset_of(3, rank), out[3], IO_COUNT, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);

    int partner = rank ^ 1, in[IO_COUNT];
    MPI_File_read_at(fh, offset_of(0, partner), in, IO_COUNT, MPI_INT, MPI_STATUS_IGNORE);
    expect(in, partner, 0, "read_at");
    MPI_File_read_at_all(fh, offset_of(1, partner), in, IO_COUNT, MPI_INT, MPI_STATUS_IGNORE);
    expect(in, partner, 1, "read_at_all");
    MPI_File_iread_at(fh, offset_of(2, partner), in, IO_COUNT, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    expect(in, partner, 2, "iread_at");
    MPI_File_seek(fh, offset_of(3, partner), MPI_SEEK_SET);
    MPI_File_read_all_begin(fh, in, IO_COUNT, MPI_INT);
    MPI_File_read_all_end(fh, in, MPI_STATUS_IGNORE);
    expect(in, partner, 3, "read_all_begin/end");

    MPI_Status status;
    MPI_Offset end = offset_of(IO_BLOCKS - 1, size - 1) + IO_BLOCK_BYTES;
    MPI_File_read_at(fh, end - IO_SHORT_INTS * 4, in, IO_COUNT, MPI_INT, &status);
    int got = -1;
    MPI_Get_count(&status, MPI_INT, &got);
    mpi_program_require(got == IO_SHORT_INTS, rank, "the short read's count");

    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
