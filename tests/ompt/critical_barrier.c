/* A critical section left by the other threads while the master enters
 * an explicit barrier, 60000 times: libomp 14 then sometimes loses the
 * master's codeptr_ra for the barrier (ompt_callsite.c). The checker
 * (check_critical_barrier.c) expects every barrier visit on this file's
 * barrier line. */
#include <stdio.h>

#define ITERATIONS 60000

int main(void)
{
    long entered = 0;
#pragma omp parallel shared(entered)
    {
        for (int i = 0; i < ITERATIONS; i++) {
#pragma omp critical
            entered++;
#pragma omp barrier
        }
    }
    printf("%ld\n", entered);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
