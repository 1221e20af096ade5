/* SPDX-License-Identifier: BSD-3-Clause */
/* Messages and collectives whose partner's events did not reach the disk.
 *
 * The processes of an MPI job end at different moments of their event
 * files: a rank killed with SIGKILL keeps what OTF2 had written, the others
 * what they wrote when mpirun ended them. A send whose receive is lost (or
 * the reverse), or a collective that some members' files end before, would
 * make the trace unsound, so a first pass over every location pairs them
 * as `weft check` does, and the unpaired ones are left out:
 *
 *   - messages per channel (communicator, sender's and receiver's world
 *     rank, tag), the k-th send with the k-th receive, sends in time order,
 *     receives in the order they were posted (a non-blocking receive when
 *     its request was made): the sends and receives past the shorter list
 *     go, with the completion of a non-blocking send that goes;
 *   - collectives per communicator: every member keeps as many of its
 *     collective ends (in time order) as the member with the fewest has;
 *     recover_write.c drops a begin whose end goes.
 *
 * Only ends are lost this way, never the middle of a file, so what is kept
 * pairs exactly as it did in the run. */
#include "recover.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

typedef struct message {
    uint32_t comm, from, to, tag;
    uint8_t is_send;
    uint64_t order; /* global time it is ordered by */
    uint32_t location;
    uint64_t position;
    uint64_t request; /* ISEND: its completion follows with this id */
} message;

typedef struct collective {
    uint32_t comm, member;
    uint64_t time;
    uint32_t location;
    uint64_t position;
} collective;

typedef struct completion {
    uint32_t location;
    uint64_t request, position;
} completion;

typedef struct posted {
    uint64_t request, time;
} posted;

struct recover_drops {
    uint64_t **positions; /* per location, sorted */
    size_t *counts, *capacities;
};

typedef struct matching {
    message *messages;
    size_t message_count, message_capacity;
    collective *collectives;
    size_t collective_count, collective_capacity;
    completion *completions;
    size_t completion_count, completion_capacity;
    posted *posts; /* the current location's receive requests not yet completed */
    size_t post_count, post_capacity;
    uint32_t *members;
    uint32_t member_capacity;
} matching;

/* The world rank of RANK in global communicator COMM (or OWN for none). */
static uint32_t world_rank(recover_state *st, matching *m, uint32_t comm, uint32_t rank,
                           uint32_t own)
{
    uint32_t n =
        weft_registry_comm_members(st->reg, (weft_comm){comm}, m->members, m->member_capacity);
    if (n > m->member_capacity) {
        uint32_t *grown = realloc(m->members, n * sizeof(*grown));
        if (!grown)
            return UINT32_MAX;
        m->members = grown;
        m->member_capacity = n;
        n = weft_registry_comm_members(st->reg, (weft_comm){comm}, m->members, n);
    }
    if (n == 0)
        return rank == 0 ? own : UINT32_MAX; /* MPI_COMM_SELF */
    return rank < n ? m->members[rank] : UINT32_MAX;
}

