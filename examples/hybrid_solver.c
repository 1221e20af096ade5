/* The bundled hybrid example: a Jacobi solver for the steady-state heat
 * equation on an N x N grid, split by rows across MPI ranks, each rank's
 * rows updated by an OpenMP team. Every iteration exchanges one halo row
 * with each neighbour (MPI_Isend/MPI_Irecv + MPI_Waitall), updates the
 * rows in `omp parallel for`, and agrees on the largest change of any
 * point (an OpenMP max reduction, then MPI_Allreduce). At the end rank 0
 * gathers the row sums and prints one line: the last change and a checksum.
 *
 * The result does not depend on the number of ranks or threads, nor on
 * whether the program is traced: every point's update is the same sequence
 * of operations wherever it runs, a maximum is exact in any order, and the
 * checksum adds the row sums in row order on rank 0. `scripts/demo` traces
 * it; examples/README.md shows how to build and run it by hand.
 *
 *   hybrid_solver [N [ITERATIONS]]      (defaults: 1024 and 2000) */
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_N 1024
#define DEFAULT_ITERATIONS 2000

/* Temperature held on the top edge of the plate; the other three edges are 0. */
#define HOT_EDGE 1.0

enum { TAG_TO_UPPER = 1, TAG_TO_LOWER = 2 };

/* This rank's rows: `rows` interior rows of `n` interior columns, stored with
 * a halo row above and below and a boundary column left and right, so that
 * row i (0 .. rows+1), column j (0 .. n+1) is at [i * (n + 2) + j]. Rows 0
 * and rows+1 hold the neighbours' rows, or the fixed edge of the plate on
 * the first and the last rank. */
typedef struct slab {
    int n;         /* interior columns (the global grid is n x n) */
    int rows;      /* interior rows on this rank */
    int first_row; /* global index of this rank's first interior row */
    int upper;     /* rank holding the rows above, or MPI_PROC_NULL */
    int lower;     /* rank holding the rows below, or MPI_PROC_NULL */
    double *now;   /* current values */
    double *next;  /* values being computed */
} slab;

static double *row_of(const slab *s, double *grid, int i)
{
    return grid + (size_t)i * (size_t)(s->n + 2);
}

/* malloc, or the end of the whole job: an example has no better answer to
 * running out of memory, and MPI_Abort stops the other ranks too. */
static void *checked_malloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        fprintf(stderr, "hybrid_solver: out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Parses a positive int no larger than `max`; returns 0 on a bad value. */
static int parse_count(const char *text, long max)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 1 || value > max)
        return 0;
    return (int)value;
}

/* Splits n rows over `size` ranks as evenly as possible; the first n % size
 * ranks get one more. Sets rows and first_row of rank `rank`. */
static void split_rows(slab *s, int rank, int size)
{
    int base = s->n / size, extra = s->n % size;
    s->rows = base + (rank < extra ? 1 : 0);
    s->first_row = rank * base + (rank < extra ? rank : extra);
}

/* Allocates both grids and sets every value: 0 inside and on three edges,
 * HOT_EDGE on the top edge (the first rank's top halo row). */
static void slab_init(slab *s, int rank, int size)
{
    size_t count = (size_t)(s->rows + 2) * (size_t)(s->n + 2);
    s->now = checked_malloc(count * sizeof(double));
    s->next = checked_malloc(count * sizeof(double));
    for (size_t k = 0; k < count; k++)
        s->now[k] = s->next[k] = 0.0;
    s->upper = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    s->lower = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    if (rank == 0) {
        /* The top edge, corners included: no neighbour ever overwrites it,
         * since receives from MPI_PROC_NULL complete without touching the
         * buffer. */
        for (int j = 0; j < s->n + 2; j++) {
            row_of(s, s->now, 0)[j] = HOT_EDGE;
            row_of(s, s->next, 0)[j] = HOT_EDGE;
        }
    }
}

static void slab_free(slab *s)
{
    free(s->now);
    free(s->next);
}

/* Swaps the first and last interior rows with the neighbours' into the halo
 * rows of s->now. Non-blocking, so neither neighbour waits for the other to
 * post its receive; at the plate's edges the neighbour is MPI_PROC_NULL and
 * those calls complete at once. */
