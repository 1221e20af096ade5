/* SPDX-License-Identifier: BSD-3-Clause */
/* What weft check verifies of one-sided communication and I/O records.
 *
 * On each location, for every RMA window (an RmaWin definition):
 *   - it is used only between its RmaWinCreate and its RmaWinDestroy;
 *   - a Put, Get or Atomic targets a rank of the window's communicator and
 *     lies inside an access epoch: after a fence on the window
 *     (RmaCollectiveEnd), inside a group epoch (an RmaGroupSync of level
 *     PROCESS not yet closed by one of level PROCESS|MEMORY), or under a
 *     lock acquired on its target (or on all ranks) and not yet released;
 *   - every operation's matching id is new, completed exactly once
 *     (RmaOpComplete*) after it was issued, and before the window is
 *     destroyed and the location ends;
 *   - a lock is acquired only after it was requested, released only while
 *     held, and none is held when the window is destroyed;
 *   - RmaCollectiveBegin and RmaCollectiveEnd pair up.
 * Across locations: every member of a window's communicator records the
 * same number of fences (RmaCollectiveEnd) on it.
 * For I/O: every IoOperationComplete (and IoOperationIssued) matches an
 * IoOperationBegin of the same handle and matching id, each begun
 * operation completes once, and no operation uses a handle after its
 * IoDestroyHandle. */
#include "check_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define ALL_RANKS UINT32_MAX
#define SYNC_MEMORY 2u /* OTF2_RMA_SYNC_LEVEL_MEMORY */

typedef struct pending { /* an RMA operation or I/O operation not yet completed */
    uint64_t ref;        /* window or handle */
    uint64_t id;
    uint64_t position;
    bool issued; /* I/O: IoOperationIssued seen */
} pending;

typedef struct held_lock {
    uint64_t win;
    uint32_t remote;
    uint64_t id;
    uint64_t position;
    bool acquired;
} held_lock;

typedef struct win_state { /* a window on the current location */
    uint64_t win;
    uint64_t created_at;
    bool alive;
    bool fenced;           /* a fence opened an epoch */
    uint32_t group_epochs; /* open post/start epochs */
} win_state;

typedef struct fence_count { /* across locations */
    uint64_t win;
    uint32_t rank;
    uint64_t count;
} fence_count;

struct check_rma {
    check_vec wins;    /* win_state, this location */
    check_vec ops;     /* pending RMA operations, this location */
    check_vec locks;   /* held_lock, this location */
    check_vec io;      /* pending I/O operations, this location */
    check_vec dead_io; /* uint64_t handles destroyed on this location */
    check_vec fences;  /* fence_count, all locations */
    bool collective_open;
    uint64_t collective_position;
};

static struct check_rma *rma_of(check_state *c)
{
    if (!c->rma)
        c->rma = calloc(1, sizeof(*c->rma));
    return c->rma;
}

