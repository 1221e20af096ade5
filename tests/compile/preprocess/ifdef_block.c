/* Conditional compilation around the structured blocks of `parallel` and
 * `single` (issue 19): OPARI2 reading the source before the preprocessor
 * puts the end of each construct inside the #ifdef. */
#include <stdio.h>

int main(void)
{
    int sum = 0;
#pragma omp parallel
#ifdef WEFT_TEST_ALTERNATIVE
    {
        sum = -1;
    }
#else
    {
#pragma omp atomic
        sum += 1;
    }
#endif
    int once = 0;
#pragma omp parallel
    {
#pragma omp single
#if defined(WEFT_TEST_ALTERNATIVE)
        once = -1;
#else
        once += 10;
#endif
    }
    printf("sum=%d once=%d\n", sum, once);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
