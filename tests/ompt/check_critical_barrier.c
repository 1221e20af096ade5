/* Checks the trace of critical_barrier.c: every explicit barrier visit is
 * in the one region of the barrier's line, ITERATIONS per thread, and no
 * other barrier region exists (a lost codeptr_ra used to name some visits
 * after the parallel region's line).
 *
 *   check_critical_barrier ANCHOR SOURCE THREADS KIND   (run_ompt_test.sh) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otf2_trace.h"

enum { ITERATIONS = 60000, BARRIER_LINE = 18 };

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: check_critical_barrier ANCHOR SOURCE THREADS KIND\n");
        return 2;
    }
    unsigned threads = (unsigned)atoi(argv[3]);
    trace_model *t = NULL;
    char err[512];
    if (trace_load(argv[1], NULL, &t, err, sizeof(err)) != 0) {
        printf("check_critical_barrier: %s\n", err);
        return 1;
    }
    int failures = 0;
    char wanted[64];
    snprintf(wanted, sizeof(wanted), "!$omp barrier @critical_barrier.c:%d", BARRIER_LINE);
    for (size_t r = 0; r < t->region_count; r++) {
        const trace_region *region = &t->regions[r];
        if (strncmp(region->name, "!$omp barrier", 13) != 0)
            continue;
        uint64_t enters = 0;
        for (size_t l = 0; l < t->location_count; l++)
            enters += trace_enter_count(&t->locations[l], region->id);
        if (strcmp(region->name, wanted) != 0) {
            printf("check_critical_barrier: %llu visits of '%s', expected none\n",
                   (unsigned long long)enters, region->name);
            failures++;
        } else if (enters != (uint64_t)ITERATIONS * threads) {
            printf("check_critical_barrier: %llu visits of '%s', expected %llu\n",
                   (unsigned long long)enters, region->name,
                   (unsigned long long)ITERATIONS * threads);
            failures++;
        } else {
            printf("check_critical_barrier: %llu visits of '%s'\n", (unsigned long long)enters,
                   region->name);
        }
    }
    if (!trace_region_by_name(t, wanted)) {
        printf("check_critical_barrier: no region '%s'\n", wanted);
        failures++;
    }
    trace_free(t);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
