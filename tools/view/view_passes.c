/* SPDX-License-Identifier: BSD-3-Clause */
/* The event handlers of `weft view`'s passes over a trace, each reading
 * location by location through the shared reader:
 *   range pass  (only when the trace length is 0) the first and last time;
 *   pass A      regions into the pyramid, profile and histograms
 *               (view_lod.c); sends and receives, collective pairs, forks
 *               and joins into sorted spills (view_spill.c), matched or
 *               chosen from after the pass;
 *   pass B      the visits the plan chose, into a spill ordered by end
 *               time (each location's in leave order).
 * Both passes nest regions through view_nest.c, so they see the same visits. */
#include "view.h"
#include "grow.h"

#include <stdlib.h>

static view_state *state_of(weft_trace_reader *reader)
{
    return (view_state *)reader; /* the reader is view_state's first member */
}

/* --- Hooks of the nesting ------------------------------------------------------------ */

static void a_span(void *ctx, uint64_t from, uint64_t to, bool running, uint64_t region,
                   uint64_t depth)
{
    weft__view_lod_span(&((view_state *)ctx)->lod, from, to, running, region, depth);
}

static void a_enter(void *ctx, uint64_t region, uint64_t time)
{
    weft__view_lod_enter(&((view_state *)ctx)->lod, region, time);
}

static void a_visit(void *ctx, const view_frame *f, uint64_t end, uint64_t depth)
{
    view_state *s = ctx;
    s->stats.visits++;
    weft__view_lod_visit(&s->lod, f, end, depth);
}

static bool chosen(const view_detail *d, uint64_t start, uint64_t end)
{
    if (d->everything)
        return true;
    if (d->have_min_duration && end - start >= d->min_duration)
        return true;
    return d->have_window && start < d->window_end && end >= d->window_start;
}

static void b_visit(void *ctx, const view_frame *f, uint64_t end, uint64_t depth)
{
    view_state *s = ctx;
    if (!chosen(&s->detail, f->start, end))
        return;
    uint64_t record[VIS_WORDS] = {[VIS_END] = end,      [VIS_LOC] = s->loc,
                                  [VIS_SEQ] = s->seq++, [VIS_DUR] = end - f->start,
                                  [VIS_DEPTH] = depth,  [VIS_REGION] = f->region};
    weft__view_spill_add(&s->visits, record);
}

static const view_nest_hooks pass_a_hooks = {a_span, a_enter, a_visit};
static const view_nest_hooks pass_b_hooks = {NULL, NULL, b_visit};

/* --- Markers (pass A) ------------------------------------------------------------------ */

static weft_status message(view_state *s, const weft_trace_event *e, bool send, uint64_t posted)
{
    size_t comm = weft__trace_find_comm(&s->read, e->ref);
    uint32_t own = s->read.current_rank;
    uint32_t peer = comm == NOT_FOUND ? WEFT_TRACE_NO_RANK
                                      : weft__trace_world_rank(&s->read, comm, e->peer, own);
    if (peer == WEFT_TRACE_NO_RANK || own == WEFT_TRACE_NO_RANK) {
        s->stats.undefined++;
        return WEFT_OK;
    }
    uint64_t record[P2P_WORDS] = {[P2P_COMM] = comm,
                                  [P2P_SENDER] = send ? own : peer,
                                  [P2P_RECEIVER] = send ? peer : own,
                                  [P2P_TAG] = e->tag,
                                  [P2P_ORDER] = posted,
                                  [P2P_LOC] = s->loc,
                                  [P2P_SEQ] = s->seq++,
                                  [P2P_TIME] = weft__view_time(s, e->time),
                                  [P2P_BYTES] = e->bytes};
    weft__view_spill_add(send ? &s->sends : &s->receives, record);
    return WEFT_OK;
}

static weft_status irecv_request(view_state *s, const weft_trace_event *e)
{
    /* Two words per request: its id and the time of its MPI_Irecv. */
    if (!weft__cli_grow(&s->requests, &s->request_capacity, s->request_count + 1,
                        2 * sizeof(*s->requests)))
        return WEFT_ERR_NO_MEMORY;
    s->requests[2 * s->request_count] = e->request;
    s->requests[2 * s->request_count + 1] = e->time;
    s->request_count++;
    return WEFT_OK;
}

/* A non-blocking receive takes its place among its channel's receives by
 * when it was posted, as weft check and MPI order them. */
static weft_status irecv(view_state *s, const weft_trace_event *e)
{
    uint64_t posted = e->time;
    for (size_t i = s->request_count; i > 0; i--) {
        if (s->requests[2 * (i - 1)] == e->request) {
            posted = s->requests[2 * (i - 1) + 1];
            s->request_count--;
            s->requests[2 * (i - 1)] = s->requests[2 * s->request_count];
            s->requests[2 * (i - 1) + 1] = s->requests[2 * s->request_count + 1];
            break;
        }
    }
    return message(s, e, false, posted);
}

