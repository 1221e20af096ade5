/* Checks the trace of control_tool.c (omp_control_tool under weft run):
 * 6 of its 12 parallel regions recorded on the master thread, recording
 * switched off and on and off again (pause, start, end; the start after end
 * ignored), one buffer hand-over per flush, a sound trace.
 *
 *   check_control_tool ANCHOR SOURCE THREADS KIND   (SOURCE and KIND unused)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otf2_trace.h"

static int failures;

static void expect(int ok, const char *what, unsigned long long got, unsigned long long want)
{
    if (!ok) {
        printf("check_control_tool: %s: %llu, expected %llu\n", what, got, want);
        failures++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: check_control_tool ANCHOR SOURCE THREADS KIND\n");
        return 2;
    }
    unsigned threads = (unsigned)atoi(argv[3]);
    trace_model *t = NULL;
    char err[512];
    if (trace_load(argv[1], NULL, &t, err, sizeof err) != 0) {
        printf("check_control_tool: %s\n", err);
        return 1;
    }
    const trace_region *parallel = NULL;
    for (size_t i = 0; i < t->region_count; i++)
        if (t->regions[i].role == OTF2_REGION_ROLE_PARALLEL)
            parallel = &t->regions[i];
    if (!parallel) {
        printf("check_control_tool: no parallel region in the trace\n");
        return 1;
    }
    const trace_location_stats *master = trace_location_by_id(t, 0);
    expect(trace_enter_count(master, parallel->id) == 6, "parallel regions on the master",
           trace_enter_count(master, parallel->id), 6);
    expect(master->kind_counts[TRACE_EVENT_THREAD_FORK] == 6, "forks on the master",
           master->kind_counts[TRACE_EVENT_THREAD_FORK], 6);
    /* pause (off), start (on), end (off); the start after end changes nothing */
    expect(master->kind_counts[TRACE_EVENT_MEASUREMENT_ON_OFF] == 3, "measurement on/off events",
           master->kind_counts[TRACE_EVENT_MEASUREMENT_ON_OFF], 3);
    uint64_t flushes = 0;
    trace_location_property(t, 0, "weft::buffer_flushes", &flushes);
    expect(flushes == 3, "buffer hand-overs on the master (weft::buffer_flushes)", flushes, 3);
    uint64_t total = 0;
    for (size_t l = 0; l < t->location_count; l++) {
        const trace_location_stats *loc = &t->locations[l];
        total += trace_enter_count(loc, parallel->id);
        expect(loc->nesting_errors == 0, "nesting errors", loc->nesting_errors, 0);
        expect(loc->time_decreases == 0, "time order errors", loc->time_decreases, 0);
    }
    expect(total == 6ull * threads, "parallel region entries on all threads", total,
           6ull * threads);
    trace_free(t);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
