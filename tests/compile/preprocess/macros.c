/* OpenMP through the preprocessor: a clause from a macro, a construct from
 * _Pragma inside a macro, and a construct whose whole pragma is a macro.
 * OPARI2 reading the source sees none of the two last ones; after the
 * preprocessor it instruments all three. */
#include <stdio.h>

#define THREADS 2
#define PARALLEL_FOR _Pragma("omp parallel for num_threads(THREADS)")
#define CRITICAL(stmt) _Pragma("omp critical") stmt

int main(void)
{
    int hits = 0, squares = 0;
#pragma omp parallel num_threads(THREADS)
    {
        CRITICAL(hits++;)
    }
    PARALLEL_FOR
    for (int i = 0; i < 10; i++) {
#pragma omp atomic
        squares += i * i;
    }
    printf("hits=%d squares=%d\n", hits, squares);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
