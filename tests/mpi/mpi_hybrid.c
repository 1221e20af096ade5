/* MPI test program "hybrid" (built with `weft compile -- mpicc -fopenmp`):
 * 2 ranks with MPI_THREAD_MULTIPLE, each running one parallel region of
 * HYBRID_THREADS threads in which thread t exchanges messages with thread t
 * of the other rank (mpi_scenarios.h); then, on the master, an
 * MPI_Allreduce and an MPI_Barrier. Received data is checked. The checker
 * finds the OpenMP regions by the marked lines below.
 *
 *   OMP_NUM_THREADS=2 mpirun -np 2 mpi_hybrid */
#include <omp.h>

#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

static int rank, size;

static void exchange(int thread)
{
    int peer = 1 - rank;
    int out[HYBRID_COUNT], in[HYBRID_COUNT];
    for (int i = 0; i < HYBRID_COUNT; i++)
        out[i] = rank * 100 + thread;
    MPI_Sendrecv(out, HYBRID_COUNT, MPI_INT, peer, thread, in, HYBRID_COUNT, MPI_INT, peer, thread,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    mpi_program_require(in[0] == peer * 100 + thread, rank, "MPI_Sendrecv: wrong data");

    MPI_Request requests[2];
    MPI_Irecv(in, HYBRID_COUNT, MPI_INT, peer, HYBRID_NB_TAG + thread, MPI_COMM_WORLD,
              &requests[0]);
    MPI_Isend(out, HYBRID_COUNT, MPI_INT, peer, HYBRID_NB_TAG + thread, MPI_COMM_WORLD,
              &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    mpi_program_require(in[HYBRID_COUNT - 1] == peer * 100 + thread, rank,
                        "MPI_Waitall: wrong data");
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require(size == 2, rank, "the hybrid test needs 2 ranks");
    mpi_program_require(provided == MPI_THREAD_MULTIPLE, rank, "no MPI_THREAD_MULTIPLE");

    int threads = 0;
#pragma omp parallel num_threads(HYBRID_THREADS)
    {
        exchange(omp_get_thread_num());
#pragma omp atomic
        threads++;
    } /* end: parallel */
    mpi_program_require(threads == HYBRID_THREADS, rank, "wrong team size");

    double mine = rank + 1.0, sum = 0.0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    mpi_program_require(sum == 3.0, rank, "MPI_Allreduce");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
