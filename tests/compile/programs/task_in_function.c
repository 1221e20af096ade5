/* A task in a function: clang -Wall warned that OPARI2's task handle may be
 * used uninitialized (an error with -Werror, at this file's lines). */
#include <stdio.h>

static int twice(int n)
{
    int x = 0;
#pragma omp task shared(x)
    x = n * 2;
#pragma omp taskwait
    return x;
}

int main(void)
{
    int r = 0;
#pragma omp parallel
#pragma omp single
    r = twice(21);
    printf("%d\n", r);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
