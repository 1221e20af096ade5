/* Benchmark program for user-region events; bench/run drives it.
 *
 *   user_regions baseline N  the same loop without weft calls
 *   user_regions hot N       N user-region enter/leave events (weft/user.h)
 *                            into the buffer (the
 *                            buffer is sized by bench/run to hold them all,
 *                            so no chunk is handed over while timing)
 *   user_regions e2e N       N events, then weft_finalize: includes the
 *                            background writer and the OTF2 file write
 *
 * Prints one number: nanoseconds per event (baseline: per loop step with
 * the same bookkeeping). Each step does a little work that the compiler
 * cannot remove, so the loop is not empty in either case. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <weft/user.h>

#include "weft/recorder.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile unsigned long sink;

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s baseline|hot|e2e EVENTS\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    long events = atol(argv[2]);
    long pairs = events / 2;
    unsigned long work = 0;

    if (strcmp(mode, "baseline") == 0) {
        double start = now_ns();
        for (long i = 0; i < pairs; i++) {
            work += (unsigned long)i;
            __asm__ volatile("" ::: "memory");
            work ^= work >> 3;
            __asm__ volatile("" ::: "memory");
        }
        double elapsed = now_ns() - start;
        sink = work;
        printf("%.2f\n", elapsed / (double)events);
        return 0;
    }
    /* The first event initialises weft; keep that out of the timing. */
    WEFT_USER_REGION_BEGIN("warm_up");
    WEFT_USER_REGION_END("warm_up");
    double start = now_ns();
    for (long i = 0; i < pairs; i++) {
        work += (unsigned long)i;
        WEFT_USER_REGION_BEGIN("bench_region");
        work ^= work >> 3;
        WEFT_USER_REGION_END("bench_region");
    }
    if (strcmp(mode, "e2e") == 0)
        weft_finalize();
    double elapsed = now_ns() - start;
    sink = work;
    printf("%.2f\n", elapsed / (double)events);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
