/* Explicit barriers in a loop, visited more often than throttling's
 * threshold, with a flush beside them that throttling does take.
 *
 * Scalasca's analyzer meets its own threads at every OpenMP barrier it
 * replays, so every thread of a team must record the same barriers: a
 * barrier throttled on one thread only (the one that arrives last sees
 * short visits) made it crash. Barriers are never throttled; the flush
 * shows throttling was on. ROUNDS barriers per thread, and the implicit
 * barrier at the end of the parallel region. */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 2000

int main(void)
{
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        for (int i = 0; i < ROUNDS; i++) {
            sum += i % 7;
#pragma omp flush
#pragma omp barrier
        }
    }
    printf("sum=%ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
