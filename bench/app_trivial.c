/* Whole-application proxy for weft's fixed cost: a trivial two-thread
 * program (bench/run-apps runs it plain and traced; the difference of the
 * whole process's wall time is what starting weft, recording a handful of
 * events and writing the trace cost).
 *
 *   app_trivial
 *
 * One parallel region whose threads each add their number to a shared sum.
 * Prints "- <sum> <threads>": no timed loop of its own (the "-" tells
 * bench/run-apps so). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int sum = 0;
#pragma omp parallel reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    printf("- %d %d\n", sum, omp_get_max_threads());
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
