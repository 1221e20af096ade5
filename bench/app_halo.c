/* Whole-application proxy: a hybrid MPI+OpenMP halo exchange
 * (bench/run-apps builds it plain and traced and compares).
 *
 *   mpirun -np RANKS app_halo [STEPS [ROWS [COLUMNS]]]
 *                                  (default 4000 steps, 64 x 512 per rank)
 *
 * A 2-D Jacobi relaxation split by rows over the ranks, MPI_THREAD_FUNNELED:
 * every step the master thread exchanges one halo row with each neighbour
 * (MPI_Irecv, MPI_Isend, MPI_Waitall, outside parallel regions), then the
 * team updates the rows in a `parallel for` and copies them back in
 * another; every 10th step a `parallel for` reduction and an
 * MPI_Allreduce compute the global residual, as a solver's convergence
 * test does. On the 2-core VM bench/run-apps runs 2 ranks of 1 OpenMP
 * thread each, so every core runs a rank and none is left for weft's
 * writer threads.
 *
 * Prints, on rank 0, "<seconds of the step loop> <steps> <ranks> <threads>
 * <residual>". */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int rows, cols;
static double *u, *unew;

#define AT(a, r, c) (a)[(size_t)(r) * (size_t)cols + (size_t)(c)]

static void exchange(int rank, int ranks)
{
    MPI_Request req[4];
    int n = 0;
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
    MPI_Irecv(&AT(u, 0, 0), cols, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[n++]);
    MPI_Irecv(&AT(u, rows + 1, 0), cols, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(&AT(u, 1, 0), cols, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(&AT(u, rows, 0), cols, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[n++]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

static void relax(void)
{
    int r_n = rows, c_n = cols;
#pragma omp parallel for firstprivate(r_n, c_n)
    for (int r = 1; r <= r_n; r++)
        for (int c = 1; c < c_n - 1; c++)
            AT(unew, r, c) = 0.25 * (AT(u, r - 1, c) + AT(u, r + 1, c) + AT(u, r, c - 1) +
                                     AT(u, r, c + 1));
#pragma omp parallel for firstprivate(r_n, c_n)
    for (int r = 1; r <= r_n; r++)
        for (int c = 1; c < c_n - 1; c++)
            AT(u, r, c) = AT(unew, r, c);
}

static double residual(void)
{
    double local = 0, global = 0;
    int r_n = rows, c_n = cols;
#pragma omp parallel for reduction(+ : local) firstprivate(r_n, c_n)
    for (int r = 1; r <= r_n; r++)
        for (int c = 1; c < c_n - 1; c++) {
            double d = 0.25 * (AT(u, r - 1, c) + AT(u, r + 1, c) + AT(u, r, c - 1) +
                               AT(u, r, c + 1)) -
                       AT(u, r, c);
            local += d * d;
        }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sqrt(global);
}

int main(int argc, char **argv)
{
    int provided, rank, ranks;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    long steps = argc > 1 ? atol(argv[1]) : 4000;
    rows = argc > 2 ? atoi(argv[2]) : 64;
    cols = argc > 3 ? atoi(argv[3]) : 512;
    if (provided < MPI_THREAD_FUNNELED || steps <= 0 || rows <= 0 || cols < 3) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np RANKS %s [STEPS [ROWS [COLUMNS]]] (and an MPI "
                            "with MPI_THREAD_FUNNELED)\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    /* rows + 2: a halo row above and below. The left and right columns are
     * fixed boundary values; the global top row is hot. */
    u = calloc((size_t)(rows + 2) * (size_t)cols, sizeof(double));
    unew = calloc((size_t)(rows + 2) * (size_t)cols, sizeof(double));
    if (!u || !unew) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < rows + 2; r++) {
        AT(u, r, 0) = AT(unew, r, 0) = 1.0;
        AT(u, r, cols - 1) = AT(unew, r, cols - 1) = 1.0;
    }
    if (rank == 0)
        for (int c = 0; c < cols; c++)
            AT(u, 0, c) = AT(unew, 0, c) = 2.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    double res = 0;
    for (long s = 0; s < steps; s++) {
        exchange(rank, ranks);
        if (rank == 0) /* the fixed hot boundary, overwritten by no neighbour */
            for (int c = 0; c < cols; c++)
                AT(u, 0, c) = 2.0;
        relax();
        if (s % 10 == 9)
            res = residual();
    }
    double elapsed = MPI_Wtime() - start;
    if (rank == 0)
        printf("%.6f %ld %d %d %.6g\n", elapsed, steps, ranks, omp_get_max_threads(), res);
    free(u);
    free(unew);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
