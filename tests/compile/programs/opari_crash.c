/* A string literal left open across lines, as a build script wrote it
 * (CoMD's generated header, when its compiler command was two words):
 * the compiler rejects it, and OPARI2 2.0.7 crashes on it (on weft
 * compile's preprocessed copy). Kept as it is: */
/* clang-format off */
#include <stdio.h>
#define COMPILER "'/usr/bin/weft
/usr/bin/mpicc'"

int main(void)
{
#pragma omp parallel
    printf("%s\n", COMPILER);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
