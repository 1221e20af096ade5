/* OpenMP run from a thread other than the main one: the main thread starts
 * one compute thread and waits for it; that thread forks REGIONS parallel
 * regions. Nothing encloses those forks on its location (the program region
 * is the main thread's), which Scalasca's analyzer crashes on: the
 * recorder's sink encloses them in a region "thread" (entered once, before
 * the first fork, left when the thread ends). */
#include <pthread.h>
#include <stdio.h>

enum { REGIONS = 5 };

static void *compute(void *arg)
{
    long *sum = arg;
    for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum[0])
        {
#pragma omp for
            for (int i = 0; i < 1000; i++)
                sum[0] += i;
        }
    }
    return NULL;
}

int main(void)
{
    long sum = 0;
    pthread_t thread;
    pthread_create(&thread, NULL, compute, &sum);
    pthread_join(thread, NULL);
    printf("%ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
