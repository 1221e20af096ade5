/* Tasks nested DEPTH deep: each task records a critical section, creates
 * the next one and waits for it. A thread waiting in a taskwait runs the
 * child itself unless the other thread takes it, so the threads' stacks of
 * open regions (a task region and a taskwait per level) hold far more than
 * the OMPT adapter's 256 inline entries, as a recursive search does (BOTS's
 * concom and uts). The adapter kept at most 256 open regions per thread
 * before: deeper task regions were not recorded, and their ends later
 * closed the wrong regions (weft check: a taskwait left while an implicit
 * barrier was innermost; Scalasca's analyzer crashed). */
#include <stdio.h>

enum { DEPTH = 400 };

static long count;

static void level(int depth)
{
#pragma omp critical
    count++;
    if (depth + 1 < DEPTH) {
#pragma omp task firstprivate(depth)
        level(depth + 1);
#pragma omp taskwait
    }
}

int main(void)
{
#pragma omp parallel
#pragma omp single
    level(0);
    printf("%ld\n", count);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