static void collective_end(view_state *s, const weft_trace_event *e)
{
    size_t comm = weft__trace_find_comm(&s->read, e->ref);
    uint64_t end = weft__view_time(s, e->time);
    uint64_t begin = s->collective_open && s->collective_begin <= end ? s->collective_begin : end;
    s->collective_open = false;
    if (comm == NOT_FOUND) {
        s->stats.undefined++;
        return;
    }
    s->stats.collectives++;
    uint64_t record[COL_WORDS] = {[COL_END] = end,
                                  [COL_LOC] = s->loc,
                                  [COL_SEQ] = s->seq++,
                                  [COL_DUR] = end - begin,
                                  [COL_OP] = e->op,
                                  [COL_COMM] = comm,
                                  [COL_ROOT] =
                                      e->root == OTF2_UNDEFINED_UINT32 ? 0 : (uint64_t)e->root + 1,
                                  [COL_SENT] = e->bytes,
                                  [COL_RECEIVED] = e->received};
    weft__view_spill_add(&s->collectives, record);
}

static void thread_event(view_state *s, const weft_trace_event *e, uint64_t kind)
{
    s->stats.thread_events++;
    uint64_t record[THR_WORDS] = {[THR_TIME] = weft__view_time(s, e->time),
                                  [THR_LOC] = s->loc,
                                  [THR_SEQ] = s->seq++,
                                  [THR_KIND] = kind,
                                  [THR_TEAM] = kind == 0 ? e->number : 0};
    weft__view_spill_add(&s->threads, record);
}

/* --- Every event ------------------------------------------------------------------------ */

static weft_status enter(view_state *s, size_t region, uint64_t time)
{
    if (region == NOT_FOUND) {
        s->stats.undefined += s->pass == 1;
        return WEFT_OK;
    }
    return weft__view_nest_enter(&s->nest, region, weft__view_time(s, time)) ? WEFT_OK
                                                                             : WEFT_ERR_NO_MEMORY;
}

static void leave(view_state *s, size_t region, uint64_t time)
{
    if (region == NOT_FOUND)
        s->stats.undefined += s->pass == 1;
    else
        weft__view_nest_leave(&s->nest, region, weft__view_time(s, time));
}

static weft_status on_markers(view_state *s, const weft_trace_event *e)
{
    switch (e->kind) {
    case WEFT_TRACE_SEND:
    case WEFT_TRACE_ISEND:
        return message(s, e, true, e->time);
    case WEFT_TRACE_RECV:
        return message(s, e, false, e->time);
    case WEFT_TRACE_IRECV_REQUEST:
        return irecv_request(s, e);
    case WEFT_TRACE_IRECV:
        return irecv(s, e);
    case WEFT_TRACE_COLLECTIVE_BEGIN:
        s->collective_open = true;
        s->collective_begin = weft__view_time(s, e->time);
        return WEFT_OK;
    case WEFT_TRACE_COLLECTIVE_END:
        collective_end(s, e);
        return WEFT_OK;
    case WEFT_TRACE_NONBLOCKING_COLLECTIVE_END:
        /* An MPI_I... collective's completion (OTF2 3): marked where it
         * completed, as weft summary counts it; its request is not read. */
        s->collective_open = false;
        collective_end(s, e);
        return WEFT_OK;
    case WEFT_TRACE_FORK:
        thread_event(s, e, 0);
        return WEFT_OK;
    case WEFT_TRACE_JOIN:
        thread_event(s, e, 1);
        return WEFT_OK;
    default:
        return WEFT_OK;
    }
}

static weft_status on_event(weft_trace_reader *reader, const weft_trace_event *e)
{
    view_state *s = state_of(reader);
    if (s->pass == 0) {
        if (!s->any_time || e->time < s->first_time)
            s->first_time = e->time;
        if (!s->any_time || e->time > s->last_time)
            s->last_time = e->time;
        s->any_time = true;
        return WEFT_OK;
    }
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
    default:
        return s->pass == 1 ? on_markers(s, e) : WEFT_OK;
    }
}

static weft_status begin_location(weft_trace_reader *reader)
{
    view_state *s = state_of(reader);
    s->loc = s->defs.display[reader->current];
    s->program_region = NOT_FOUND;
    s->collective_open = false;
    s->request_count = 0;
    if (s->pass == 0)
        return WEFT_OK;
    weft__view_nest_begin(&s->nest);
    if (s->pass == 1)
        weft__view_lod_location(&s->lod, s->loc);
    return WEFT_OK;
}

static weft_status end_location(weft_trace_reader *reader)
{
    view_state *s = state_of(reader);
    if (s->pass == 0)
        return WEFT_OK;
    weft__view_nest_end(&s->nest);
    if (s->pass == 1)
        weft__view_lod_location_end(&s->lod);
    return WEFT_OK;
}

weft_status weft__view_read_pass(view_state *s, OTF2_Reader *reader, int pass)
{
    static const char *const what[] = {"finding the time range", "reading events (pass 1 of 2)",
                                       "reading events (pass 2 of 2)"};
    s->pass = pass;
    s->read.progress_what = what[pass];
    s->read.event_count = 0;
    if (pass > 0) {
        weft__view_nest_free(&s->nest);
        if (!weft__view_nest_init(&s->nest, s->read.region_count,
                                  pass == 1 ? &pass_a_hooks : &pass_b_hooks, s)) {
            weft__trace_report(&s->read, OTF2_SUCCESS, NULL, "out of memory reading");
            return WEFT_ERR_NO_MEMORY;
        }
    }
    const weft_trace_location_hooks hooks = {begin_location, end_location};
    weft_status status = weft__trace_read_events(&s->read, reader, on_event, &hooks);
    if (pass == 1) {
        s->stats.events = s->read.event_count;
        s->stats.unbalanced = s->nest.unbalanced;
    }
    return status;
}
