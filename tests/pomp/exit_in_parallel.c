/* exit() from a worker thread inside a parallel region while the master
 * waits in the region's barrier (docs/FAULTS.md). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    double sum = 0.0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        for (int i = 0; i < 1000; i++)
            sum += i * 0.5;
        if (omp_get_thread_num() == 1) {
            usleep(100000);
            printf("thread 1 ends the program\n");
            fflush(stdout);
            exit(0);
        }
#pragma omp barrier
    }
    printf("not reached: %f\n", sum);
    return 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
