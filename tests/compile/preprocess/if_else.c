/* An OpenMP construct that is the unbraced body of an `if` with an `else`
 * (issue 19): OPARI2 takes the `else` into the construct ("'else' without a
 * previous 'if'"). */
#include <stdio.h>

static int fill(int *a, int n, int parallel)
{
    if (parallel)
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            a[i] = 2 * i;
    else
        for (int i = 0; i < n; i++)
            a[i] = -1;
    return a[n - 1];
}

int main(void)
{
    int a[64];
    int first = fill(a, 64, 1);
    int second = fill(a, 64, 0);
    printf("first=%d second=%d\n", first, second);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
