/* Combined constructs OPARI2 2.0.7 leaves whole, split by weft compile on
 * their line: `master taskloop` (OPARI2 put its calls between the taskloop
 * directive and its loop) and `parallel loop`. */
#include <stdio.h>

int main(void)
{
    double a[1000];
#pragma omp parallel num_threads(2)
#pragma omp master taskloop grainsize(100) firstprivate(a)
    for (int i = 0; i < 1000; i++)
        a[i] = 0;
    for (int i = 0; i < 1000; i++)
        a[i] = i;
#pragma omp parallel loop num_threads(2)
    for (int i = 0; i < 1000; i++)
        a[i] *= 2;
    printf("%.1f\n", a[999]);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
