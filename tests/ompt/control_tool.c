/* omp_control_tool under weft run: three parallel regions recorded, three
 * paused, three recorded each followed by a flush, then "end" and three
 * more that are not recorded. check_control_tool reads the trace back. */
#include <omp.h>
#include <stdio.h>

static long sum;

static void parallel_region(void)
{
#pragma omp parallel reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
}

int main(void)
{
    for (int i = 0; i < 3; i++)
        parallel_region();
    omp_control_tool(omp_control_tool_pause, 0, NULL);
    for (int i = 0; i < 3; i++)
        parallel_region();
    omp_control_tool(omp_control_tool_start, 0, NULL);
    for (int i = 0; i < 3; i++) {
        parallel_region();
        omp_control_tool(omp_control_tool_flush, 0, NULL);
    }
    omp_control_tool(omp_control_tool_end, 0, NULL);
    omp_control_tool(omp_control_tool_start, 0, NULL); /* ignored after end */
    for (int i = 0; i < 3; i++)
        parallel_region();
    printf("sum %ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
