/* Many small tasks recorded into a small buffer (the test sets
 * WEFT_BUFFER_SIZE=64K), so that threads wait for the writer and buffer
 * flush records land among task events. A flush recorded between a task's
 * completion and the task switch after it made Scalasca's analyzer take
 * the completed task's events for the implicit task's (it crashed on BOTS's
 * uts at the default buffer size); weft check now reports that position,
 * and the recorder keeps room for the switch when it records a completion. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    long x, y;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(n);
    printf("fib(%d) = %ld\n", n, r);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
