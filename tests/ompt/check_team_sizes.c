/* SPDX-License-Identifier: BSD-3-Clause */
/* Checks the trace of team_sizes.c: the master begins a thread team once
 * per parallel region (3), the worker once per region of two threads (2).
 *
 *   check_team_sizes ANCHOR SOURCE THREADS KIND   (run_ompt_test.sh) */
#include <stdio.h>
#include <stdlib.h>

#include "otf2_trace.h"

enum { REGIONS = 3, PAIR_REGIONS = 2 };

static int expect(const trace_location_stats *loc, uint64_t begins)
{
    uint64_t have = loc->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN];
    printf("check_team_sizes: '%s' began %llu thread teams, expected %llu\n", loc->name,
           (unsigned long long)have, (unsigned long long)begins);
    return have == begins ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: check_team_sizes ANCHOR [SOURCE THREADS KIND]\n");
        return 2;
    }
    trace_model *t = NULL;
    char err[512];
    if (trace_load(argv[1], NULL, &t, err, sizeof(err)) != 0) {
        printf("check_team_sizes: %s\n", err);
        return 1;
    }
    int failures = 0;
    if (t->location_count != 2) {
        printf("check_team_sizes: %zu locations, expected 2\n", t->location_count);
        failures++;
    } else {
        failures += expect(&t->locations[0], REGIONS);
        failures += expect(&t->locations[1], PAIR_REGIONS);
    }
    trace_free(t);
    return failures ? 1 : 0;
}
