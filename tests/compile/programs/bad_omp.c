/* A compile error inside an OpenMP construct, after conditional
 * compilation: the messages through weft compile must be the compiler's
 * own, at the same lines. */
#include <stdio.h>

int main(void)
{
    int sum = 0;
#pragma omp parallel
#ifdef NEVER_DEFINED
    {
        sum = -1;
    }
#else
    {
#pragma omp atomic
        sum += undeclared_variable;
    }
#endif
    printf("%d\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
