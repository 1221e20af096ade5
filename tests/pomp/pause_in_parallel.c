/* Pausing recording inside parallel regions, for POMP2 and OMPT alike:
 * `#pragma pomp inst off/on` is what OPARI2 turns into POMP2_Off/POMP2_On,
 * omp_control_tool pause/start is what an OMPT tool receives; each build
 * sees only its own (the other is an unknown pragma, or a call with no tool
 * listening). check_pause_trace reads the trace back.
 *
 *   parallel 1: recorded
 *   parallel 2: begun recorded; the master pauses inside it, after every
 *               thread is in it; it ends during the pause
 *   parallel 3: entirely during the pause
 *   parallel 4: begun during the pause; the master resumes inside it
 *   parallel 5: recorded
 * So every thread has 3 parallel regions in the trace, all balanced. */
#include <omp.h>
#include <stdio.h>

static long sum;

static void plain_parallel(void)
{
#pragma omp parallel reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
}

int main(void)
{
    plain_parallel();
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp barrier
#pragma omp master
        {
#pragma pomp inst off
            omp_control_tool(omp_control_tool_pause, 0, NULL);
        }
#pragma omp barrier
        sum += 10;
    }
    plain_parallel();
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp barrier
#pragma omp master
        {
#pragma pomp inst on
            omp_control_tool(omp_control_tool_start, 0, NULL);
        }
#pragma omp barrier
        sum += 100;
    }
    plain_parallel();
    printf("sum %ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
