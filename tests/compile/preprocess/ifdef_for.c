/* `#pragma omp for` before #if/#else/#endif choosing one of two loop
 * headers, each opening the loop's block (issue 19): OPARI2 reading the
 * source sees two loops and one closing brace and places the end of the
 * construct where the compiler finds 'pomp2_old_task' undeclared. */
#include <stdio.h>

#define N 100

int main(void)
{
    long sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp for
#if N > 50
        for (int i = 0; i < N; i++) {
#else
        for (int i = N - 1; i >= 0; i--) {
#endif
            sum += i;
        }
    }
    printf("sum=%ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
