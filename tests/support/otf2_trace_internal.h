/* Private interface between the three parts of the trace reader: the loader
 * (otf2_trace.c), the global definition callbacks (otf2_trace_defs.c) and the event
 * callbacks (otf2_trace_events.c). Nothing here is meant for tests; they use
 * otf2_trace.h only.
 */
#ifndef WEFT_TESTS_SUPPORT_OTF2_TRACE_INTERNAL_H
#define WEFT_TESTS_SUPPORT_OTF2_TRACE_INTERNAL_H

#include "otf2_trace.h"

#include <stdbool.h>
#include <stddef.h>

#include <otf2/otf2.h>

/* Ids above this are refused as region ids: per-location counters are arrays indexed by
 * region id, so a stray huge id would otherwise cost gigabytes per location. */
#define TRACE__MAX_REGION_SLOTS (1u << 20)

/* State of one trace_load() call. The capacities belong to the model's dynamic arrays
 * while they grow; `message` keeps the first failure (callbacks cannot return one). */
typedef struct trace__loader {
    trace_model *model;
    bool keep_events;
    const char *anchor_path;
    bool posix_substrate; /* files laid out as <anchor without .otf2>/<location>.{def,evt} */
    size_t string_cap;
    size_t region_cap;
    size_t metric_member_cap, metric_class_cap;
    size_t system_tree_node_cap;
    size_t location_group_cap;
    size_t location_property_cap;
    size_t group_cap;
    size_t comm_cap;
    size_t object_cap;
    size_t location_cap;
    bool failed;
    char message[256];
} trace__loader;

/* Records a failure in ld->message unless one is recorded already; returns -1. */
int trace__fail(trace__loader *ld, const char *fmt, ...);

/* Returns 0 for OTF2_SUCCESS; otherwise records "<what> failed: <OTF2 error name>" (unless
 * a callback recorded the real cause first) and returns -1. */
int trace__check(trace__loader *ld, OTF2_ErrorCode rc, const char *what);

/* Makes room for one more element in `items` (`len` used of *cap, each `size` bytes),
 * doubling the capacity when full. Returns the array to use from now on (`items` itself
 * while there is room), or NULL when out of memory, in which case `items` and *cap are
 * unchanged and still owned by the caller. */
void *trace__grow(void *items, size_t *cap, size_t len, size_t size);

/* Copies a NUL-terminated string with malloc; NULL stays NULL or on out-of-memory. */
char *trace__strdup(const char *s);

/* True when the archive's local file `<location>.<ext>` is known not to exist. OTF2 prints
 * several error lines when asked to open a missing file, so callers check first; false
 * when unsure (other substrates). */
bool trace__local_file_absent(const trace__loader *ld, uint64_t location, const char *ext);

/* Reads all global definitions into ld->model, then resolves string ids to texts and sizes
 * the per-region counters of every location. Returns 0 or -1 (ld->message says why). */
int trace__defs_read(OTF2_Reader *reader, trace__loader *ld);

/* Reads the events of one selected location (event files open) into `loc`: statistics
 * always, the event list when ld->keep_events. Returns 0 or -1. */
int trace__events_read_location(OTF2_Reader *reader, trace__loader *ld, trace_location_stats *loc);

#endif /* WEFT_TESTS_SUPPORT_OTF2_TRACE_INTERNAL_H */
/* SPDX-License-Identifier: BSD-3-Clause */
