/* An MPI program for the MPI scenarios of run_compile.cmake: every rank
 * adds its rank number to an MPI_Allreduce; rank 0 prints one line. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank = 0, size = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks=%d sum=%d\n", size, sum);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
