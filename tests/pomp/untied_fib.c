/* A recursive task code in the style of the Barcelona OpenMP Tasks Suite
 * (its fib): every task `untied`, with clauses after it, the spelling that
 * OPARI2 2.0.7 turned into "hared(x)" (issue 19). Built by weft compile by
 * default and traced through POMP2, and traced unmodified through OMPT: the
 * untied tasks' regions have the same names in both traces.
 *
 * fib(N) makes one call per node of its call tree, 2 fib(N+1) - 1 calls;
 * every call but the root's runs as a task, and every call with n >= 2
 * creates two tasks and waits for them. */
#include <stdio.h>

#define N 12

static long fib(int n)
{
    long x = 0, y = 0;
    if (n < 2)
        return n;
#pragma omp task untied shared(x) firstprivate(n)
    x = fib(n - 1);
#pragma omp task untied firstprivate(n) shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(void)
{
    long result = 0;
#pragma omp parallel
#pragma omp single
    result = fib(N);
    printf("fib(%d)=%ld\n", N, result);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
