/* Test program: THREADS threads (argv[1]) each record PAIRS enter/leave
 * pairs (argv[2], a multiple of 4) nested three deep:
 *   A { B { C {} C {} } }   = 4 pairs per iteration.
 * The main thread records nothing, so every event belongs to a worker. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "weft/recorder.h"

static weft_region regions[3];
static long iterations;

static void *body(void *arg)
{
    (void)arg;
    for (long i = 0; i < iterations; i++) {
        weft_enter(regions[0]);
        weft_enter(regions[1]);
        weft_enter(regions[2]);
        weft_leave(regions[2]);
        weft_enter(regions[2]);
        weft_leave(regions[2]);
        weft_leave(regions[1]);
        weft_leave(regions[0]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s THREADS PAIRS\n", argv[0]);
        return 2;
    }
    int threads = atoi(argv[1]);
    iterations = atol(argv[2]) / 4;
    const char *names[3] = {"level_a", "level_b", "level_c"};
    for (int r = 0; r < 3; r++) {
        weft_region_desc d = {.name = names[r], .file = __FILE__, .begin_line = 10u + (unsigned)r,
                              .role = WEFT_REGION_ROLE_FUNCTION, .paradigm = WEFT_PARADIGM_USER};
        weft_registry_region(weft_defs_global(), &d, &regions[r]);
    }
    pthread_t tids[64];
    for (int t = 0; t < threads && t < 64; t++)
        pthread_create(&tids[t], NULL, body, NULL);
    for (int t = 0; t < threads && t < 64; t++)
        pthread_join(tids[t], NULL);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
