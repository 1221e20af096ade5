/* Whole-application proxy: recursive tasks in the style of BOTS nqueens
 * (bench/run-apps builds it plain and traced and compares).
 *
 *   app_tasks [N [CUTOFF]]      (default N = 10, CUTOFF = N: no cut-off)
 *
 * Counts the placements of N queens on an N x N board. Like BOTS's
 * nqueens (omp-tasks version), one thread of a parallel region starts the
 * search, and every square tried in a row is a task of its own (`untied`,
 * the board copied into the task), whose parent waits for all of them with
 * `taskwait` before adding up their counts. Below depth CUTOFF the search
 * goes on serially inside the task (BOTS's manual cut-off). OPARI2 makes
 * untied tasks tied unless told otherwise (weft compile --keep-untied), and
 * tied tasks are scheduled differently, so bench/run-apps also builds a
 * plain copy with `untied` taken out of the task pragma, to tell the
 * scheduling's share from weft's. (The pragma is written out, not built by
 * a macro: OPARI2 reads pragmas as text, before the preprocessor. `untied`
 * comes last: OPARI2 2.0.7 removes it together with the next character, so
 * "untied firstprivate(i)" would become "irstprivate(i)".)
 *
 * With N = 10 and no cut-off that is 348,150 tasks: about 2.8 million
 * events through POMP2 or OMPT, BOTS's "nqueens -n 10".
 *
 * Prints "<seconds of the search> <tasks> <threads> <solutions>". */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_N = 16 };

static int cutoff;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether queen n-1 (at column a[n-1] of row n-1) is safe from rows 0..n-2. */
static int ok(int n, const char *a)
{
    for (int i = 0; i < n; i++) {
        char p = a[i];
        for (int j = i + 1; j < n; j++) {
            char q = a[j];
            if (q == p || q == p - (j - i) || q == p + (j - i))
                return 0;
        }
    }
    return 1;
}

/* The serial search below the cut-off. */
static long serial(int n, int j, char *a)
{
    if (n == j)
        return 1;
    long count = 0;
    for (int i = 0; i < n; i++) {
        a[j] = (char)i;
        if (ok(j + 1, a))
            count += serial(n, j + 1, a);
    }
    return count;
}

/* Rows j..n-1 given rows 0..j-1 in a: one task per square of row j. */
static void solve(int n, int j, const char *a, long *solutions, int depth)
{
    if (n == j) {
        *solutions = 1;
        return;
    }
    long counts[MAX_N] = {0};
    for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i) shared(counts) untied
        {
            char b[MAX_N];
            memcpy(b, a, (size_t)j);
            b[j] = (char)i;
            if (ok(j + 1, b)) {
                if (depth + 1 < cutoff)
                    solve(n, j + 1, b, &counts[i], depth + 1);
                else
                    counts[i] = serial(n, j + 1, b);
            }
        }
    }
#pragma omp taskwait
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += counts[i];
    *solutions = sum;
}

/* Tasks the search creates: n per node above the cut-off that is a valid
 * partial placement (counted serially, for the report). */
static long count_tasks(int n, int j, char *a, int depth)
{
    if (n == j || depth >= cutoff)
        return 0;
    long tasks = n;
    for (int i = 0; i < n; i++) {
        a[j] = (char)i;
        if (ok(j + 1, a))
            tasks += count_tasks(n, j + 1, a, depth + 1);
    }
    return tasks;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    cutoff = argc > 2 ? atoi(argv[2]) : n;
    if (n < 1 || n > MAX_N || cutoff < 1) {
        fprintf(stderr, "usage: %s [N [CUTOFF]]  (1 <= N <= %d, CUTOFF >= 1)\n", argv[0], MAX_N);
        return 2;
    }
    char a[MAX_N];
    long solutions = 0;
    double start = now_s();
#pragma omp parallel
    {
#pragma omp single
        solve(n, 0, a, &solutions, 0);
    }
    double elapsed = now_s() - start;
    long tasks = count_tasks(n, 0, a, 0);
    printf("%.6f %ld %d %ld\n", elapsed, tasks, omp_get_max_threads(), solutions);
    static const long known[] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712,
                                 365596, 2279184, 14772512};
    return solutions == known[n] ? 0 : 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