static void exchange_halos(slab *s)
{
    MPI_Request requests[4];
    int width = s->n + 2;
    MPI_Irecv(row_of(s, s->now, 0), width, MPI_DOUBLE, s->upper, TAG_TO_LOWER, MPI_COMM_WORLD,
              &requests[0]);
    MPI_Irecv(row_of(s, s->now, s->rows + 1), width, MPI_DOUBLE, s->lower, TAG_TO_UPPER,
              MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(row_of(s, s->now, 1), width, MPI_DOUBLE, s->upper, TAG_TO_UPPER, MPI_COMM_WORLD,
              &requests[2]);
    MPI_Isend(row_of(s, s->now, s->rows), width, MPI_DOUBLE, s->lower, TAG_TO_LOWER, MPI_COMM_WORLD,
              &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

/* One Jacobi sweep: each interior point of s->next becomes the mean of its
 * four neighbours in s->now. Returns the largest change of any point on
 * this rank. A max reduction, unlike a sum, gives the same result whatever
 * order the threads combine their parts in. */
static double sweep(const slab *s)
{
    double change = 0.0;
    const int n = s->n;
#pragma omp parallel for reduction(max : change) schedule(static)
    for (int i = 1; i <= s->rows; i++) {
        const double *above = row_of(s, s->now, i - 1);
        const double *here = row_of(s, s->now, i);
        const double *below = row_of(s, s->now, i + 1);
        double *out = row_of(s, s->next, i);
        for (int j = 1; j <= n; j++) {
            out[j] = 0.25 * (above[j] + below[j] + here[j - 1] + here[j + 1]);
            double d = fabs(out[j] - here[j]);
            if (d > change)
                change = d;
        }
    }
    return change;
}

/* Rank 0 receives every row's sum, in global row order, and adds them in
 * that order: the checksum is the same for any number of ranks. Returns the
 * checksum on rank 0, 0 elsewhere. */
static double checksum(const slab *s, int rank, int size)
{
    double *sums = checked_malloc((size_t)s->rows * sizeof(double));
#pragma omp parallel for schedule(static)
    for (int i = 1; i <= s->rows; i++) {
        const double *row = row_of(s, s->now, i);
        double sum = 0.0;
        for (int j = 1; j <= s->n; j++)
            sum += row[j];
        sums[i - 1] = sum;
    }
    double *all = NULL;
    int *counts = NULL, *offsets = NULL;
    if (rank == 0) {
        all = checked_malloc((size_t)s->n * sizeof(double));
        counts = checked_malloc((size_t)size * sizeof(int));
        offsets = checked_malloc((size_t)size * sizeof(int));
        for (int r = 0; r < size; r++) {
            slab other = {.n = s->n};
            split_rows(&other, r, size);
            counts[r] = other.rows;
            offsets[r] = other.first_row;
        }
    }
    MPI_Gatherv(sums, s->rows, MPI_DOUBLE, all, counts, offsets, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double total = 0.0;
    if (rank == 0) {
        for (int i = 0; i < s->n; i++)
            total += all[i];
    }
    free(sums);
    free(all);
    free(counts);
    free(offsets);
    return total;
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    /* Only the thread that called MPI_Init_thread calls MPI, outside the
     * OpenMP regions: FUNNELED is all this program needs. */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    slab s = {.n = DEFAULT_N};
    int iterations = DEFAULT_ITERATIONS;
    /* Columns and rows both fit in an int count of doubles per message. */
    if (argc > 1)
        s.n = parse_count(argv[1], 1 << 20);
    if (argc > 2)
        iterations = parse_count(argv[2], 1L << 30);
    const char *problem = NULL;
    if (provided < MPI_THREAD_FUNNELED)
        problem = "the MPI library does not provide MPI_THREAD_FUNNELED";
    else if (argc > 3 || s.n == 0 || iterations == 0)
        problem = "usage: hybrid_solver [N [ITERATIONS]] (positive integers)";
    else if (s.n < size)
        problem = "N must be at least the number of ranks";
    if (problem) {
        if (rank == 0)
            fprintf(stderr, "hybrid_solver: %s\n", problem);
        MPI_Finalize();
        return 2;
    }

    split_rows(&s, rank, size);
    slab_init(&s, rank, size);

    double change = 0.0;
    for (int it = 0; it < iterations; it++) {
        exchange_halos(&s);
        double local = sweep(&s);
        MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        double *swap = s.now;
        s.now = s.next;
        s.next = swap;
    }

    double sum = checksum(&s, rank, size);
    if (rank == 0)
        printf("hybrid_solver: %dx%d grid, %d iterations, %d ranks x %d threads: "
               "last change %.9e, checksum %.9f\n",
               s.n, s.n, iterations, size, omp_get_max_threads(), change, sum);
    slab_free(&s);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
