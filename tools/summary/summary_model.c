/* SPDX-License-Identifier: BSD-3-Clause */
/* The streaming half of `weft summary`: per location a stack of open regions,
 * per region a handful of sums. Inclusive time counts only the outermost open
 * instance of a region, so recursion is not counted twice; exclusive time is
 * each instance's time minus its direct children. Unbalanced input (a leave
 * with no enter, regions left open) is counted, repaired and never fatal.
 * The same stack gives the OpenMP waiting of the location: the time spent in
 * barrier regions, and lock waiting (see weft__summary_lock_acquired). */
#include "summary.h"
#include "grow.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One open region instance on the current location's stack. */
typedef struct frame {
    size_t region;
    uint64_t enter_ticks;
    uint64_t child_ticks; /* inclusive time of the direct children closed so far */
} frame;

struct weft_summary_builder {
    size_t region_count;
    weft_summary_region *regions; /* whole-trace sums, indexed by region */
    uint8_t *wait;                /* per region: a weft_summary_wait */

    /* Current location; reset by location_begin, folded in by location_end. */
    frame *stack;
    size_t depth;
    size_t stack_capacity;
    uint32_t *open_count;    /* per region: instances open on the stack */
    uint64_t *location_incl; /* per region: this location's inclusive ticks */
    bool *touched;           /* per region: entered on this location */
    size_t *touched_list;    /* the touched regions, touched_count of them */
    size_t touched_count;
    uint64_t location_last_ticks;
    bool location_has_time;
    weft_summary_omp location_omp;

    weft_summary_totals totals;
};

weft_summary_builder *weft__summary_builder_create(size_t region_count)
{
    weft_summary_builder *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    size_t n = region_count ? region_count : 1;
    b->region_count = region_count;
    b->regions = calloc(n, sizeof(*b->regions));
    b->open_count = calloc(n, sizeof(*b->open_count));
    b->location_incl = calloc(n, sizeof(*b->location_incl));
    b->touched = calloc(n, sizeof(*b->touched));
    b->touched_list = calloc(n, sizeof(*b->touched_list));
    b->wait = calloc(n, sizeof(*b->wait));
    if (!b->regions || !b->open_count || !b->location_incl || !b->touched || !b->touched_list ||
        !b->wait) {
        weft__summary_builder_destroy(b);
        return NULL;
    }
    b->totals.first_ticks = UINT64_MAX;
    return b;
}

void weft__summary_builder_destroy(weft_summary_builder *b)
{
    if (!b)
        return;
    free(b->wait);
    free(b->touched_list);
    free(b->touched);
    free(b->location_incl);
    free(b->open_count);
    free(b->stack);
    free(b->regions);
    free(b);
}

void weft__summary_builder_set_wait(weft_summary_builder *b, size_t region, weft_summary_wait wait)
{
    if (region < b->region_count)
        b->wait[region] = (uint8_t)wait;
}

void weft__summary_location_begin(weft_summary_builder *b)
{
    b->depth = 0;
    b->location_omp = (weft_summary_omp){0};
    b->touched_count = 0;
    b->location_last_ticks = 0;
    b->location_has_time = false;
}

static void see_time(weft_summary_builder *b, uint64_t t)
{
    if (!b->location_has_time || t > b->location_last_ticks)
        b->location_last_ticks = t;
    b->location_has_time = true;
    if (t < b->totals.first_ticks)
        b->totals.first_ticks = t;
    if (t > b->totals.last_ticks)
        b->totals.last_ticks = t;
}

weft_status weft__summary_enter(weft_summary_builder *b, size_t region, uint64_t t)
{
    if (region >= b->region_count)
        return WEFT_ERR_RANGE;
    if (!weft__cli_grow(&b->stack, &b->stack_capacity, b->depth + 1, sizeof(*b->stack)))
        return WEFT_ERR_NO_MEMORY;
    see_time(b, t);
    b->stack[b->depth++] = (frame){.region = region, .enter_ticks = t, .child_ticks = 0};
    b->open_count[region]++;
    b->regions[region].visits++;
    if (b->wait[region] == WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER)
        b->location_omp.explicit_barrier_visits++;
    else if (b->wait[region] == WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER)
        b->location_omp.implicit_barrier_visits++;
    if (!b->touched[region]) {
        b->touched[region] = true;
        b->touched_list[b->touched_count++] = region;
    }
    return WEFT_OK;
}

/* Pops the top frame, closing it at T. A timestamp earlier than the enter
 * (a clock going backwards) gives a zero-length instance rather than a wrap. */
