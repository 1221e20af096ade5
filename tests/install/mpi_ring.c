/* An MPI ring for the installed-weft tests: every rank sends its rank to
 * the next and receives from the previous, three times; built against an
 * installed libweft-mpi (pkg-config weft-mpi, or find_package's weft::mpi). */
#include <mpi.h>
#include <stdio.h>

#include <weft/version.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int got = -1;
    for (int round = 0; round < 3; round++)
        MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, round, &got, 1, MPI_INT,
                     (rank + size - 1) % size, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("ring of %d ranks with weft %s: rank 0 got %d\n", size, WEFT_VERSION_STRING, got);
    MPI_Finalize();
    return got == (rank + size - 1) % size ? 0 : 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
