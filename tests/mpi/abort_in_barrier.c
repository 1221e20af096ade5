/* The last rank calls MPI_Abort while the others wait in MPI_Barrier:
 * mpirun ends them with SIGTERM, and each writes its part of the trace
 * (run_abort_race.sh checks that none is cut off). */
#define _DEFAULT_SOURCE /* usleep */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        usleep(100000);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
