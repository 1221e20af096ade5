/* Cancellation of a loop (OpenMP 4.0): OPARI2 gives the loop a nowait of
 * its own, to which the cancel directives inside would then bind (clang
 * refuses that, gcc ignores the cancellation); weft compile takes it away
 * again. Run with OMP_CANCELLATION=true. */
#include <stdio.h>

int main(void)
{
    long found = -1;
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int i = 0; i < 1000; i++) {
            if (i == 100) {
#pragma omp atomic write
                found = i;
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
    }
    printf("%ld\n", found);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
