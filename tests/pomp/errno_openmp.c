/* errno around the first OpenMP constructs: a traced program must see what
 * it set (docs/FAULTS.md). Exit 5 (and a line) when it changed. (LLVM's
 * libomp changes errno itself when it starts, traced or not: this runs on
 * GCC's libgomp, through POMP2.) */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    double sum = 0.0;
    errno = EDOM;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 1000; i++)
        sum += i * 0.5;
    if (errno != EDOM) {
        printf("errno is %d (%s) after the first parallel loop\n", errno, strerror(errno));
        return 5;
    }
#pragma omp parallel
    {
#pragma omp critical
        sum += 1.0;
    }
    if (errno != EDOM) {
        printf("errno is %d (%s) after the second parallel region\n", errno, strerror(errno));
        return 5;
    }
    printf("errno kept: %g\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
