/* Tasks with depend clauses, traced through OMPT (check_task_dependences
 * reads the trace back). Each of ROUNDS rounds, one thread creates four
 * tasks: "first" depend(out: a), "second" depend(in: a) depend(out: b),
 * "third" depend(in: a, b) depend(inout: c), and one without dependences.
 * Built with -DWITH_MPI it does the same on every rank of an MPI job, rank 1
 * defining a region of its own first, so that its string ids differ from
 * rank 0's and the attribute values must go through the id mapping. */
#include <stdio.h>
#ifdef WITH_MPI
#include <mpi.h>
#endif

enum { ROUNDS = 3 };
static long a, b, c, unrelated;

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
#ifdef WITH_MPI
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
#pragma omp parallel num_threads(1)
        unrelated += 0;
    }
#endif
    for (int round = 0; round < ROUNDS; round++) {
#pragma omp parallel
#pragma omp single
        {
#pragma omp task depend(out : a)
            a = round + 1;
#pragma omp task depend(in : a) depend(out : b)
            b = a * 2;
#pragma omp task depend(in : a, b) depend(inout : c)
            c += a + b;
#pragma omp task
            unrelated += 1;
#pragma omp taskwait
        }
    }
#ifdef WITH_MPI
    MPI_Finalize();
    if (rank != 0)
        return 0;
#endif
    printf("a %ld b %ld c %ld unrelated %ld\n", a, b, c, unrelated);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
