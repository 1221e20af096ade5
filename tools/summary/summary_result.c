/* SPDX-License-Identifier: BSD-3-Clause */
/* Reads a trace for `weft summary` (the shared reader of trace/ with the
 * event handling of summary_events.c) and turns what was gathered into a
 * weft_summary: regions with their paradigms, rank pairs, communicators and
 * collectives, OpenMP waiting per location. */
#include "summary_state.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- The result ----------------------------------------------------------------- */

static char *name_or(const char *name, const char *what, uint64_t ref)
{
    if (name)
        return strdup(name);
    char fallback[64];
    snprintf(fallback, sizeof(fallback), "<%s %" PRIu64 ">", what, ref);
    return strdup(fallback);
}

static weft_status make_regions(const summary_state *st, weft_summary *out)
{
    const weft_summary_region *sums = weft__summary_builder_regions(st->builder);
    size_t visited = 0;
    for (size_t i = 0; i < st->read.region_count; i++)
        visited += sums[i].visits > 0;
    out->regions = calloc(visited ? visited : 1, sizeof(*out->regions));
    if (!out->regions)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < st->read.region_count; i++) {
        if (sums[i].visits == 0)
            continue;
        const region_def *def = &st->read.regions[i];
        const char *name = weft__trace_string(&st->read, def->name_ref);
        weft_summary_region *r = &out->regions[out->region_count++];
        *r = sums[i];
        r->paradigm = weft__summary_classify(def->paradigm, def->role, name,
                                             weft__trace_string(&st->read, def->file_ref))
                          .paradigm;
        r->name = name_or(name, "region", def->ref);
        if (!r->name)
            return WEFT_ERR_NO_MEMORY;
        out->paradigms[r->paradigm].visits += r->visits;
        out->paradigms[r->paradigm].excl_ticks += r->excl_ticks;
    }
    weft__summary_sort(out);
    return WEFT_OK;
}

static int compare_pairs(const void *pa, const void *pb)
{
    const weft_summary_pair *a = pa, *b = pb;
    if (a->sender != b->sender)
        return a->sender < b->sender ? -1 : 1;
    return a->receiver < b->receiver ? -1 : a->receiver > b->receiver;
}

static weft_summary_p2p p2p_of(const uint64_t *c)
{
    return (weft_summary_p2p){c[0], c[1], c[2], c[3]};
}

static void add_p2p(weft_summary_p2p *sum, weft_summary_p2p more)
{
    sum->sent_messages += more.sent_messages;
    sum->sent_bytes += more.sent_bytes;
    sum->received_messages += more.received_messages;
    sum->received_bytes += more.received_bytes;
}

static weft_status make_pairs(const summary_state *st, weft_summary *out)
{
    size_t n = weft__summary_table_size(st->pairs);
    out->pairs = calloc(n ? n : 1, sizeof(*out->pairs));
    if (!out->pairs)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < n; i++) {
        const uint64_t *c;
        uint64_t key = weft__summary_table_key(st->pairs, i, &c);
        out->pairs[i] = (weft_summary_pair){(uint32_t)(key >> 32), (uint32_t)key, p2p_of(c)};
        add_p2p(&out->p2p_total, out->pairs[i].p2p);
    }
    out->pair_count = n;
    if (n > 1)
        qsort(out->pairs, n, sizeof(*out->pairs), compare_pairs);
    return WEFT_OK;
}

static int compare_comms(const void *pa, const void *pb)
{
    const weft_summary_comm *a = pa, *b = pb;
    return a->ref < b->ref ? -1 : a->ref > b->ref;
}