static weft_status push(check_vec *v, const void *item, size_t size)
{
    return weft__check_push(v, item, size) ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

static win_state *win_of(struct check_rma *r, uint64_t win)
{
    win_state *w = r->wins.items;
    for (size_t i = r->wins.count; i-- > 0;) {
        if (w[i].win == win)
            return &w[i];
    }
    return NULL;
}

/* The window's state on this location after a problem line when it is not
 * defined or not alive here; NULL then. */
static win_state *live_window(check_state *c, const check_at *at, uint64_t win, const char *what)
{
    if (!weft__trace_rma_win_defined(&c->read, win)) {
        weft__check_problem(c, at, "%s names undefined RMA window %" PRIu64, what, win);
        return NULL;
    }
    win_state *w = win_of(c->rma, win);
    if (!w || !w->alive) {
        weft__check_problem(c, at, "%s on RMA window %" PRIu64 " %s", what, win,
                            w ? "after its RmaWinDestroy" : "before its RmaWinCreate");
        return NULL;
    }
    return w;
}

static uint64_t comm_size_of_window(check_state *c, uint64_t win)
{
    uint64_t comm = weft__trace_rma_win_comm(&c->read, win);
    size_t index = weft__trace_find_comm(&c->read, comm);
    return index == NOT_FOUND ? 0 : weft__trace_comm_size(&c->read, index);
}

static bool lock_covers(struct check_rma *r, uint64_t win, uint32_t target)
{
    const held_lock *l = r->locks.items;
    for (size_t i = 0; i < r->locks.count; i++) {
        if (l[i].win == win && l[i].acquired && (l[i].remote == target || l[i].remote == ALL_RANKS))
            return true;
    }
    return false;
}

static weft_status on_create(check_state *c, const check_at *at, uint64_t win)
{
    win_state *w = win_of(c->rma, win);
    if (w && w->alive) {
        weft__check_problem(c, at,
                            "RMA window %" PRIu64 " created again (created at event %" PRIu64 ")",
                            win, w->created_at);
        return WEFT_OK;
    }
    win_state fresh = {.win = win, .created_at = at->position, .alive = true};
    if (w) {
        *w = fresh;
        return WEFT_OK;
    }
    return push(&c->rma->wins, &fresh, sizeof(fresh));
}

static void on_destroy(check_state *c, const check_at *at, uint64_t win)
{
    win_state *w = live_window(c, at, win, "RmaWinDestroy");
    if (!w)
        return;
    const pending *p = c->rma->ops.items;
    for (size_t i = 0; i < c->rma->ops.count; i++) {
        if (p[i].ref == win)
            weft__check_problem(c, at,
                                "RMA operation %" PRIu64 " (event %" PRIu64
                                ") is not completed when its window is destroyed",
                                p[i].id, p[i].position);
    }
    const held_lock *l = c->rma->locks.items;
    for (size_t i = 0; i < c->rma->locks.count; i++) {
        if (l[i].win == win)
            weft__check_problem(c, at,
                                "lock %" PRIu64 " (event %" PRIu64 ") on RMA window %" PRIu64
                                " is still held when it is destroyed",
                                l[i].id, l[i].position, win);
    }
    w->alive = false;
}

static weft_status on_operation(check_state *c, const check_at *at, const weft_trace_event *e)
{
    win_state *w = live_window(c, at, e->ref, "an RMA operation");
    if (!w)
        return WEFT_OK;
    uint64_t size = comm_size_of_window(c, e->ref);
    if (size && e->peer >= size)
        weft__check_problem(c, at,
                            "an RMA operation targets rank %" PRIu32
                            ", but the window's communicator has %" PRIu64 " ranks",
                            e->peer, size);
    if (!w->fenced && w->group_epochs == 0 && !lock_covers(c->rma, e->ref, e->peer))
        weft__check_problem(c, at,
                            "an RMA operation on window %" PRIu64 " to rank %" PRIu32
                            " outside any access epoch (no fence, group epoch or lock)",
                            e->ref, e->peer);
    const pending *p = c->rma->ops.items;
    for (size_t i = 0; i < c->rma->ops.count; i++) {
        if (p[i].id == e->request && p[i].ref == e->ref)
            weft__check_problem(c, at,
                                "RMA matching id %" PRIu64 " is reused while the operation of "
                                "event %" PRIu64 " is pending",
                                e->request, p[i].position);
    }
    pending op = {e->ref, e->request, at->position, false};
    return push(&c->rma->ops, &op, sizeof(op));
}

static bool take_pending(check_vec *v, uint64_t ref, uint64_t id, pending *out)
{
    pending *p = v->items;
    for (size_t i = 0; i < v->count; i++) {
        if (p[i].id == id && p[i].ref == ref) {
            if (out)
                *out = p[i];
            p[i] = p[--v->count];
            return true;
        }
    }
    return false;
}

static void on_complete(check_state *c, const check_at *at, const weft_trace_event *e)
{
    if (!take_pending(&c->rma->ops, e->ref, e->request, NULL))
        weft__check_problem(c, at,
                            "completion of RMA operation %" PRIu64 " on window %" PRIu64
                            ", which is not pending",
                            e->request, e->ref);
}

static weft_status on_collective_end(check_state *c, const check_at *at, const weft_trace_event *e)
{
    if (!c->rma->collective_open)
        weft__check_problem(c, at, "RMA collective end without its begin");
    c->rma->collective_open = false;
    win_state *w = live_window(c, at, e->ref, "an RMA collective");
    if (!w)
        return WEFT_OK;
    w->fenced = true;
    fence_count *f = c->rma->fences.items;
    for (size_t i = 0; i < c->rma->fences.count; i++) {
        if (f[i].win == e->ref && f[i].rank == c->read.current_rank) {
            f[i].count++;
            return WEFT_OK;
        }
    }
    fence_count fresh = {e->ref, c->read.current_rank, 1};
    return push(&c->rma->fences, &fresh, sizeof(fresh));
}

static void on_group_sync(check_state *c, const check_at *at, const weft_trace_event *e)
{
    win_state *w = live_window(c, at, e->ref, "an RMA group synchronisation");
    if (!w)
        return;
    if (!(e->op & SYNC_MEMORY)) {
        w->group_epochs++;
    } else if (w->group_epochs == 0) {
        weft__check_problem(c, at,
                            "an RMA group epoch on window %" PRIu64 " closes, but none "
                            "is open",
                            e->ref);
    } else {
        w->group_epochs--;
    }
}

static held_lock *find_lock(struct check_rma *r, uint64_t win, uint32_t remote, uint64_t id)
{
    held_lock *l = r->locks.items;
    for (size_t i = 0; i < r->locks.count; i++) {
        if (l[i].win == win && l[i].remote == remote && l[i].id == id)
            return &l[i];
    }
    return NULL;
}

static weft_status on_lock(check_state *c, const check_at *at, const weft_trace_event *e)
{
    if (!live_window(c, at, e->ref, "an RMA lock event"))
        return WEFT_OK;
    held_lock *l = find_lock(c->rma, e->ref, e->peer, e->request);
    switch (e->kind) {
    case WEFT_TRACE_RMA_REQUEST_LOCK: {
        if (l) {
            weft__check_problem(c, at, "lock %" PRIu64 " requested again (event %" PRIu64 ")",
                                e->request, l->position);
            return WEFT_OK;
        }
        held_lock fresh = {e->ref, e->peer, e->request, at->position, false};
        return push(&c->rma->locks, &fresh, sizeof(fresh));
    }
    case WEFT_TRACE_RMA_ACQUIRE_LOCK:
        if (!l) {
            held_lock fresh = {e->ref, e->peer, e->request, at->position, true};
            return push(&c->rma->locks, &fresh, sizeof(fresh)); /* acquired without request */
        }
        l->acquired = true;
        return WEFT_OK;
    default: /* release */
        if (!l) {
            weft__check_problem(
                c, at, "release of lock %" PRIu64 " on window %" PRIu64 ", which is not held",
                e->request, e->ref);
            return WEFT_OK;
        }
        *l = ((held_lock *)c->rma->locks.items)[--c->rma->locks.count];
        return WEFT_OK;
    }
}

/* ---- I/O ------------------------------------------------------------------------ */

static bool handle_dead(struct check_rma *r, uint64_t handle)
{
    const uint64_t *h = r->dead_io.items;
    for (size_t i = 0; i < r->dead_io.count; i++) {
        if (h[i] == handle)
            return true;
    }
    return false;
}

static weft_status on_io(check_state *c, const check_at *at, const weft_trace_event *e)
{
    struct check_rma *r = c->rma;
    if (e->kind == WEFT_TRACE_IO_CREATE_HANDLE) {
        uint64_t *h = r->dead_io.items;
        for (size_t i = 0; i < r->dead_io.count; i++) {
            if (h[i] == e->ref)
                h[i] = h[--r->dead_io.count];
        }
        return WEFT_OK;
    }
    if (handle_dead(r, e->ref)) {
        weft__check_problem(c, at, "I/O on handle %" PRIu64 " after its IoDestroyHandle", e->ref);
        return WEFT_OK;
    }
    switch (e->kind) {
    case WEFT_TRACE_IO_DESTROY_HANDLE: {
        const pending *p = r->io.items;
        for (size_t i = 0; i < r->io.count; i++) {
            if (p[i].ref == e->ref)
                weft__check_problem(c, at,
                                    "I/O operation %" PRIu64 " (event %" PRIu64
                                    ") is not completed when its handle is destroyed",
                                    p[i].id, p[i].position);
        }
        return push(&r->dead_io, &e->ref, sizeof(e->ref));
    }
    case WEFT_TRACE_IO_BEGIN: {
        pending op = {e->ref, e->request, at->position, false};
        return push(&r->io, &op, sizeof(op));
    }
    case WEFT_TRACE_IO_ISSUED: {
        pending *p = r->io.items;
        for (size_t i = 0; i < r->io.count; i++) {
            if (p[i].ref == e->ref && p[i].id == e->request) {
                if (p[i].issued)
                    weft__check_problem(c, at, "I/O operation %" PRIu64 " issued twice",
                                        e->request);
                p[i].issued = true;
                return WEFT_OK;
            }
        }
        weft__check_problem(c, at, "I/O operation %" PRIu64 " issued, but not begun", e->request);
        return WEFT_OK;
    }
    case WEFT_TRACE_IO_COMPLETE:
        if (!take_pending(&r->io, e->ref, e->request, NULL))
            weft__check_problem(c, at,
                                "completion of I/O operation %" PRIu64 " on handle %" PRIu64
                                ", which is not pending",
                                e->request, e->ref);
        return WEFT_OK;
    default:
        return WEFT_OK;
    }
}

/* ---- entry points ------------------------------------------------------------------- */

weft_status weft__check_rma_event(check_state *c, const check_at *at, const weft_trace_event *e)
{
    if (!rma_of(c))
        return WEFT_ERR_NO_MEMORY;
    switch (e->kind) {
    case WEFT_TRACE_RMA_WIN_CREATE:
        return on_create(c, at, e->ref);
    case WEFT_TRACE_RMA_WIN_DESTROY:
        on_destroy(c, at, e->ref);
        return WEFT_OK;
    case WEFT_TRACE_RMA_PUT:
    case WEFT_TRACE_RMA_GET:
    case WEFT_TRACE_RMA_ATOMIC:
        return on_operation(c, at, e);
    case WEFT_TRACE_RMA_OP_COMPLETE:
        on_complete(c, at, e);
        return WEFT_OK;
    case WEFT_TRACE_RMA_COLLECTIVE_BEGIN:
        if (c->rma->collective_open)
            weft__check_problem(c, at,
                                "RMA collective begin inside the one begun at event %" PRIu64,
                                c->rma->collective_position);
        c->rma->collective_open = true;
        c->rma->collective_position = at->position;
        return WEFT_OK;
    case WEFT_TRACE_RMA_COLLECTIVE_END:
        return on_collective_end(c, at, e);
    case WEFT_TRACE_RMA_GROUP_SYNC:
        on_group_sync(c, at, e);
        return WEFT_OK;
    case WEFT_TRACE_RMA_REQUEST_LOCK:
    case WEFT_TRACE_RMA_ACQUIRE_LOCK:
    case WEFT_TRACE_RMA_RELEASE_LOCK:
        return on_lock(c, at, e);
    case WEFT_TRACE_RMA_SYNC:
        live_window(c, at, e->ref, "an RMA sync");
        return WEFT_OK;
    default:
        return on_io(c, at, e);
    }
}

void weft__check_rma_begin_location(check_state *c)
{
    if (!c->rma)
        return;
    c->rma->wins.count = c->rma->ops.count = c->rma->locks.count = 0;
    c->rma->io.count = c->rma->dead_io.count = 0;
    c->rma->collective_open = false;
}

void weft__check_rma_end_location(check_state *c, const check_at *at)
{
    if (!c->rma)
        return;
    const pending *p = c->rma->ops.items;
    for (size_t i = 0; i < c->rma->ops.count; i++)
        weft__check_problem(c, at,
                            "RMA operation %" PRIu64 " (event %" PRIu64 ") is never completed",
                            p[i].id, p[i].position);
    const held_lock *l = c->rma->locks.items;
    for (size_t i = 0; i < c->rma->locks.count; i++)
        weft__check_problem(c, at, "lock %" PRIu64 " (event %" PRIu64 ") is never released",
                            l[i].id, l[i].position);
    p = c->rma->io.items;
    for (size_t i = 0; i < c->rma->io.count; i++)
        weft__check_problem(c, at,
                            "I/O operation %" PRIu64 " (event %" PRIu64 ") is never completed",
                            p[i].id, p[i].position);
    if (c->rma->collective_open)
        weft__check_problem(c, at, "the RMA collective begun at event %" PRIu64 " never ends",
                            c->rma->collective_position);
}

/* Every member of a window's communicator fenced it as often as the others.
 * Not compared: the count of a rank weft recover kept only what reached the
 * disk of (its last fences may be lost), and, when any rank lost its end,
 * whether every rank fenced the window at all. */
void weft__check_rma_match(check_state *c)
{
    if (!c->rma)
        return;
    const fence_count *f = c->rma->fences.items;
    size_t n = c->rma->fences.count;
    bool *lost = calloc(n ? n : 1, sizeof(*lost)); /* by fence_count */
    bool any_lost = false;
    for (size_t l = 0; l < c->read.location_count; l++) {
        const location_def *loc = &c->read.locations[l];
        if (!loc->recovered)
            continue;
        any_lost = true;
        for (size_t i = 0; lost && i < n; i++)
            lost[i] = lost[i] || f[i].rank == loc->rank;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t size = comm_size_of_window(c, f[i].win);
        uint64_t members = 0;
        for (size_t j = 0; j < n; j++) {
            if (f[j].win != f[i].win)
                continue;
            members++;
            if (j > i && f[j].count != f[i].count &&
                !(any_lost && (!lost || lost[i] || lost[j])))
                weft__check_problem(c, NULL,
                                    "RMA window %" PRIu64 ": rank %" PRIu32 " recorded %" PRIu64
                                    " fences, rank %" PRIu32 " %" PRIu64,
                                    f[i].win, f[i].rank, f[i].count, f[j].rank, f[j].count);
        }
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = f[j].win != f[i].win;
        if (first && size && members != size && !any_lost)
            weft__check_problem(c, NULL,
                                "RMA window %" PRIu64 ": %" PRIu64 " of its %" PRIu64
                                " ranks recorded fences on it",
                                f[i].win, members, size);
    }
    free(lost);
}

void weft__check_rma_free(check_state *c)
{
    if (!c->rma)
        return;
    weft__check_vec_free(&c->rma->wins);
    weft__check_vec_free(&c->rma->ops);
    weft__check_vec_free(&c->rma->locks);
    weft__check_vec_free(&c->rma->io);
    weft__check_vec_free(&c->rma->dead_io);
    weft__check_vec_free(&c->rma->fences);
    free(c->rma);
    c->rma = NULL;
}
