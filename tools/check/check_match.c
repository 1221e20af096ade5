/* SPDX-License-Identifier: BSD-3-Clause */
/* What must agree across locations (weft check), once every location's
 * records are in:
 * - messages, per channel (communicator, sender, receiver, tag) in the
 *   order MPI matches them: the k-th send with the k-th receive; sizes
 *   equal, and no receive ending before its send began (times with the
 *   clock offsets applied);
 * - collectives, per communicator: every member calls the same sequence of
 *   operations with the same roots;
 * - locks, per process and lock, in time order: acquired only when free,
 *   released only by the holder; every acquisition order up to the highest;
 * - OpenMP barriers, per run of a thread team: as many on every thread
 *   (check_barriers.c). */
#include "check_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const char *collective_name(uint32_t op)
{
    static const char *const names[] = {"BARRIER",
                                        "BCAST",
                                        "GATHER",
                                        "GATHERV",
                                        "SCATTER",
                                        "SCATTERV",
                                        "ALLGATHER",
                                        "ALLGATHERV",
                                        "ALLTOALL",
                                        "ALLTOALLV",
                                        "ALLTOALLW",
                                        "ALLREDUCE",
                                        "REDUCE",
                                        "REDUCE_SCATTER",
                                        "SCAN",
                                        "EXSCAN",
                                        "REDUCE_SCATTER_BLOCK",
                                        "CREATE_HANDLE",
                                        "DESTROY_HANDLE",
                                        "ALLOCATE",
                                        "DEALLOCATE",
                                        "CREATE_HANDLE_AND_ALLOCATE",
                                        "DESTROY_HANDLE_AND_DEALLOCATE"};
    return op < sizeof(names) / sizeof(names[0]) ? names[op] : "UNKNOWN";
}

/* Orders by a list of uint64 keys, then by location and position. */
static int compare_at(const check_at *a, const check_at *b)
{
    int r = weft__check_compare_u64(a->location, b->location);
    return r ? r : weft__check_compare_u64(a->position, b->position);
}

/* ---- messages -------------------------------------------------------------------- */

static int compare_channel(const check_message *a, const check_message *b)
{
    int r = weft__check_compare_u64(a->comm, b->comm);
    if (!r)
        r = weft__check_compare_u64(a->sender, b->sender);
    if (!r)
        r = weft__check_compare_u64(a->receiver, b->receiver);
    if (!r)
        r = weft__check_compare_u64(a->tag, b->tag);
    return r;
}

static int compare_messages(const void *pa, const void *pb)
{
    const check_message *a = pa, *b = pb;
    int r = compare_channel(a, b);
    if (!r)
        r = weft__check_compare_u64(a->order_time, b->order_time);
    return r ? r : compare_at(&a->at, &b->at);
}

static void describe_channel(const check_state *c, const check_message *m, char *buf, size_t size)
{
    char comm[300];
    snprintf(buf, size, "rank %" PRIu32 " -> rank %" PRIu32 ", tag %" PRIu32 ", communicator %s",
             m->sender, m->receiver, m->tag, weft__check_comm_name(c, m->comm, comm, sizeof(comm)));
}

static const char *location_label(const check_state *c, const check_at *at, char *buf, size_t size)
{
    const location_def *loc = &c->read.locations[at->location];
    const char *name = weft__trace_string(&c->read, loc->name_ref);
    snprintf(buf, size, "location '%s' (%" PRIu64 ") event %" PRIu64, name ? name : "?", loc->ref,
             at->position);
    return buf;
}

static void match_pair(check_state *c, const check_message *s, const check_message *r)
{
    char channel[400], where[300];
    c->matched_messages++;
    if (s->bytes != r->bytes) {
        describe_channel(c, s, channel, sizeof(channel));
        weft__check_problem(
            c, &r->at,
            "a message of %" PRIu64 " bytes (%s) is received as %" PRIu64 " bytes; its send is %s",
            s->bytes, channel, r->bytes, location_label(c, &s->at, where, sizeof(where)));
    }
    if (r->at.time < s->at.time) {
        describe_channel(c, s, channel, sizeof(channel));
        weft__check_problem(c, &r->at,
                            "a receive (%s) ends %" PRIu64
                            " ticks before its send began (%s), clock offsets applied",
                            channel, s->at.time - r->at.time,
                            location_label(c, &s->at, where, sizeof(where)));
    }
}

