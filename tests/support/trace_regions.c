/* Checks a trace's regions and event counts against a list given on the
 * command line, for tests whose programs are small enough to say exactly
 * what they record:
 *
 *   trace_regions ANCHOR [--only] SPEC...
 *
 *   NAME=N        the regions whose name matches the glob NAME (fnmatch;
 *                 `\` quotes * ? [) are entered N times in all (summed over
 *                 regions and locations); N=0 also passes when none exists
 *   NAME>=N       at least N times; NAME<=N: at most N times
 *   event:KIND=N  N events of KIND (otf2-print's spelling, THREAD_TASK_CREATE)
 *   event:KIND>=N at least N
 *   processes=N   N location groups (MPI ranks); locations=N: N locations
 *   inside:NAME|OUTER  every Enter of a region matching NAME comes while a
 *                 region matching OUTER is open on that location (and at
 *                 least one such Enter exists)
 *   --only        every region entered at all matches one of the NAMEs
 *                 (the program region aside)
 *
 * Always: no nesting error (ProgramBegin/End included), no time going back,
 * every region left as often as entered on every location. Prints one line
 * per failed check, exit 1 if any failed; `trace_regions ANCHOR` alone lists
 * the regions entered with their counts. */
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otf2_trace.h"

static int failures;

static uint64_t total_enters(const trace_model *t, uint32_t region)
{
    uint64_t sum = 0;
    for (size_t l = 0; l < t->location_count; l++)
        sum += trace_enter_count(&t->locations[l], region);
    return sum;
}

/* '=': equal, '>': at least, '<': at most. */
static bool compare(uint64_t actual, char how, uint64_t expected)
{
    return how == '>' ? actual >= expected : how == '<' ? actual <= expected : actual == expected;
}

/* The operator of SPEC: where it starts, and which ('=', '>' or '<'). */
static const char *find_operator(const char *spec, char *how)
{
    const char *op = strstr(spec, ">=");
    *how = '>';
    if (!op) {
        op = strstr(spec, "<=");
        *how = '<';
    }
    if (!op) {
        op = strrchr(spec, '=');
        *how = '=';
    }
    return op;
}

static bool region_matches(const trace_model *t, uint32_t id, const char *pattern)
{
    const trace_region *r = trace_region_by_id(t, id);
    return r && fnmatch(pattern, r->name ? r->name : "", 0) == 0;
}

/* inside:NAME|OUTER, on the kept events: a stack of open regions per
 * location, counting how many of them match OUTER. */
static void check_inside(const trace_model *t, const char *spec)
{
    const char *bar = strchr(spec, '|');
    if (!bar || bar == spec) {
        printf("trace_regions: bad spec 'inside:%s'\n", spec);
        failures++;
        return;
    }
    char name[1024];
    snprintf(name, sizeof(name), "%.*s", (int)(bar - spec), spec);
    const char *outer = bar + 1;
    uint64_t enters = 0, outside = 0;
    for (size_t l = 0; l < t->location_count; l++) {
        const trace_location_stats *loc = &t->locations[l];
        bool stack[256];
        size_t depth = 0, open_outer = 0;
        for (size_t i = 0; i < loc->event_list_len; i++) {
            const trace_event *e = &loc->events[i];
            if (e->kind == TRACE_EVENT_ENTER) {
                if (region_matches(t, e->region, name)) {
                    enters++;
                    outside += open_outer == 0;
                }
                bool is_outer = region_matches(t, e->region, outer);
                open_outer += is_outer;
                if (depth < sizeof(stack) / sizeof(stack[0]))
                    stack[depth] = is_outer;
                depth++;
            } else if (e->kind == TRACE_EVENT_LEAVE && depth > 0) {
                depth--;
                if (depth < sizeof(stack) / sizeof(stack[0]))
                    open_outer -= stack[depth];
            }
        }
    }
    if (enters == 0 || outside != 0) {
        printf("trace_regions: %s: entered %llu times, %llu of them outside %s\n", name,
               (unsigned long long)enters, (unsigned long long)outside, outer);
        failures++;
    }
}