/* Appends communicator REF with traffic P2P to out->comms, which has room. */
static weft_status add_comm(const summary_state *st, weft_summary *out, uint32_t ref,
                            weft_summary_p2p p2p)
{
    size_t def = weft__trace_find_comm(&st->read, ref);
    weft_summary_comm *c = &out->comms[out->comm_count];
    *c = (weft_summary_comm){.ref = ref, .size = weft__trace_comm_size(&st->read, def), .p2p = p2p};
    c->name = def == NOT_FOUND
                  ? name_or(NULL, "undefined communicator", ref)
                  : name_or(weft__trace_string(&st->read, st->read.comms[def].name_ref), "communicator", ref);
    if (!c->name)
        return WEFT_ERR_NO_MEMORY;
    out->comm_count++;
    return WEFT_OK;
}

/* Sorts out->comms by ref and merges the entries of one communicator. */
static void merge_comms(weft_summary *out)
{
    if (out->comm_count < 2)
        return;
    qsort(out->comms, out->comm_count, sizeof(*out->comms), compare_comms);
    size_t kept = 1;
    for (size_t i = 1; i < out->comm_count; i++) {
        weft_summary_comm *last = &out->comms[kept - 1];
        if (out->comms[i].ref == last->ref) {
            add_p2p(&last->p2p, out->comms[i].p2p);
            free(out->comms[i].name);
        } else {
            out->comms[kept++] = out->comms[i];
        }
    }
    out->comm_count = kept;
}

static size_t comm_position(const weft_summary *out, uint32_t ref)
{
    weft_summary_comm key = {.ref = ref};
    const weft_summary_comm *found =
        bsearch(&key, out->comms, out->comm_count, sizeof(key), compare_comms);
    return (size_t)(found - out->comms);
}

static int compare_collectives(const void *pa, const void *pb)
{
    const weft_summary_collective *a = pa, *b = pb;
    if (a->comm != b->comm)
        return a->comm < b->comm ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

/* The communicators that carried traffic, by ref, then the collectives,
 * which refer to them by position. */
static weft_status make_comms(const summary_state *st, weft_summary *out)
{
    size_t np2p = weft__summary_table_size(st->comm_p2p);
    size_t ncoll = weft__summary_table_size(st->collectives);
    out->comms = calloc(np2p + ncoll ? np2p + ncoll : 1, sizeof(*out->comms));
    out->collectives = calloc(ncoll ? ncoll : 1, sizeof(*out->collectives));
    if (!out->comms || !out->collectives)
        return WEFT_ERR_NO_MEMORY;
    const uint64_t *c;
    for (size_t i = 0; i < np2p; i++) {
        uint32_t ref = (uint32_t)weft__summary_table_key(st->comm_p2p, i, &c);
        if (add_comm(st, out, ref, p2p_of(c)) != WEFT_OK)
            return WEFT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < ncoll; i++) {
        uint32_t ref = (uint32_t)(weft__summary_table_key(st->collectives, i, &c) >> 32);
        if (add_comm(st, out, ref, (weft_summary_p2p){0}) != WEFT_OK)
            return WEFT_ERR_NO_MEMORY;
    }
    merge_comms(out);
    for (size_t i = 0; i < ncoll; i++) {
        uint64_t key = weft__summary_table_key(st->collectives, i, &c);
        out->collectives[i] = (weft_summary_collective){
            .op = (uint8_t)key,
            .comm = comm_position(out, (uint32_t)(key >> 32)),
            .calls = c[0],
            .sent_bytes = c[1],
            .received_bytes = c[2],
        };
    }
    out->collective_count = ncoll;
    if (ncoll > 1)
        qsort(out->collectives, ncoll, sizeof(*out->collectives), compare_collectives);
    return WEFT_OK;
}

static void add_omp(weft_summary_omp *sum, const weft_summary_omp *more)
{
    sum->explicit_barrier_ticks += more->explicit_barrier_ticks;
    sum->explicit_barrier_visits += more->explicit_barrier_visits;
    sum->implicit_barrier_ticks += more->implicit_barrier_ticks;
    sum->implicit_barrier_visits += more->implicit_barrier_visits;
    sum->lock_wait_ticks += more->lock_wait_ticks;
    sum->lock_acquisitions += more->lock_acquisitions;
}

/* The locations with OpenMP barrier visits or lock acquisitions, by ref. */
static weft_status make_omp_locations(const summary_state *st, weft_summary *out)
{
    out->omp_locations =
        calloc(st->read.location_count ? st->read.location_count : 1, sizeof(*out->omp_locations));
    if (!out->omp_locations)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < st->read.location_count; i++) {
        const weft_summary_omp *omp = &st->location_omp[i];
        if (omp->explicit_barrier_visits + omp->implicit_barrier_visits + omp->lock_acquisitions ==
            0)
            continue;
        const location_def *def = &st->read.locations[i];
        weft_summary_location *l = &out->omp_locations[out->omp_location_count++];
        *l = (weft_summary_location){.ref = def->ref, .rank = def->rank, .omp = *omp};
        l->name = name_or(weft__trace_string(&st->read, def->name_ref), "location", def->ref);
        if (!l->name)
            return WEFT_ERR_NO_MEMORY;
        add_omp(&out->omp_total, omp);
    }
    return WEFT_OK;
}

