/* Two-file program (with twofile_work.c), compiled file by file and then
 * linked through weft compile: constructs in both files are traced. */
#include <stdio.h>

long twofile_work(int repeat);

int main(void)
{
    long sum = 0;
    for (int r = 0; r < 3; r++) {
#pragma omp parallel reduction(+ : sum)
        sum += twofile_work(r); /* end: parallel */
    }
    printf("%ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
