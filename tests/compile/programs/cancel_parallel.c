/* A parallel region that may be cancelled: weft compile warns that OPARI2
 * does not instrument its cancel directive. */
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel
    {
#pragma omp atomic
        n++;
#pragma omp cancel parallel if (n > 1000)
    }
    printf("%d\n", n > 0);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
