/* Explicit barriers and critical sections in a loop, visited more often
 * than throttling's threshold, with a flush beside them that throttling
 * does take.
 *
 * Scalasca's analyzer meets its own threads at every OpenMP barrier it
 * replays, so every thread of a team must record the same barriers: a
 * barrier throttled on one thread only (the one that arrives last sees
 * short visits) made it crash. A throttled critical section left its lock
 * events without their region (or, left out too, gaps in the lock's
 * acquisition orders, where the analyzer waits forever). Neither is ever
 * throttled; the flush shows throttling was on. ROUNDS barriers and
 * critical sections per thread, and the implicit barrier at the end of
 * the parallel region. */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 2000

int main(void)
{
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        for (int i = 0; i < ROUNDS; i++) {
#pragma omp critical
            sum += i % 7;
#pragma omp flush
#pragma omp barrier
        }
    }
    printf("sum=%ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
