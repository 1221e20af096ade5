/* One untied task creates waves of small untied tasks and waits for each
 * wave (BOTS sparselu's single-producer shape). While it waits, the other
 * thread takes its rest, so the producer's parts move between the threads:
 * a part that returns to the queue is parked (its regions left), and the
 * thread often goes straight on into one of the wave's tasks. Recorded with
 * the switch back to the implicit task in between, that task's first switch
 * made Scalasca's analyzer walk back over the parked task's Leaves and crash
 * (weft check: a task switch right after a switch to the implicit task from
 * a task that did not complete). */
#include <stdio.h>

enum { ROUNDS = 20, WIDTH = 20 };

static double a[2 * WIDTH + 1];

static void work(int i)
{
    for (int k = 0; k < 2000; k++)
        a[i] = a[i] * 0.5 + k;
}

int main(void)
{
#pragma omp parallel
#pragma omp single nowait
#pragma omp task untied
    for (int r = 0; r < ROUNDS; r++) {
        work(0);
        for (int j = 0; j < WIDTH; j++) {
#pragma omp task firstprivate(j) untied
            work(j + 1);
        }
#pragma omp taskwait
        for (int j = 0; j < 2 * WIDTH; j++) {
#pragma omp task firstprivate(j) untied
            work(j + 1);
        }
#pragma omp taskwait
    }
    printf("%g\n", a[1]);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
