/* Tasks the initial thread creates outside any parallel region (BOTS
 * concom's serial phase), then inside one. Outside, a task belongs to the
 * initial thread's one-thread team, which no team begin announces: that
 * team was written with no members, and every such task's creating thread
 * resolved to nothing (weft check: a task created by thread 0 of a team of
 * 0 members). The creating thread now makes itself the team's member. */
#include <stdio.h>

enum { TASKS = 8 };

static long total;

static void work(long k)
{
#pragma omp atomic
    total += k;
}

int main(void)
{
    for (int i = 0; i < TASKS; i++) {
#pragma omp task firstprivate(i)
        work(i);
    }
#pragma omp taskwait
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int i = 0; i < TASKS; i++) {
#pragma omp task firstprivate(i)
        work(i);
    }
    printf("%ld\n", total);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
