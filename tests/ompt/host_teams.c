/* A host `teams` construct (OpenMP 5.0) with a parallel region in each of
 * its two teams, after a parallel region of the initial thread: each league
 * team's initial thread forks its own one-thread team, which must not share
 * its id with the other team's or with the initial thread's earlier one
 * (weft check: a team begun a different number of times on two threads). */
#include <stdio.h>

int main(void)
{
    int count = 0;
#pragma omp parallel num_threads(1)
    count++;
#pragma omp teams num_teams(2)
#pragma omp parallel num_threads(1)
    {
#pragma omp atomic
        count++;
    }
    printf("%d\n", count > 1);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
