/* The profile `weft summary` computes, and the three steps that make it:
 * a streaming builder that turns one location's enter/leave events into
 * per-region sums, an OTF2 reader that feeds it, and formatters that print
 * the finished weft_summary. Memory depends on the number of regions and the
 * nesting depth, never on the number of events. Private to tools/. */
#ifndef WEFT_TOOLS_SUMMARY_H
#define WEFT_TOOLS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weft/status.h"

/* Per-region results. Times are in timer ticks; divide by
 * weft_summary.timer_resolution for seconds. */
typedef struct weft_summary_region {
    char *name;              /* owned by the region; never NULL in a finished summary */
    uint64_t visits;         /* enters, summed over locations, recursive ones included */
    uint64_t incl_ticks;     /* outermost instances only: recursion is not counted twice */
    uint64_t excl_ticks;     /* time with no other region entered inside */
    uint64_t min_incl_ticks; /* over the locations that visited the region */
    uint64_t max_incl_ticks;
    uint64_t location_count; /* locations that visited the region; mean = incl / this */
} weft_summary_region;

/* A whole-trace profile. Regions that were never entered are left out. */
typedef struct weft_summary {
    char *trace_path;          /* owned copy of the anchor file path */
    uint64_t timer_resolution; /* ticks per second, from ClockProperties */
    uint64_t duration_ticks;   /* ClockProperties trace length, or last - first event */
    uint64_t location_group_count;
    uint64_t location_count;
    uint64_t event_count;            /* every event record, whatever its type */
    uint64_t root_incl_ticks;        /* root-level instances, summed over all locations */
    uint64_t unbalanced_count;       /* stray leaves plus regions closed by the summary */
    uint64_t undefined_region_count; /* enter/leave events naming no defined region */
    size_t region_count;
    weft_summary_region *regions; /* heaviest inclusive time first, then by name */
} weft_summary;

/* Frees everything SUMMARY owns and zeroes it; NULL is a no-op. */
void weft__summary_clear(weft_summary *summary);

/* Sorts summary->regions: inclusive time descending, then name, then visits. */
void weft__summary_sort(weft_summary *summary);

/* --- Builder: streaming accumulation, one location at a time ------------- */

/* Accumulates enter/leave events into per-region sums. Regions are dense
 * indices 0..region_count-1 chosen by the caller. Feed one location at a
 * time: location_begin, its events in order, location_end. Not thread-safe. */
typedef struct weft_summary_builder weft_summary_builder;

/* Returns a builder for REGION_COUNT regions, or NULL when out of memory. */
weft_summary_builder *weft__summary_builder_create(size_t region_count);

/* Frees the builder; NULL is a no-op. */
void weft__summary_builder_destroy(weft_summary_builder *builder);

/* Starts a location: an empty stack, no timestamp seen yet. */
void weft__summary_location_begin(weft_summary_builder *builder);

/* REGION is entered at TIME_TICKS. Returns WEFT_ERR_NO_MEMORY when the stack
 * of open regions cannot grow, WEFT_ERR_RANGE for a region index out of range. */
weft_status weft__summary_enter(weft_summary_builder *builder, size_t region, uint64_t time_ticks);

/* REGION is left at TIME_TICKS. A leave of a region that is not open is
 * counted as unbalanced and ignored; regions opened after REGION and still
 * open are closed at TIME_TICKS first, each counted as unbalanced. */
void weft__summary_leave(weft_summary_builder *builder, size_t region, uint64_t time_ticks);

/* Ends the current location: regions still open are closed at the location's
 * last enter/leave timestamp (each counted as unbalanced), and the location's
 * per-region inclusive times join the min/max/mean across locations. */
void weft__summary_location_end(weft_summary_builder *builder);

/* Per-region accumulators, indexed like the builder's regions (names NULL). */
const weft_summary_region *weft__summary_builder_regions(const weft_summary_builder *builder);

/* Totals kept by the builder, for weft_summary's fields of the same name. */
typedef struct weft_summary_totals {
    uint64_t root_incl_ticks;
    uint64_t unbalanced_count;
    uint64_t first_ticks; /* earliest enter/leave seen; UINT64_MAX when none */
    uint64_t last_ticks;  /* latest enter/leave seen; 0 when none */
} weft_summary_totals;

weft_summary_totals weft__summary_builder_totals(const weft_summary_builder *builder);

/* --- Reading a trace ------------------------------------------------------ */

/* Reads the OTF2 archive whose anchor file is ANCHOR_PATH into *OUT (zeroed
 * first; cleared again on failure), streaming each location's events once.
 * On failure prints one line "weft summary: ..." on stderr, saying what went
 * wrong and with which file, and returns WEFT_ERR_IO (cannot open or read),
 * WEFT_ERR_OTF2 (not an OTF2 archive, or a damaged one) or WEFT_ERR_NO_MEMORY.
 * The OTF2 library's own error messages are captured, not printed. */
weft_status weft__summary_read(const char *anchor_path, weft_summary *out);

/* --- Output formats --------------------------------------------------------- */

/* Prints SUMMARY as text: a header, then a table of at most TOP regions
 * (0 = all), heaviest first. */
void weft__summary_print_text(FILE *out, const weft_summary *summary, size_t top);

#endif /* WEFT_TOOLS_SUMMARY_H */
