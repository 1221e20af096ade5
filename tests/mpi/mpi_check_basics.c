/* Checks every MPI trace must pass whatever the program did: what
 * `weft check` validates (balanced enter/leave, time never going back per
 * location, every record understood) and the shape of a multi-rank trace
 * (one location group per rank, Score-P location ids, clock properties and
 * per-location clock offsets). */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>

void mpi_check_basics(const mpi_ctx *ctx)
{
    const trace_model *t = ctx->t;
    if (!t->has_clock_properties)
        mpi_fail("no ClockProperties definition");
    else if (t->timer_resolution == 0)
        mpi_fail("ClockProperties with timer resolution 0");
    if (t->location_count == 0)
        mpi_fail("the trace has no locations");
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        const char *label = mpi_loc_label(loc);
        if (loc->nesting_errors)
            mpi_fail("basics: %s (%" PRIu64 " nesting errors)", loc->first_nesting_error,
                     loc->nesting_errors);
        if (loc->time_decreases)
            mpi_fail("basics: %s (%" PRIu64 " times)", loc->first_time_error, loc->time_decreases);
        MPI_CHECK_EQ(loc->unhandled_event_count, 0, "basics: unhandled records on %s", label);
        MPI_CHECK_EQ(loc->undefined_region_events, 0, "basics: events of undefined regions on %s",
                     label);
        if (loc->event_file_missing)
            mpi_fail("basics: %s has no event file", label);
        if (loc->defined_event_count != OTF2_UNDEFINED_UINT64)
            MPI_CHECK_EQ(loc->event_count, loc->defined_event_count,
                         "basics: events read vs numberOfEvents of %s", label);
        for (uint32_t r = 0; r < loc->region_slots; r++)
            MPI_CHECK_EQ(loc->leave_counts[r], loc->enter_counts[r],
                         "basics: leaves vs enters of \"%s\" on %s", mpi_region_name(ctx, r),
                         label);
    }
}

static void check_groups(const mpi_ctx *ctx)
{
    const trace_model *t = ctx->t;
    MPI_CHECK_EQ(t->location_group_count, ctx->ranks, "location groups (one per rank)");
    for (uint32_t r = 0; r < ctx->ranks; r++) {
        const trace_location_group *g = NULL;
        for (size_t i = 0; i < t->location_group_count; i++) {
            if (t->location_groups[i].id == r)
                g = &t->location_groups[i];
        }
        if (g == NULL) {
            mpi_fail("no location group with id %" PRIu32 " (rank %" PRIu32 ")", r, r);
            continue;
        }
        MPI_CHECK_EQ(g->type, OTF2_LOCATION_GROUP_TYPE_PROCESS, "type of location group %" PRIu32,
                     r);
    }
}

/* Clock offsets in strictly increasing local time. */
static void check_offsets(const trace_location_stats *loc, uint32_t min_offsets)
{
    const char *label = mpi_loc_label(loc);
    if (loc->clock_offset_count < min_offsets)
        mpi_fail("%s has %zu ClockOffset records, expected at least %" PRIu32, label,
                 loc->clock_offset_count, min_offsets);
    for (size_t k = 1; k < loc->clock_offset_count; k++) {
        if (loc->clock_offsets[k].time <= loc->clock_offsets[k - 1].time)
            mpi_fail("%s: ClockOffset %zu at %" PRIu64 " is not after the one before (%" PRIu64 ")",
                     label, k, loc->clock_offsets[k].time, loc->clock_offsets[k - 1].time);
    }
}

void mpi_check_locations(const mpi_ctx *ctx, uint32_t threads, uint32_t min_offsets)
{
    const trace_model *t = ctx->t;
    check_groups(ctx);
    MPI_CHECK_EQ(t->location_count, (uint64_t)ctx->ranks * threads,
                 "locations (%" PRIu32 " ranks x %" PRIu32 " threads)", ctx->ranks, threads);
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        uint32_t rank = mpi_loc_rank(loc), thread = mpi_loc_thread(loc);
        if (rank >= ctx->ranks || thread >= threads)
            mpi_fail("location id %#" PRIx64 " is not (thread << 32) | rank for %" PRIu32
                     " ranks x %" PRIu32 " threads",
                     loc->id, ctx->ranks, threads);
        MPI_CHECK_EQ(loc->group, rank, "location group of location %#" PRIx64, loc->id);
        MPI_CHECK_EQ(loc->type, OTF2_LOCATION_TYPE_CPU_THREAD, "type of location %#" PRIx64,
                     loc->id);
        check_offsets(loc, min_offsets);
    }
    for (uint32_t r = 0; r < ctx->ranks; r++) {
        for (uint32_t th = 0; th < threads; th++) {
            if (mpi_location(ctx, r, th) == NULL)
                mpi_fail("no location for rank %" PRIu32 " thread %" PRIu32 " (id %#" PRIx64 ")", r,
                         th, ((uint64_t)th << 32) | r);
        }
    }
}

/* Scalasca's analyzer takes MPI_Finalize as a point where every rank meets:
 * a rank that leaves it before another enters is a clock condition
 * violation to it. weft's MPI_Finalize spans a barrier, so the regions of
 * all ranks overlap (times with the clock offsets applied). */
void mpi_check_finalize_overlap(const mpi_ctx *ctx)
{
    const trace_model *t = ctx->t;
    const trace_region *fin = trace_region_by_name(t, "MPI_Finalize");
    if (!fin) {
        mpi_fail("finalize: no MPI_Finalize region");
        return;
    }
    uint64_t last_enter = 0, first_leave = UINT64_MAX;
    uint32_t seen = 0;
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        for (size_t i = 0; loc && i < loc->event_list_len; i++) {
            const trace_event *e = &loc->events[i];
            if ((e->kind != TRACE_EVENT_ENTER && e->kind != TRACE_EVENT_LEAVE) ||
                e->region != fin->id)
                continue;
            if (e->kind == TRACE_EVENT_ENTER) {
                seen++;
                if (e->time > last_enter)
                    last_enter = e->time;
            } else if (e->time < first_leave) {
                first_leave = e->time;
            }
        }
    }
    MPI_CHECK_EQ(seen, ctx->ranks, "finalize: ranks that entered MPI_Finalize");
    if (seen && last_enter > first_leave)
        mpi_fail("finalize: a rank left MPI_Finalize %" PRIu64
                 " ticks before the last one entered it",
                 last_enter - first_leave);
}
/* SPDX-License-Identifier: BSD-3-Clause */
