#include <omp.h>
#include <stdio.h>

int main(void)
{
    int count = 0, threads = 0;
#pragma omp parallel
    {
#pragma omp critical
        {
            count++;
            threads = omp_get_num_threads();
        }
    }
    printf("threads=%d count=%d\n", threads, count);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
