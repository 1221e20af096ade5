/* Message matching across ranks. Every MpiSend and MpiIsend is a send;
 * every MpiRecv and completed MpiIrecv a receive. Ranks in the records are
 * ranks in their communicator and are translated to world ranks through the
 * comm's group. MPI matches messages in order per channel (source,
 * destination, comm, tag) - a receive's place in that order is when it was
 * posted: the enter of MPI_Recv, or its MpiIrecvRequest - so the k-th send
 * of a channel must meet the k-th receive, with the same byte count, and no
 * send or receive may be left over. With the clock offsets applied, no
 * receive may end (leave of its region) before its send began (enter of
 * its region). */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct msg_end {
    uint32_t src, dst, comm, tag;
    uint64_t bytes;
    uint64_t order; /* place in its channel */
    uint64_t time;  /* sends: region enter; receives: region leave */
    const trace_location_stats *loc;
    size_t event;
} msg_end;

typedef struct msg_list {
    msg_end *item;
    size_t count, cap;
} msg_list;

static void push(msg_list *l, const msg_end *m)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->item = realloc(l->item, l->cap * sizeof *l->item);
        if (l->item == NULL) {
            mpi_fail("out of memory");
            exit(1);
        }
    }
    l->item[l->count++] = *m;
}

static int compare(const void *a, const void *b)
{
    const msg_end *x = a, *y = b;
    const uint64_t kx[] = {x->src, x->dst, x->comm, x->tag, x->order, x->loc->id, x->event};
    const uint64_t ky[] = {y->src, y->dst, y->comm, y->tag, y->order, y->loc->id, y->event};
    for (size_t i = 0; i < sizeof kx / sizeof kx[0]; i++) {
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    }
    return 0;
}

/* Time of the MpiIrecvRequest with `id` before event e, or the event's own. */
static uint64_t irecv_posted(const trace_location_stats *loc, size_t e, uint64_t id)
{
    for (size_t k = e; k-- > 0;) {
        if (loc->events[k].kind == TRACE_EVENT_MPI_IRECV_REQUEST && loc->events[k].request_id == id)
            return loc->events[k].time;
    }
    return loc->events[e].time;
}

static void collect(const mpi_ctx *ctx, size_t index, msg_list *sends, msg_list *recvs)
{
    const trace_location_stats *loc = &ctx->t->locations[index];
    const mpi_location_index *ix = &ctx->loc[index];
    uint32_t rank = mpi_loc_rank(loc);
    for (size_t e = 0; e < loc->event_list_len; e++) {
        const trace_event *ev = &loc->events[e];
        bool send = ev->kind == TRACE_EVENT_MPI_SEND || ev->kind == TRACE_EVENT_MPI_ISEND;
        bool recv = ev->kind == TRACE_EVENT_MPI_RECV || ev->kind == TRACE_EVENT_MPI_IRECV;
        mpi_comm_view view;
        if ((!send && !recv) || !mpi_comm_view_of(ctx, ev->comm, rank, &view))
            continue; /* undefined comms are reported by mpi_check_mpi_events */
        uint32_t peer = mpi_view_world(&view, ev->peer);
        if (peer == UINT32_MAX)
            continue;
        int64_t enter = ix->enclosing[e];
        int64_t leave = enter >= 0 ? ix->leave_of[enter] : -1;
        msg_end m = {.comm = ev->comm, .tag = ev->tag, .bytes = ev->bytes, .loc = loc, .event = e};
        if (send) {
            m.src = rank;
            m.dst = peer;
            m.order = ev->time;
            m.time = enter >= 0 ? loc->events[enter].time : ev->time;
            push(sends, &m);
        } else {
            m.src = peer;
            m.dst = rank;
            if (ev->kind == TRACE_EVENT_MPI_IRECV)
                m.order = irecv_posted(loc, e, ev->request_id);
            else
                m.order = enter >= 0 ? loc->events[enter].time : ev->time;
            m.time = leave >= 0 ? loc->events[leave].time : ev->time;
            push(recvs, &m);
        }
    }
}

static bool same_channel(const msg_end *a, const msg_end *b)
{
    return a->src == b->src && a->dst == b->dst && a->comm == b->comm && a->tag == b->tag;
}

typedef struct time_report {
    uint64_t violations;
    uint64_t worst; /* ticks */
    msg_end send, recv;
} time_report;

static void pair(const mpi_ctx *ctx, const msg_end *s, const msg_end *r, time_report *tr)
{
    if (s->bytes != r->bytes)
        mpi_fail("message %" PRIu32 " -> %" PRIu32 " comm %" PRIu32 " tag %" PRIu32
                 ": sent %" PRIu64 " bytes (%s event %zu), received %" PRIu64 " (%s event %zu)",
                 s->src, s->dst, s->comm, s->tag, s->bytes, mpi_loc_label(s->loc), s->event + 1,
                 r->bytes, mpi_loc_label(r->loc), r->event + 1);
    (void)ctx;
    if (r->time < s->time) {
        if (tr->violations++ == 0 || s->time - r->time > tr->worst) {
            tr->worst = s->time - r->time;
            tr->send = *s;
            tr->recv = *r;
        }
    }
}

static void report_channel(const msg_end *any, size_t sends, size_t recvs)
{
    mpi_fail("channel %" PRIu32 " -> %" PRIu32 " comm %" PRIu32 " tag %" PRIu32 ": %zu send(s), "
             "%zu receive(s) (first on %s event %zu)",
             any->src, any->dst, any->comm, any->tag, sends, recvs, mpi_loc_label(any->loc),
             any->event + 1);
}

