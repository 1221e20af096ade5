/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel regions of two threads, one, and two: the worker takes part in
 * the first and the last only, and libomp reports its last region's end
 * only when it is woken again, so at the end of the program its team is
 * still open and the recorder's sink closes it. The sink then must not
 * take the master for a thread one run short of that team (it compared
 * runs since the last change of team, 2 on the worker against 1 on the
 * master, and added a run to the master). */
#include <omp.h>
#include <stdio.h>

enum { REGIONS = 3 }; /* two threads, one, two */

int main(void)
{
    long sum = 0;
    for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(r % 2 ? 1 : 2) reduction(+ : sum)
        sum += omp_get_thread_num() + 1;
    }
    printf("%ld\n", sum);
    return 0;
}
