/* Doacross loops (OpenMP 4.5): stand-alone `ordered depend` directives,
 * which OPARI2 2.0.7 takes for the start of an ordered block, and an
 * `ordered(1)` clause on a combined construct, which it splits. weft
 * compile hides them from it; the loops and the parallel regions are
 * recorded, the directives are not (POMP2 has no event for them). */
#include <stdio.h>

int main(void)
{
    int a[64] = {0}, b[64] = {0};
#pragma omp parallel
    {
#pragma omp for ordered(1)
        for (int i = 1; i < 64; i++) {
#pragma omp ordered depend(sink : i - 1)
            a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
        }
    }
#pragma omp parallel for ordered(1) schedule(static)
    for (int i = 1; i < 64; i++) {
#pragma omp ordered depend(sink : i - 1)
        b[i] = b[i - 1] + 2;
#pragma omp ordered depend(source)
    }
    printf("%d %d\n", a[63], b[63]);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
