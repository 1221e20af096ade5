/* Spin-waits with `#pragma omp flush` in the style of the NAS LU
 * benchmark's pipeline (syncs.c in its OpenMP C port), the pattern that
 * wrote 86 million flush events from a class S run (issue 19).
 *
 * Each of STEPS steps begins with a handshake: both threads spin, each
 * counting its own turns, until both have turned SPINS times, so every
 * thread enters the handshake's flush at least SPINS times per step
 * whatever the machine's load (and the counts of the other constructs are
 * exact). Then thread 0 publishes the step (one flush) and thread 1 waits
 * for it with a flush in its loop, as LU's threads wait for their
 * predecessor. */
#include <omp.h>
#include <stdio.h>

#define STEPS 4
#define SPINS 2000

static long turns[2][STEPS]; /* each thread's handshake turns per step */
static int published[STEPS]; /* thread 0 finished step k */

static long turns_of(int thread, int step)
{
    return __atomic_load_n(&turns[thread][step], __ATOMIC_ACQUIRE);
}

int main(void)
{
    long steps_done = 0, sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        int me = omp_get_thread_num(), other = 1 - me;
        for (int k = 0; k < STEPS; k++) {
            while (turns_of(me, k) < SPINS || turns_of(other, k) < SPINS) {
                __atomic_add_fetch(&turns[me][k], 1, __ATOMIC_RELEASE);
#pragma omp flush
            }
            if (me == 0) {
                __atomic_store_n(&published[k], 1, __ATOMIC_RELEASE);
#pragma omp flush
            } else {
                while (!__atomic_load_n(&published[k], __ATOMIC_ACQUIRE)) {
#pragma omp flush
                }
            }
#pragma omp atomic
            steps_done++;
            sum += k;
        }
    }
    printf("steps=%ld sum=%ld\n", steps_done, sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