static void make_header(const summary_state *st, weft_summary *out)
{
    weft_summary_totals totals = weft__summary_builder_totals(st->builder);
    out->timer_resolution = st->read.timer_resolution;
    if (st->read.trace_length > 0)
        out->duration_ticks = st->read.trace_length;
    else if (totals.last_ticks > totals.first_ticks)
        out->duration_ticks = totals.last_ticks - totals.first_ticks;
    out->location_group_count = st->read.group_count;
    for (size_t i = 0; i < st->read.group_count; i++)
        out->rank_count += st->read.groups[i].type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
    out->location_count = st->read.location_count;
    for (size_t i = 0; i < st->read.location_count; i++) {
        const location_def *l = &st->read.locations[i];
        out->thread_count += l->type == OTF2_LOCATION_TYPE_CPU_THREAD;
        out->events_lost += l->events_lost;
        out->events_lost_locations += l->events_lost > 0;
        out->recovered_locations += l->recovered;
        out->events_left_out += l->events_left_out;
    }
    out->event_count = st->read.event_count;
    out->root_incl_ticks = totals.root_incl_ticks;
    out->unbalanced_count = totals.unbalanced_count;
    out->undefined_region_count = st->undefined_region_count;
    out->undefined_comm_count = st->undefined_comm_count;
    out->unattributed_events = totals.unattributed_events;
}

static weft_status make_summary(const summary_state *st, weft_summary *out)
{
    make_header(st, out);
    out->trace_path = strdup(st->read.path);
    weft_status status = out->trace_path ? WEFT_OK : WEFT_ERR_NO_MEMORY;
    if (status == WEFT_OK)
        status = make_regions(st, out);
    if (status == WEFT_OK)
        status = make_pairs(st, out);
    if (status == WEFT_OK)
        status = make_comms(st, out);
    if (status == WEFT_OK)
        status = make_omp_locations(st, out);
    if (status == WEFT_OK)
        status = weft__summary_io_result(st, out);
    if (status != WEFT_OK)
        weft__trace_report(&st->read, OTF2_SUCCESS, NULL, "out of memory summarising");
    return status;
}

weft_status weft__summary_read(const char *anchor_path, weft_progress_mode progress,
                               weft_summary *out)
{
    memset(out, 0, sizeof(*out));
    summary_state st = {.read = {.command = "weft summary",
                                 .path = anchor_path,
                                 .progress = progress,
                                 .failure = WEFT_OK}};
    OTF2_Reader *reader = weft__trace_open(&st.read);
    weft_status status = reader ? WEFT_OK : WEFT_ERR_OTF2;
    if (status == WEFT_OK)
        status = weft__trace_read_defs(&st.read, reader);
    if (status == WEFT_OK)
        status = weft__summary_read_events(&st, reader);
    if (status == WEFT_OK)
        status = make_summary(&st, out);
    status = weft__trace_close(&st.read, reader, status);
    weft__summary_state_free(&st);
    if (status != WEFT_OK)
        weft__summary_clear(out);
    return status;
}

