/* SPDX-License-Identifier: BSD-3-Clause */
/* The events `weft summary` uses, as the shared reader hands them over
 * location by location: enter and leave (and the program's begin and end)
 * go to the builder (region times, barrier time), OpenMP lock acquisitions
 * to the builder's lock-waiting account, MPI point-to-point and collective
 * records to the counter tables with their peers as world ranks. */
#include "summary_state.h"

#include <stdlib.h>

static summary_state *state_of(weft_trace_reader *reader)
{
    return (summary_state *)reader; /* the reader is summary_state's first member */
}

static weft_status enter(summary_state *s, size_t region, uint64_t time)
{
    if (region == NOT_FOUND) {
        s->undefined_region_count++;
        return WEFT_OK;
    }
    return weft__summary_enter(s->builder, region, time);
}

static void leave(summary_state *s, size_t region, uint64_t time)
{
    if (region == NOT_FOUND)
        s->undefined_region_count++;
    else
        weft__summary_leave(s->builder, region, time);
}

/* Adds one message to the pair SENDER -> RECEIVER and to communicator COMM
 * (a ref): FIELD 0 counts sends, 2 receives; the next counter sums bytes. */
static weft_status count_message(summary_state *s, uint32_t sender, uint32_t receiver,
                                 uint64_t comm, int field, uint64_t bytes)
{
    uint64_t *pair = weft__summary_table_counters(s->pairs, (uint64_t)sender << 32 | receiver);
    uint64_t *by_comm = weft__summary_table_counters(s->comm_p2p, comm);
    if (!pair || !by_comm)
        return WEFT_ERR_NO_MEMORY;
    pair[field]++;
    pair[field + 1] += bytes;
    by_comm[field]++;
    by_comm[field + 1] += bytes;
    return WEFT_OK;
}

static size_t comm_index(summary_state *s, uint64_t comm)
{
    size_t index = weft__trace_find_comm(&s->read, comm);
    if (index == NOT_FOUND)
        s->undefined_comm_count++;
    return index;
}

/* A send (SENT) or receive: the peer as a world rank, counted on both tables. */
static weft_status message(summary_state *s, const weft_trace_event *e, bool sent)
{
    uint32_t own = s->read.current_rank;
    uint32_t peer = weft__trace_world_rank(&s->read, comm_index(s, e->ref), e->peer, own);
    return sent ? count_message(s, own, peer, e->ref, 0, e->bytes)
                : count_message(s, peer, own, e->ref, 2, e->bytes);
}

static weft_status collective(summary_state *s, const weft_trace_event *e)
{
    (void)comm_index(s, e->ref); /* counts an undefined communicator */
    uint64_t *c = weft__summary_table_counters(s->collectives, e->ref << 32 | e->op);
    if (!c)
        return WEFT_ERR_NO_MEMORY;
    c[0]++;
    c[1] += e->bytes;
    c[2] += e->received;
    return WEFT_OK;
}

static weft_status handle_event(summary_state *s, const weft_trace_event *e)
{
    weft_trace_reader *reader = &s->read;
    switch (e->kind) {
    case WEFT_TRACE_ENTER:
        return enter(s, weft__trace_find_region(reader, e->ref), e->time);
    case WEFT_TRACE_LEAVE:
        leave(s, weft__trace_find_region(reader, e->ref), e->time);
        return WEFT_OK;
    case WEFT_TRACE_PROGRAM_BEGIN:
        s->program_region = weft__trace_find_program_region(reader, e->ref, e->argc, e->args);
        return enter(s, s->program_region, e->time);
    case WEFT_TRACE_PROGRAM_END:
        leave(s, s->program_region, e->time);
        return WEFT_OK;
    case WEFT_TRACE_LOCK_ACQUIRE:
        if (e->paradigm == OTF2_PARADIGM_OPENMP)
            weft__summary_lock_acquired(s->builder, e->time);
        return WEFT_OK;
    case WEFT_TRACE_SEND:
    case WEFT_TRACE_ISEND:
        return message(s, e, true);
    case WEFT_TRACE_RECV:
    case WEFT_TRACE_IRECV:
        return message(s, e, false);
    case WEFT_TRACE_COLLECTIVE_END:
    case WEFT_TRACE_NONBLOCKING_COLLECTIVE_END: /* OTF2 3; other tools may write it */
        return collective(s, e);
    case WEFT_TRACE_IO_BEGIN:
    case WEFT_TRACE_IO_COMPLETE:
        return weft__summary_io_event(s, e);
    default:
        return WEFT_OK;
    }
}

/* Every event counts to the region it was recorded in (see
 * weft_summary_region.events): an enter to the region it opens, a leave to
 * the region it closes, any other to the innermost open region. */
static weft_status on_event(weft_trace_reader *reader, const weft_trace_event *e)
{
    summary_state *s = state_of(reader);
    bool closes = e->kind == WEFT_TRACE_LEAVE || e->kind == WEFT_TRACE_PROGRAM_END;
    if (closes)
        weft__summary_count_event(s->builder);
    weft_status status = handle_event(s, e);
    if (!closes)
        weft__summary_count_event(s->builder);
    return status;
}

static weft_status begin_location(weft_trace_reader *reader)
{
    summary_state *s = state_of(reader);
    s->program_region = NOT_FOUND;
    weft__summary_location_begin(s->builder);
    return weft__summary_io_begin_location(s);
}

static weft_status end_location(weft_trace_reader *reader)
{
    summary_state *s = state_of(reader);
    weft__summary_location_end(s->builder);
    s->location_omp[reader->current] = weft__summary_builder_location_omp(s->builder);
    return WEFT_OK;
}

/* Marks the builder's barrier and lock-waiting regions from their definitions. */
static void mark_waiting_regions(summary_state *s)
{
    for (size_t i = 0; i < s->read.region_count; i++) {
        const region_def *r = &s->read.regions[i];
        weft_summary_kind kind = weft__summary_classify(
            r->paradigm, r->role, weft__trace_string(&s->read, r->name_ref),
            weft__trace_string(&s->read, r->file_ref));
        weft__summary_builder_set_wait(s->builder, i, kind.wait);
    }
}

weft_status weft__summary_read_events(summary_state *s, OTF2_Reader *reader)
{
    size_t locations = s->read.location_count;
    s->builder = weft__summary_builder_create(s->read.region_count);
    s->pairs = weft__summary_table_create();
    s->comm_p2p = weft__summary_table_create();
    s->collectives = weft__summary_table_create();
    s->location_omp = calloc(locations ? locations : 1, sizeof(weft_summary_omp));
    if (!s->builder || !s->pairs || !s->comm_p2p || !s->collectives || !s->location_omp) {
        weft__trace_report(&s->read, OTF2_SUCCESS, NULL, "out of memory reading");
        return WEFT_ERR_NO_MEMORY;
    }
    mark_waiting_regions(s);
    const weft_trace_location_hooks hooks = {begin_location, end_location};
    return weft__trace_read_events(&s->read, reader, on_event, &hooks);
}

void weft__summary_state_free(summary_state *s)
{
    weft__summary_builder_destroy(s->builder);
    weft__summary_table_destroy(s->pairs);
    weft__summary_table_destroy(s->comm_p2p);
    weft__summary_table_destroy(s->collectives);
    free(s->location_omp);
    weft__summary_io_free(s);
    weft__trace_free(&s->read);
}
