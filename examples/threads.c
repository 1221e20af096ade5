/* The bundled example: a small multi-threaded computation marked with
 * weft's user-region API. Each worker thread integrates part of 4/(1+x^2)
 * over [0,1] (which gives pi) in nested regions; the main thread combines
 * the parts. `scripts/demo` builds it, runs it and summarises the trace. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <weft/user.h>

#define THREADS 4
#define STEPS_PER_BLOCK 20000
#define BLOCKS 200

typedef struct part {
    int index;
    double sum;
} part;

static double integrate_block(int block, int thread)
{
    WEFT_USER_REGION_BEGIN("integrate_block");
    const double width = 1.0 / ((double)BLOCKS * THREADS * STEPS_PER_BLOCK);
    long first = ((long)block * THREADS + thread) * STEPS_PER_BLOCK;
    double sum = 0.0;
    for (long i = first; i < first + STEPS_PER_BLOCK; i++) {
        double x = ((double)i + 0.5) * width;
        sum += 4.0 / (1.0 + x * x);
    }
    WEFT_USER_REGION_END("integrate_block");
    return sum * width;
}

static void *worker(void *arg)
{
    part *p = arg;
    WEFT_USER_REGION_BEGIN("worker");
    for (int block = 0; block < BLOCKS; block++)
        p->sum += integrate_block(block, p->index);
    WEFT_USER_REGION_END("worker");
    return NULL;
}

int main(void)
{
    WEFT_USER_REGION_BEGIN("main");
    pthread_t threads[THREADS];
    part parts[THREADS];
    for (int t = 0; t < THREADS; t++) {
        parts[t] = (part){.index = t, .sum = 0.0};
        if (pthread_create(&threads[t], NULL, worker, &parts[t]) != 0) {
            perror("pthread_create");
            return EXIT_FAILURE;
        }
    }
    double pi = 0.0;
    WEFT_USER_REGION_BEGIN("combine");
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        pi += parts[t].sum;
    }
    WEFT_USER_REGION_END("combine");
    printf("pi = %.12f with %d threads\n", pi, THREADS);
    WEFT_USER_REGION_END("main");
    return EXIT_SUCCESS;
}
/* SPDX-License-Identifier: BSD-3-Clause */
