/* Constructs whose statement is an unbraced if-else, directly or as the
 * body of their loops, with `else` ending its line (LLNL AMG's par_rap.c).
 * OPARI2 2.0.7 ended the construct after that `else`: its end code became
 * the else branch, so the `for nowait` loop computed another sum and the
 * `for` did not compile ("'else' without a previous 'if'"). weft compile
 * braces such an `if` before OPARI2 reads it. */
#include <stdio.h>

int main(void)
{
    int a[100], i, sum = 0, x = 0;
#pragma omp parallel
    {
#pragma omp for nowait
        for (i = 0; i < 100; i++)
            if (i % 2)
                a[i] = 1;
            else
                a[i] = 2;
    }
#pragma omp parallel reduction(+ : x)
    if (x == 0)
        x = 1;
    else
        x = 7;
#pragma omp parallel
#pragma omp single
    if (x > 0)
        sum += 0;
    else
        sum += 1000;
#pragma omp parallel for reduction(+ : sum)
    for (i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            if (j % 2)
                sum += 1;
            else
                sum += 0;
    for (i = 0; i < 100; i++)
        sum += a[i];
    printf("sum=%d x=%d\n", sum, x > 0);
    return sum == 200 ? 0 : 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