static void match_messages(check_state *c)
{
    check_message *sends = c->sends.items, *recvs = c->receives.items;
    size_t ns = c->sends.count, nr = c->receives.count;
    if (ns > 1)
        qsort(sends, ns, sizeof(*sends), compare_messages);
    if (nr > 1)
        qsort(recvs, nr, sizeof(*recvs), compare_messages);
    size_t i = 0, j = 0;
    char channel[400];
    while (i < ns || j < nr) {
        int r = i == ns ? 1 : j == nr ? -1 : compare_channel(&sends[i], &recvs[j]);
        if (r == 0) {
            match_pair(c, &sends[i++], &recvs[j++]);
        } else if (r < 0) {
            describe_channel(c, &sends[i], channel, sizeof(channel));
            weft__check_problem(c, &sends[i].at, "a send (%s, %" PRIu64 " bytes) is never received",
                                channel, sends[i].bytes);
            i++;
        } else {
            describe_channel(c, &recvs[j], channel, sizeof(channel));
            weft__check_problem(c, &recvs[j].at,
                                "a receive (%s, %" PRIu64 " bytes) has no matching send", channel,
                                recvs[j].bytes);
            j++;
        }
    }
}

/* ---- collectives ------------------------------------------------------------------- */

static int compare_collectives(const void *pa, const void *pb)
{
    const check_collective *a = pa, *b = pb;
    int r = weft__check_compare_u64(a->comm, b->comm);
    if (!r)
        r = weft__check_compare_u64(a->rank, b->rank);
    if (!r)
        r = weft__check_compare_u64(a->at.time, b->at.time);
    return r ? r : compare_at(&a->at, &b->at);
}

/* Compares the sequence of member RANK (items [from, to)) with the first
 * member's ([first, first_end)); reports the first difference. */
static const char *root_text(uint32_t root, char *buf, size_t size)
{
    if (root == OTF2_UNDEFINED_UINT32)
        snprintf(buf, size, "no root");
    else
        snprintf(buf, size, "root %" PRIu32, root);
    return buf;
}

static void compare_member(check_state *c, const check_collective *all, size_t first,
                           size_t first_end, size_t from, size_t to)
{
    char comm[300];
    size_t n0 = first_end - first, n = to - from;
    for (size_t k = 0; k < n0 && k < n; k++) {
        const check_collective *a = &all[first + k], *b = &all[from + k];
        if (a->op != b->op || a->root != b->root) {
            char root_a[32], root_b[32];
            weft__check_problem(c, &b->at,
                                "collective %zu on communicator %s is %s (%s) on rank %" PRIu32
                                " but %s (%s) on rank %" PRIu32,
                                k + 1, weft__check_comm_name(c, b->comm, comm, sizeof(comm)),
                                collective_name(b->op), root_text(b->root, root_b, sizeof(root_b)),
                                b->rank, collective_name(a->op),
                                root_text(a->root, root_a, sizeof(root_a)), a->rank);
            return;
        }
    }
    if (n0 != n) {
        const check_collective *last = n > 0 ? &all[to - 1] : &all[first_end - 1];
        weft__check_problem(c, &last->at,
                            "rank %" PRIu32 " takes part in %zu collectives on communicator %s, "
                            "rank %" PRIu32 " in %zu",
                            all[from].rank, n,
                            weft__check_comm_name(c, all[from].comm, comm, sizeof(comm)),
                            all[first].rank, n0);
    }
}

static void match_collectives(check_state *c)
{
    check_collective *all = c->collectives.items;
    size_t n = c->collectives.count;
    if (n > 1)
        qsort(all, n, sizeof(*all), compare_collectives);
    char comm[300];
    for (size_t start = 0; start < n;) {
        size_t end = start;
        while (end < n && all[end].comm == all[start].comm)
            end++;
        /* Members of this communicator, each a run of one rank's records. */
        size_t first_end = start, members = 0;
        while (first_end < end && all[first_end].rank == all[start].rank)
            first_end++;
        for (size_t from = start; from < end;) {
            size_t to = from;
            while (to < end && all[to].rank == all[from].rank)
                to++;
            members++;
            if (from != start)
                compare_member(c, all, start, first_end, from, to);
            from = to;
        }
        uint64_t size =
            weft__trace_comm_size(&c->read, weft__trace_find_comm(&c->read, all[start].comm));
        if (size > members)
            weft__check_problem(c, &all[start].at,
                                "only %zu of the %" PRIu64 " members of communicator %s call "
                                "collectives on it (rank %" PRIu32 " calls %zu)",
                                members, size,
                                weft__check_comm_name(c, all[start].comm, comm, sizeof(comm)),
                                all[start].rank, first_end - start);
        c->matched_collectives += first_end - start;
        start = end;
    }
}

