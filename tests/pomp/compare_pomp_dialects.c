/* Two traces of one program, instrumented by two POMP dialects (OPARI 1 and
 * OPARI2, or the merged proposal's hand instrumentation and OPARI2), must
 * agree: the same locations, the same number of events of every kind, and
 * the same visits of every region, regions matched by name (weft names
 * OpenMP regions "!$omp for @file.c:LINE" from the construct's lines,
 * whichever dialect reported it). Counts are summed over all locations:
 * which thread runs a single block or a section differs from run to run.
 *
 *   compare_pomp_dialects A_ANCHOR B_ANCHOR [KIND...]
 *
 * KIND names an event kind (otf2-print's spelling, e.g. THREAD_TASK_SWITCH)
 * whose counts may differ, because one dialect cannot report it. Every
 * difference is one line on stdout; the exit status is 1 when there is any. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "otf2_trace.h"

static int differences;

static void differ(const char *location, const char *what, unsigned long long a,
                   unsigned long long b)
{
    printf("compare_pomp_dialects: %s: %s: %llu in the first trace, %llu in the second\n", location,
           what, a, b);
    differences++;
}

static bool excused(trace_event_kind kind, int argc, char **argv)
{
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], trace_event_kind_name(kind)) == 0)
            return true;
    }
    return false;
}

/* Visits of the region named NAME, summed over all locations (0 when the
 * trace has no such region). */
static uint64_t visits(const trace_model *t, const char *name)
{
    const trace_region *r = name ? trace_region_by_name(t, name) : NULL;
    uint64_t sum = 0;
    for (size_t l = 0; r && l < t->location_count; l++)
        sum += trace_enter_count(&t->locations[l], r->id);
    return sum;
}

static uint64_t kind_total(const trace_model *t, int kind)
{
    uint64_t sum = 0;
    for (size_t l = 0; l < t->location_count; l++)
        sum += t->locations[l].kind_counts[kind];
    return sum;
}

/* Every region either trace has (a name first seen in `a` is compared
 * there only). */
static void compare_regions(const trace_model *a, const trace_model *b)
{
    for (size_t i = 0; i < a->region_count; i++) {
        const char *name = a->regions[i].name;
        if (name && trace_region_by_name(a, name) == &a->regions[i] &&
            visits(a, name) != visits(b, name))
            differ("all locations", name, visits(a, name), visits(b, name));
    }
    for (size_t i = 0; i < b->region_count; i++) {
        const char *name = b->regions[i].name;
        if (name && !trace_region_by_name(a, name) && visits(b, name))
            differ("all locations", name, 0, visits(b, name));
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: compare_pomp_dialects A_ANCHOR B_ANCHOR [KIND...]\n");
        return 2;
    }
    trace_model *a = NULL, *b = NULL;
    char err[512];
    if (trace_load(argv[1], NULL, &a, err, sizeof err) != 0 ||
        trace_load(argv[2], NULL, &b, err, sizeof err) != 0) {
        printf("compare_pomp_dialects: %s\n", err);
        trace_free(a);
        return 1;
    }
    if (a->location_count != b->location_count)
        differ("the traces", "locations", a->location_count, b->location_count);
    for (int k = 0; k < TRACE_EVENT_KIND_COUNT; k++) {
        if (kind_total(a, k) != kind_total(b, k) && !excused(k, argc, argv))
            differ("all locations", trace_event_kind_name(k), kind_total(a, k), kind_total(b, k));
    }
    compare_regions(a, b);
    if (!differences)
        printf("compare_pomp_dialects: same regions and event counts on %zu locations\n",
               a->location_count);
    trace_free(a);
    trace_free(b);
    return differences ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
