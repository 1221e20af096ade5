/* OpenMP 5.0's combined parallel master: OPARI2 2.0.7 would put its barrier
 * inside the master block (the compiler refuses it); weft compile splits
 * the directive into parallel and master first, on the directive's line. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int threads = 0;
#pragma omp parallel master num_threads(2) shared(threads)
    {
        threads = omp_get_num_threads();
    }
    printf("%d\n", threads);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