uint64_t mpi_check_messages(const mpi_ctx *ctx, uint64_t *per_comm, size_t comm_slots)
{
    msg_list sends = {0}, recvs = {0};
    for (size_t i = 0; i < ctx->t->location_count; i++)
        collect(ctx, i, &sends, &recvs);
    qsort(sends.item, sends.count, sizeof *sends.item, compare);
    qsort(recvs.item, recvs.count, sizeof *recvs.item, compare);
    time_report tr = {0};
    uint64_t matched = 0;
    size_t s = 0, r = 0;
    while (s < sends.count || r < recvs.count) {
        const msg_end *first = NULL;
        if (s < sends.count && (r == recvs.count || compare(&sends.item[s], &recvs.item[r]) <= 0))
            first = &sends.item[s];
        else
            first = &recvs.item[r];
        size_t s_end = s, r_end = r;
        while (s_end < sends.count && same_channel(&sends.item[s_end], first))
            s_end++;
        while (r_end < recvs.count && same_channel(&recvs.item[r_end], first))
            r_end++;
        if (s_end - s != r_end - r)
            report_channel(first, s_end - s, r_end - r);
        for (size_t k = 0; k < s_end - s && k < r_end - r; k++) {
            pair(ctx, &sends.item[s + k], &recvs.item[r + k], &tr);
            matched++;
            if (per_comm != NULL && first->comm < comm_slots)
                per_comm[first->comm]++;
        }
        s = s_end;
        r = r_end;
    }
    if (tr.violations > 0) {
        double us = ctx->t->timer_resolution
                        ? (double)tr.worst * 1e6 / (double)ctx->t->timer_resolution
                        : 0.0;
        mpi_fail("%" PRIu64 " receive(s) end before their send began; worst by %" PRIu64
                 " ticks (%.3f us): %" PRIu32 " -> %" PRIu32 " tag %" PRIu32
                 ", send %s event %zu, receive %s event %zu",
                 tr.violations, tr.worst, us, tr.send.src, tr.send.dst, tr.send.tag,
                 mpi_loc_label(tr.send.loc), tr.send.event + 1, mpi_loc_label(tr.recv.loc),
                 tr.recv.event + 1);
    }
    free(sends.item);
    free(recvs.item);
    return matched;
}

/* ---- messages a scenario expects, by tag --------------------------------- */

static uint32_t peer_of(const mpi_ctx *ctx, uint32_t rank, mpi_peer to, bool inverse)
{
    uint32_t n = ctx->ranks;
    switch (to) {
    case MPI_PEER_RIGHT:
        return inverse ? (rank + n - 1) % n : (rank + 1) % n;
    case MPI_PEER_LEFT:
        return inverse ? (rank + 1) % n : (rank + n - 1) % n;
    default:
        return rank ^ 1u;
    }
}

void mpi_check_message_rules(const mpi_ctx *ctx, uint32_t thread, const mpi_message_rule *rules,
                             size_t count)
{
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, thread);
        if (loc == NULL)
            continue; /* reported by mpi_check_locations */
        uint64_t sends[64] = {0}, recvs[64] = {0};
        for (size_t e = 0; e < loc->event_list_len; e++) {
            const trace_event *ev = &loc->events[e];
            bool send = ev->kind == TRACE_EVENT_MPI_SEND || ev->kind == TRACE_EVENT_MPI_ISEND;
            bool recv = ev->kind == TRACE_EVENT_MPI_RECV || ev->kind == TRACE_EVENT_MPI_IRECV;
            if (!send && !recv)
                continue;
            size_t k = 0;
            while (k < count && rules[k].tag != ev->tag)
                k++;
            if (k == count || k >= 64) {
                mpi_fail("%s event %zu: %s with tag %" PRIu32 ", which the program never uses",
                         mpi_loc_label(loc), e + 1, trace_event_kind_name(ev->kind), ev->tag);
                continue;
            }
            uint32_t peer = peer_of(ctx, rank, rules[k].to, recv);
            if (ev->comm != ctx->world_comm || ev->peer != peer || ev->bytes != rules[k].bytes)
                mpi_fail("%s event %zu: %s tag %" PRIu32 " comm %" PRIu32 " peer %" PRIu32
                         " bytes %" PRIu64 ", expected comm %" PRIu32
                         " (MPI_COMM_WORLD) peer %" PRIu32 " bytes %" PRIu64,
                         mpi_loc_label(loc), e + 1, trace_event_kind_name(ev->kind), ev->tag,
                         ev->comm, ev->peer, ev->bytes, ctx->world_comm, peer, rules[k].bytes);
            (send ? sends : recvs)[k]++;
        }
        for (size_t k = 0; k < count && k < 64; k++) {
            MPI_CHECK_EQ(sends[k], rules[k].per_rank, "sends with tag %" PRIu32 " on %s",
                         rules[k].tag, mpi_loc_label(loc));
            MPI_CHECK_EQ(recvs[k], rules[k].per_rank, "receives with tag %" PRIu32 " on %s",
                         rules[k].tag, mpi_loc_label(loc));
        }
    }
}

void mpi_check_events_in(const mpi_ctx *ctx, const trace_location_stats *loc, const char *name,
                         trace_event_kind kind, uint64_t expected)
{
    MPI_CHECK_EQ(mpi_events_in(ctx, loc, name, kind, NULL), expected, "%s records in %s on %s",
                 trace_event_kind_name(kind), name, mpi_loc_label(loc));
}
/* SPDX-License-Identifier: BSD-3-Clause */
