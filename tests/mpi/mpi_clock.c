/* MPI test program "clock": for about CLOCK_LOOP_MS (and at least
 * CLOCK_MIN_ITERATIONS iterations), ping-pong between
 * partner ranks (rank ^ 1) and an MPI_Allreduce on MPI_COMM_WORLD per
 * iteration, so that with a short WEFT_CLOCK_SYNC_INTERVAL weft takes many
 * intermediate clock offsets. Rank 0 decides when to stop (the allreduce
 * carries its flag), so all ranks run the same number of iterations, which
 * goes to the counts file as "iterations".
 *
 *   WEFT_CLOCK_SYNC_INTERVAL=50ms mpirun -np N mpi_clock [COUNTS_DIR]     (N even) */
#define _POSIX_C_SOURCE 200809L

#include <time.h>

#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require_even(rank, size);

    const struct timespec pause = {.tv_sec = 0, .tv_nsec = 1000000};
    double start = seconds_now();
    int partner = rank ^ 1, stop = 0;
    long iterations = 0;
    while (!stop) {
        int token = (int)iterations, got = -1;
        if (rank % 2 == 0) {
            MPI_Send(&token, 1, MPI_INT, partner, CLOCK_TAG, MPI_COMM_WORLD);
            MPI_Recv(&got, 1, MPI_INT, partner, CLOCK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&got, 1, MPI_INT, partner, CLOCK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&token, 1, MPI_INT, partner, CLOCK_TAG, MPI_COMM_WORLD);
        }
        mpi_program_require(got == token, rank, "ping-pong: wrong data");
        int mine = rank == 0 && iterations + 1 >= CLOCK_MIN_ITERATIONS &&
                   seconds_now() - start >= CLOCK_LOOP_MS / 1000.0;
        MPI_Allreduce(&mine, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        iterations++;
        nanosleep(&pause, NULL);
    }

    const mpi_count counts[] = {{"iterations", iterations}};
    mpi_program_write_counts(argc > 1 ? argv[1] : NULL, rank, counts, 1);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
