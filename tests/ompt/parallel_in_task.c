/* A parallel region inside an explicit task, whose team creates a task and
 * waits for it. The thread that runs the outer task begins the inner team
 * and runs that team's implicit task until the team ends, then goes on in
 * the outer task; the trace has no task switch for either (as Score-P
 * writes it). weft check once kept the thread in the outer task, so the
 * inner team's regions, left after the inner task's completion, counted as
 * left in the wrong task. */
#include <omp.h>
#include <stdio.h>

static double work(int n)
{
    volatile double x = 0;
    for (int i = 0; i < n; i++)
        x += i * 0.5;
    return x;
}

int main(void)
{
    long total = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(total)
        {
#pragma omp parallel num_threads(2) shared(total)
            {
#pragma omp single
                {
#pragma omp task
                    work(1000);
#pragma omp taskwait
                }
#pragma omp atomic
                total += 1;
            }
        }
#pragma omp taskwait
    }
    printf("total %ld\n", total);
    return total != 2;
}
/* SPDX-License-Identifier: BSD-3-Clause */