static void check_spec(const trace_model *t, const char *spec)
{
    if (strncmp(spec, "inside:", 7) == 0) {
        check_inside(t, spec + 7);
        return;
    }
    char how;
    const char *op = find_operator(spec, &how);
    if (!op || op == spec) {
        printf("trace_regions: bad spec '%s'\n", spec);
        failures++;
        return;
    }
    char name[1024];
    snprintf(name, sizeof(name), "%.*s", (int)(op - spec), spec);
    uint64_t expected = strtoull(op + (how == '=' ? 1 : 2), NULL, 10);
    uint64_t actual = 0;
    if (strcmp(name, "processes") == 0) {
        actual = t->location_group_count;
    } else if (strcmp(name, "locations") == 0) {
        actual = t->location_count;
    } else if (strncmp(name, "event:", 6) == 0) {
        int kind = 0;
        while (kind < TRACE_EVENT_KIND_COUNT &&
               strcmp(trace_event_kind_name((trace_event_kind)kind), name + 6) != 0)
            kind++;
        if (kind == TRACE_EVENT_KIND_COUNT) {
            printf("trace_regions: no event kind '%s'\n", name + 6);
            failures++;
            return;
        }
        for (size_t l = 0; l < t->location_count; l++)
            actual += t->locations[l].kind_counts[kind];
    } else {
        for (size_t r = 0; r < t->region_count; r++) {
            if (fnmatch(name, t->regions[r].name ? t->regions[r].name : "", 0) == 0)
                actual += total_enters(t, t->regions[r].id);
        }
    }
    if (!compare(actual, how, expected)) {
        printf("trace_regions: %s: %llu, expected %s%llu\n", name, (unsigned long long)actual,
               how == '>'   ? "at least "
               : how == '<' ? "at most "
                            : "",
               (unsigned long long)expected);
        failures++;
    }
}

/* --only: a region entered that no spec names. */
static void check_only(const trace_model *t, char **specs, int count)
{
    const trace_region *program = trace_program_region(t);
    for (size_t r = 0; r < t->region_count; r++) {
        const trace_region *region = &t->regions[r];
        if (region == program || total_enters(t, region->id) == 0)
            continue;
        bool named = false;
        for (int i = 0; i < count && !named; i++) {
            if (strncmp(specs[i], "event:", 6) == 0 || strncmp(specs[i], "inside:", 7) == 0)
                continue;
            char how;
            const char *op = find_operator(specs[i], &how);
            char name[1024];
            snprintf(name, sizeof(name), "%.*s", op ? (int)(op - specs[i]) : 0, specs[i]);
            named = fnmatch(name, region->name ? region->name : "", 0) == 0;
        }
        if (!named) {
            printf("trace_regions: region '%s' entered %llu times, not expected at all\n",
                   region->name, (unsigned long long)total_enters(t, region->id));
            failures++;
        }
    }
}

static void check_balance(const trace_model *t)
{
    for (size_t l = 0; l < t->location_count; l++) {
        const trace_location_stats *loc = &t->locations[l];
        if (loc->nesting_errors) {
            printf("trace_regions: %llu nesting errors, the first: %s\n",
                   (unsigned long long)loc->nesting_errors, loc->first_nesting_error);
            failures++;
        }
        if (loc->time_decreases) {
            printf("trace_regions: time goes back: %s\n", loc->first_time_error);
            failures++;
        }
        for (uint32_t r = 0; r < loc->region_slots; r++) {
            if (loc->enter_counts[r] != loc->leave_counts[r]) {
                const trace_region *region = trace_region_by_id(t, r);
                printf("trace_regions: '%s' entered %llu and left %llu times on a location\n",
                       region && region->name ? region->name : "?",
                       (unsigned long long)loc->enter_counts[r],
                       (unsigned long long)loc->leave_counts[r]);
                failures++;
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr,
                "usage: trace_regions ANCHOR [--only] NAME=N|event:KIND=N|inside:NAME|OUTER ...\n");
        return 2;
    }
    trace_model *t = NULL;
    char err[512];
    trace_options options = {.keep_events = false};
    for (int i = 2; i < argc; i++)
        options.keep_events |= strncmp(argv[i], "inside:", 7) == 0;
    if (trace_load(argv[1], &options, &t, err, sizeof(err)) != 0) {
        printf("trace_regions: %s\n", err);
        return 1;
    }
    bool only = argc > 2 && strcmp(argv[2], "--only") == 0;
    int first = only ? 3 : 2;
    if (first >= argc) {
        for (size_t r = 0; r < t->region_count; r++)
            printf("%s=%llu\n", t->regions[r].name,
                   (unsigned long long)total_enters(t, t->regions[r].id));
    }
    for (int i = first; i < argc; i++)
        check_spec(t, argv[i]);
    if (only)
        check_only(t, argv + first, argc - first);
    check_balance(t);
    trace_free(t);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
