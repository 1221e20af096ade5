/* Clauses of combined loops that OPARI2 2.0.7 gives the parallel region,
 * where the compiler refuses them: the `simd` of `parallel for simd`, and
 * `safelen`, `linear` and `order`. weft compile passes them to the loop. */
#include <stdio.h>

int main(void)
{
    double a[1000], s = 0;
    int j = 0;
#pragma omp parallel for simd safelen(8) reduction(+ : s)
    for (int i = 0; i < 1000; i++) {
        a[i] = i * 0.5;
        s += a[i];
    }
#pragma omp parallel for linear(j : 2) order(concurrent)
    for (int i = 0; i < 1000; i++) {
        a[i] += j;
        j += 2;
    }
    printf("%.1f %.1f\n", s, a[999]);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