static void close_top(weft_summary_builder *b, uint64_t t)
{
    frame *f = &b->stack[--b->depth];
    uint64_t incl = t > f->enter_ticks ? t - f->enter_ticks : 0;
    uint64_t children = f->child_ticks < incl ? f->child_ticks : incl;
    weft_summary_region *r = &b->regions[f->region];
    r->excl_ticks += incl - children;
    if (--b->open_count[f->region] == 0) {
        r->incl_ticks += incl;
        b->location_incl[f->region] += incl;
    }
    if (b->depth > 0)
        b->stack[b->depth - 1].child_ticks += incl;
    else
        b->totals.root_incl_ticks += incl;
    if (b->wait[f->region] == WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER)
        b->location_omp.explicit_barrier_ticks += incl;
    else if (b->wait[f->region] == WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER)
        b->location_omp.implicit_barrier_ticks += incl;
}

void weft__summary_leave(weft_summary_builder *b, size_t region, uint64_t t)
{
    see_time(b, t);
    if (region >= b->region_count || b->open_count[region] == 0) {
        b->totals.unbalanced_count++;
        return;
    }
    /* The region is open further down: whatever was entered after it and not
     * left ends here too. */
    while (b->stack[b->depth - 1].region != region) {
        close_top(b, t);
        b->totals.unbalanced_count++;
    }
    close_top(b, t);
}

void weft__summary_count_event(weft_summary_builder *b)
{
    if (b->depth > 0)
        b->regions[b->stack[b->depth - 1].region].events++;
    else
        b->totals.unattributed_events++;
}

/* Only an acquisition directly inside the waiting region counts: POMP2 and
 * Score-P record it there (enter critical, acquire, enter sblock ...; enter
 * omp_set_lock, acquire, leave), and anything else open in between would
 * make the span something other than waiting for the lock. */
void weft__summary_lock_acquired(weft_summary_builder *b, uint64_t t)
{
    b->location_omp.lock_acquisitions++;
    if (b->depth == 0)
        return;
    const frame *f = &b->stack[b->depth - 1];
    if (b->wait[f->region] == WEFT_SUMMARY_WAIT_LOCK && t > f->enter_ticks)
        b->location_omp.lock_wait_ticks += t - f->enter_ticks;
}

void weft__summary_location_end(weft_summary_builder *b)
{
    while (b->depth > 0) {
        close_top(b, b->location_last_ticks);
        b->totals.unbalanced_count++;
    }
    for (size_t i = 0; i < b->touched_count; i++) {
        size_t region = b->touched_list[i];
        weft_summary_region *r = &b->regions[region];
        uint64_t incl = b->location_incl[region];
        if (r->location_count == 0 || incl < r->min_incl_ticks)
            r->min_incl_ticks = incl;
        if (r->location_count == 0 || incl > r->max_incl_ticks)
            r->max_incl_ticks = incl;
        r->location_count++;
        b->location_incl[region] = 0;
        b->touched[region] = false;
    }
    b->touched_count = 0;
}

weft_summary_omp weft__summary_builder_location_omp(const weft_summary_builder *b)
{
    return b->location_omp;
}

const weft_summary_region *weft__summary_builder_regions(const weft_summary_builder *b)
{
    return b->regions;
}

weft_summary_totals weft__summary_builder_totals(const weft_summary_builder *b)
{
    return b->totals;
}

void weft__summary_clear(weft_summary *summary)
{
    if (!summary)
        return;
    for (size_t i = 0; i < summary->region_count; i++)
        free(summary->regions[i].name);
    free(summary->regions);
    for (size_t i = 0; i < summary->comm_count; i++)
        free(summary->comms[i].name);
    free(summary->comms);
    free(summary->pairs);
    free(summary->collectives);
    for (size_t i = 0; i < summary->omp_location_count; i++)
        free(summary->omp_locations[i].name);
    free(summary->omp_locations);
    for (size_t i = 0; i < summary->io_count; i++)
        free(summary->io[i].file);
    free(summary->io);
    free(summary->trace_path);
    memset(summary, 0, sizeof(*summary));
}

static int compare_regions(const void *pa, const void *pb)
{
    const weft_summary_region *a = pa;
    const weft_summary_region *b = pb;
    if (a->incl_ticks != b->incl_ticks)
        return a->incl_ticks > b->incl_ticks ? -1 : 1;
    int by_name = strcmp(a->name ? a->name : "", b->name ? b->name : "");
    if (by_name != 0)
        return by_name;
    if (a->visits != b->visits)
        return a->visits > b->visits ? -1 : 1;
    return 0;
}

void weft__summary_sort(weft_summary *summary)
{
    if (summary->region_count > 1)
        qsort(summary->regions, summary->region_count, sizeof(*summary->regions), compare_regions);
}
