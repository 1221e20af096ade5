/* A thread's number in its OpenMP team and its location's index differ:
 * a pthread takes an OpenMP lock first (its location is the second one) and
 * stays alive while a two-thread team runs tasks (both threads run some), so the team's worker, the
 * team's thread 1, records on the third location. Scalasca's analyzer takes
 * a location's implicit task to be named by the location's own thread index
 * (its OTF2 id's upper half); named by the team number, as weft wrote it,
 * the analyzer crashed on any trace of three or more threads where libomp's
 * numbering and the threads' start order differed (BOTS at four threads;
 * weft check: an implicit task named by another creating thread). */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

enum { TASKS = 32 };

static omp_lock_t lock;
static pthread_barrier_t started, done;

static void *bystander(void *arg)
{
    (void)arg;
    omp_set_lock(&lock);
    omp_unset_lock(&lock);
    pthread_barrier_wait(&started);
    pthread_barrier_wait(&done); /* alive, so no OpenMP thread takes its location */
    return NULL;
}

int main(void)
{
    long sum = 0;
    pthread_t t;
    omp_init_lock(&lock);
    pthread_barrier_init(&started, NULL, 2);
    pthread_barrier_init(&done, NULL, 2);
    pthread_create(&t, NULL, bystander, NULL);
    pthread_barrier_wait(&started);
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int i = 0; i < TASKS; i++) {
#pragma omp task firstprivate(i) shared(sum)
            {
                double until = omp_get_wtime() + 2e-4; /* long enough for the worker to take some */
                while (omp_get_wtime() < until)
                    ;
#pragma omp atomic
                sum += i;
            }
        }
#pragma omp taskwait
    }
    pthread_barrier_wait(&done);
    pthread_join(t, NULL);
    omp_destroy_lock(&lock);
    printf("%ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
