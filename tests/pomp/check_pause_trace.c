/* Checks the trace of pause_in_parallel.c (POMP2 or OMPT): three of its
 * five parallel regions on every thread (see there), three forks and joins
 * on the master, one pause and one resume, every location balanced and in
 * time order. `weft check` runs on it too (the test runner does that).
 *
 *   check_pause_trace ANCHOR SOURCE THREADS KIND   (SOURCE and KIND unused)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "otf2_trace.h"

static int failures;
static const trace_model *t;

/* Entries (or leaves) of every parallel region (each construct is its own
 * region) on a location. */
static uint64_t parallel_count(const trace_location_stats *loc, bool leaves)
{
    uint64_t n = 0;
    for (size_t i = 0; i < t->region_count; i++) {
        if (t->regions[i].role != OTF2_REGION_ROLE_PARALLEL)
            continue;
        n += leaves ? trace_leave_count(loc, t->regions[i].id)
                    : trace_enter_count(loc, t->regions[i].id);
    }
    return n;
}

static void expect(unsigned long long got, unsigned long long want, const char *what)
{
    if (got != want) {
        printf("check_pause_trace: %s: %llu, expected %llu\n", what, got, want);
        failures++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: check_pause_trace ANCHOR SOURCE THREADS KIND\n");
        return 2;
    }
    unsigned threads = (unsigned)atoi(argv[3]);
    trace_model *model = NULL;
    char err[512];
    if (trace_load(argv[1], NULL, &model, err, sizeof err) != 0) {
        printf("check_pause_trace: %s\n", err);
        return 1;
    }
    t = model;
    const trace_location_stats *master = trace_location_by_id(t, 0);
    expect(parallel_count(master, false), 3, "parallel regions on the master");
    expect(master->kind_counts[TRACE_EVENT_THREAD_FORK], 3, "forks on the master");
    expect(master->kind_counts[TRACE_EVENT_THREAD_JOIN], 3, "joins on the master");
    expect(master->kind_counts[TRACE_EVENT_MEASUREMENT_ON_OFF], 2, "measurement on/off events");
    uint64_t total = 0;
    for (size_t l = 0; l < t->location_count; l++) {
        const trace_location_stats *loc = &t->locations[l];
        total += parallel_count(loc, false);
        expect(parallel_count(loc, true), parallel_count(loc, false),
               "parallel leaves against enters");
        expect(loc->kind_counts[TRACE_EVENT_ENTER], loc->kind_counts[TRACE_EVENT_LEAVE],
               "leaves against enters");
        expect(loc->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN],
               loc->kind_counts[TRACE_EVENT_THREAD_TEAM_END], "team ends against begins");
        expect(loc->nesting_errors, 0, "nesting errors");
        expect(loc->time_decreases, 0, "time order errors");
    }
    expect(total, 3ull * threads, "parallel region entries on all threads");
    trace_free(model);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