/* ---- locks ---------------------------------------------------------------------------- */

static int compare_locks(const void *pa, const void *pb)
{
    const check_lock *a = pa, *b = pb;
    int r = weft__check_compare_u64(a->rank, b->rank);
    if (!r)
        r = weft__check_compare_u64(a->lock, b->lock);
    if (!r)
        r = weft__check_compare_u64(a->at.time, b->at.time);
    if (!r) /* at one instant, a release comes before the next acquisition */
        r = weft__check_compare_u64(a->acquire, b->acquire);
    return r ? r : compare_at(&a->at, &b->at);
}

/* The acquisitions of one lock not released yet: normally at most one; a
 * defective trace may show more, and each is reported once. */
enum { MAX_HOLDERS = 16 };

/* Scalasca's lock analysis waits at each acquisition until the lock's
 * earlier acquisitions were replayed (ThreadCountedLock): every order from
 * 1 to the highest must be in the trace, or it waits forever. The group
 * [start, end) is one lock's records. */
static void check_orders(check_state *c, const check_lock *all, size_t start, size_t end)
{
    uint64_t acquisitions = 0;
    const check_lock *highest = NULL;
    for (size_t i = start; i < end; i++) {
        if (!all[i].acquire)
            continue;
        acquisitions++;
        if (!highest || all[i].order > highest->order)
            highest = &all[i];
    }
    if (highest && highest->order != acquisitions)
        weft__check_problem(c, &highest->at,
                            "lock %" PRIu32 " has %" PRIu64 " acquisitions, but their orders go "
                            "up to %" PRIu32 ": Scalasca's lock analysis waits for every order "
                            "in turn and hangs on a missing one",
                            (uint32_t)highest->lock, acquisitions, highest->order);
}

static void match_locks(check_state *c)
{
    check_lock *all = c->locks.items;
    size_t n = c->locks.count;
    if (n > 1)
        qsort(all, n, sizeof(*all), compare_locks);
    char holder[300];
    const check_lock *held[MAX_HOLDERS];
    size_t holders = 0, group = 0;
    for (size_t i = 0; i < n; i++) {
        const check_lock *l = &all[i];
        if (i > 0 && (l->rank != all[i - 1].rank || l->lock != all[i - 1].lock)) {
            holders = 0;
            check_orders(c, all, group, i);
            group = i;
        }
        uint32_t id = (uint32_t)l->lock;
        if (l->acquire) {
            if (holders > 0)
                weft__check_problem(c, &l->at,
                                    "lock %" PRIu32 " is acquired while %s holds it (acquired "
                                    "there, order %" PRIu32 ")",
                                    id, location_label(c, &held[0]->at, holder, sizeof(holder)),
                                    held[0]->order);
            if (holders < MAX_HOLDERS)
                held[holders++] = l;
            continue;
        }
        size_t k = 0;
        while (k < holders && held[k]->at.location != l->at.location)
            k++;
        if (k < holders) {
            held[k] = held[--holders];
        } else if (holders == 0) {
            weft__check_problem(c, &l->at, "lock %" PRIu32 " is released but nobody holds it", id);
        } else {
            weft__check_problem(c, &l->at,
                                "lock %" PRIu32 " is released by a thread that does not hold it: "
                                "%s does",
                                id, location_label(c, &held[0]->at, holder, sizeof(holder)));
        }
    }
    if (n > 0)
        check_orders(c, all, group, n);
}

weft_status weft__check_match(check_state *c)
{
    match_messages(c);
    match_collectives(c);
    match_locks(c);
    weft__check_match_barriers(c);
    weft__check_rma_match(c);
    return WEFT_OK;
}