static weft_status note(recover_state *st, size_t index, uint64_t position, const weft_event *e,
                        void *context)
{
    matching *m = context;
    if (recover_cut(st, index, position))
        return WEFT_OK; /* left out: as if it never reached the disk */
    const recover_location *loc = &st->locations[index];
    uint32_t own = st->parts[loc->part].rank;
    uint64_t time = recover_global_time(st, loc->part, e->time);
    switch (e->kind) {
    case WEFT_EVENT_MPI_IRECV_REQUEST:
        if (!weft__cli_grow(&m->posts, &m->post_capacity, m->post_count + 1, sizeof(posted)))
            return WEFT_ERR_NO_MEMORY;
        m->posts[m->post_count++] = (posted){e->request, time};
        return WEFT_OK;
    case WEFT_EVENT_MPI_ISEND_COMPLETE:
        if (!weft__cli_grow(&m->completions, &m->completion_capacity, m->completion_count + 1,
                            sizeof(completion)))
            return WEFT_ERR_NO_MEMORY;
        m->completions[m->completion_count++] = (completion){(uint32_t)index, e->request, position};
        return WEFT_OK;
    case WEFT_EVENT_MPI_SEND:
    case WEFT_EVENT_MPI_ISEND:
    case WEFT_EVENT_MPI_RECV:
    case WEFT_EVENT_MPI_IRECV: {
        uint32_t comm = recover_map_comm(st, loc->part, e->ref);
        bool send = e->kind == WEFT_EVENT_MPI_SEND || e->kind == WEFT_EVENT_MPI_ISEND;
        uint32_t peer = world_rank(st, m, comm, e->a, own);
        uint64_t order = time;
        if (e->kind == WEFT_EVENT_MPI_IRECV) {
            for (size_t i = m->post_count; i > 0; i--) {
                if (m->posts[i - 1].request == e->request) {
                    order = m->posts[i - 1].time;
                    m->posts[i - 1] = m->posts[--m->post_count];
                    break;
                }
            }
        }
        if (!weft__cli_grow(&m->messages, &m->message_capacity, m->message_count + 1,
                            sizeof(message)))
            return WEFT_ERR_NO_MEMORY;
        m->messages[m->message_count++] = (message){.comm = comm,
                                                    .from = send ? own : peer,
                                                    .to = send ? peer : own,
                                                    .tag = e->b,
                                                    .is_send = send,
                                                    .order = order,
                                                    .location = (uint32_t)index,
                                                    .position = position,
                                                    .request = e->request};
        return WEFT_OK;
    }
    case WEFT_EVENT_MPI_COLLECTIVE_END:
        if (!weft__cli_grow(&m->collectives, &m->collective_capacity, m->collective_count + 1,
                            sizeof(collective)))
            return WEFT_ERR_NO_MEMORY;
        m->collectives[m->collective_count++] = (collective){
            recover_map_comm(st, loc->part, e->ref), own, time, (uint32_t)index, position};
        return WEFT_OK;
    default:
        return WEFT_OK;
    }
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

static int by_channel(const void *pa, const void *pb)
{
    const message *a = pa, *b = pb;
    int c = cmp_u64(a->comm, b->comm);
    c = c ? c : cmp_u64(a->from, b->from);
    c = c ? c : cmp_u64(a->to, b->to);
    c = c ? c : cmp_u64(a->tag, b->tag);
    c = c ? c : cmp_u64(a->is_send, b->is_send);
    c = c ? c : cmp_u64(a->order, b->order);
    c = c ? c : cmp_u64(a->location, b->location);
    return c ? c : cmp_u64(a->position, b->position);
}

static int by_member(const void *pa, const void *pb)
{
    const collective *a = pa, *b = pb;
    int c = cmp_u64(a->comm, b->comm);
    c = c ? c : cmp_u64(a->member, b->member);
    c = c ? c : cmp_u64(a->time, b->time);
    c = c ? c : cmp_u64(a->location, b->location);
    return c ? c : cmp_u64(a->position, b->position);
}

static bool drop(recover_state *st, uint32_t location, uint64_t position)
{
    struct recover_drops *d = st->drops;
    if (!weft__cli_grow(&d->positions[location], &d->capacities[location], d->counts[location] + 1,
                        sizeof(uint64_t)))
        return false;
    d->positions[location][d->counts[location]++] = position;
    return true;
}

/* Drops the completion of the non-blocking send REQUEST on LOCATION. */
static bool drop_completion(recover_state *st, matching *m, uint32_t location, uint64_t request)
{
    for (size_t i = 0; i < m->completion_count; i++) {
        if (m->completions[i].location == location && m->completions[i].request == request)
            return drop(st, location, m->completions[i].position);
    }
    return true;
}

static bool pair_messages(recover_state *st, matching *m)
{
    qsort(m->messages, m->message_count, sizeof(message), by_channel);
    for (size_t i = 0; i < m->message_count;) {
        size_t end = i, receives = 0, sends = 0;
        while (end < m->message_count && m->messages[end].comm == m->messages[i].comm &&
               m->messages[end].from == m->messages[i].from &&
               m->messages[end].to == m->messages[i].to &&
               m->messages[end].tag == m->messages[i].tag) {
            if (m->messages[end].is_send)
                sends++;
            else
                receives++;
            end++;
        }
        /* Receives sort first (is_send 0), then sends, each in order. */
        size_t keep = sends < receives ? sends : receives;
        for (size_t k = i; k < end; k++) {
            const message *msg = &m->messages[k];
            size_t nth = msg->is_send ? k - i - receives : k - i;
            if (nth < keep)
                continue;
            if (!drop(st, msg->location, msg->position))
                return false;
            if (msg->is_send && msg->request &&
                !drop_completion(st, m, msg->location, msg->request))
                return false;
        }
        i = end;
    }
    return true;
}

static bool pair_collectives(recover_state *st, matching *m)
{
    qsort(m->collectives, m->collective_count, sizeof(collective), by_member);
    for (size_t i = 0; i < m->collective_count;) {
        uint32_t comm = m->collectives[i].comm;
        size_t end = i;
        while (end < m->collective_count && m->collectives[end].comm == comm)
            end++;
        /* The fewest any member of the communicator has (0 for a member
         * that has none). */
        uint32_t members = weft_registry_comm_members(st->reg, (weft_comm){comm}, NULL, 0);
        size_t fewest = SIZE_MAX, seen = 0;
        for (size_t k = i; k < end;) {
            size_t run = k;
            while (run < end && m->collectives[run].member == m->collectives[k].member)
                run++;
            fewest = run - k < fewest ? run - k : fewest;
            seen++;
            k = run;
        }
        if (members > 1 && seen < members)
            fewest = 0;
        for (size_t k = i; k < end;) {
            size_t run = k;
            while (run < end && m->collectives[run].member == m->collectives[k].member)
                run++;
            for (size_t j = k + fewest; j < run; j++) {
                if (!drop(st, m->collectives[j].location, m->collectives[j].position))
                    return false;
            }
            k = run;
        }
        i = end;
    }
    return true;
}

static int by_value(const void *a, const void *b)
{
    return cmp_u64(*(const uint64_t *)a, *(const uint64_t *)b);
}

weft_status recover_match(recover_state *st)
{
    st->drops = calloc(1, sizeof(*st->drops));
    if (!st->drops)
        return WEFT_ERR_NO_MEMORY;
    size_t n = st->location_count ? st->location_count : 1;
    st->drops->positions = calloc(n, sizeof(uint64_t *));
    st->drops->counts = calloc(n, sizeof(size_t));
    st->drops->capacities = calloc(n, sizeof(size_t));
    if (!st->drops->positions || !st->drops->counts || !st->drops->capacities)
        return WEFT_ERR_NO_MEMORY;
    matching m = {0};
    weft_status status = WEFT_OK;
    for (size_t l = 0; l < st->location_count && status == WEFT_OK; l++) {
        m.post_count = 0;
        status = recover_read_location(st, l, note, &m);
    }
    if (status == WEFT_OK && (!pair_messages(st, &m) || !pair_collectives(st, &m)))
        status = WEFT_ERR_NO_MEMORY;
    for (size_t l = 0; l < st->location_count; l++)
        qsort(st->drops->positions[l], st->drops->counts[l], sizeof(uint64_t), by_value);
    free(m.messages);
    free(m.collectives);
    free(m.completions);
    free(m.posts);
    free(m.members);
    return status;
}

bool recover_dropped(const recover_state *st, size_t index, uint64_t position)
{
    if (!st->drops)
        return false;
    const uint64_t *p = st->drops->positions[index];
    size_t lo = 0, hi = st->drops->counts[index];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p[mid] < position)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < st->drops->counts[index] && p[lo] == position;
}

void recover_match_free(recover_state *st)
{
    if (!st->drops)
        return;
    for (size_t l = 0; l < st->location_count; l++)
        free(st->drops->positions[l]);
    free(st->drops->positions);
    free(st->drops->counts);
    free(st->drops->capacities);
    free(st->drops);
    st->drops = NULL;
}
