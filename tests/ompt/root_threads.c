/* Threads the program makes, each forking an OpenMP team of its own while
 * another does too: every such thread is the root of its teams, which must
 * not share team definitions with the main thread's (before, all were "the
 * team forked by thread 0" and the end of the run added team runs to
 * threads that never had them). With an argument ROUNDS, then ROUNDS more
 * such threads one after another (thread churn: their locations are
 * reused; before, every such trace was unsound). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long sums[2];

static void *worker(void *arg)
{
    long w = (long)arg, local = 0;
#pragma omp parallel for reduction(+ : local) num_threads(2)
    for (int i = 0; i < 1000; i++)
        local += i * (w + 1);
    sums[w] = local;
    return NULL;
}

int main(int argc, char **argv)
{
    long m = 0;
#pragma omp parallel for reduction(+ : m) num_threads(2)
    for (int i = 0; i < 10; i++)
        m += i;
    pthread_t threads[2];
    for (long w = 0; w < 2; w++)
        pthread_create(&threads[w], NULL, worker, (void *)w);
    for (int w = 0; w < 2; w++)
        pthread_join(threads[w], NULL);
    long rounds = argc > 1 ? atol(argv[1]) : 0;
    for (long r = 0; r < rounds; r++) {
        pthread_create(&threads[0], NULL, worker, (void *)(r % 2));
        pthread_join(threads[0], NULL);
    }
    printf("%ld %ld %ld\n", m, sums[0], sums[1]);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
