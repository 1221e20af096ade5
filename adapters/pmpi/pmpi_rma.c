/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided communication as OTF2 RMA records; see pmpi_hooks.h.
 *
 * A window made by MPI_Win_create/allocate/allocate_shared/create_dynamic
 * is defined (an RMA_WIN object on its communicator, keyed like a
 * communicator made from it: every member computes the same key, so the
 * ranks' definitions merge) and records RmaWinCreate; MPI_Win_free records
 * RmaWinDestroy. Put, Get and the accumulates record RmaPut, RmaGet or
 * RmaAtomic with the target rank and bytes when they are called, and each
 * such operation is completed (RmaOpCompleteBlocking with its matching id)
 * by the call that ends its epoch or flushes it: a fence, Win_complete,
 * Win_unlock(_all) or a flush for its target. Synchronisation:
 *   fence              RmaCollectiveBegin ... RmaCollectiveEnd (BARRIER)
 *   post, start        RmaGroupSync (process) with the group as a communicator
 *   complete, wait/test RmaGroupSync (process and memory) with the same group
 *   lock, lock_all     RmaRequestLock before the call, RmaAcquireLock after
 *   unlock(_all)       RmaReleaseLock (the remote of lock_all and
 *                      unlock_all is WEFT_RMA_ALL_RANKS)
 *   Win_sync           RmaSync (memory)
 *
 * Windows are few: an array under a mutex, searched by handle. A window
 * weft did not see being made records nothing. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "pmpi_hooks.h"
#include "weft/log.h"

typedef struct pending_op {
    uint64_t id;
    uint32_t target;
} pending_op;

typedef struct window {
    MPI_Win win;
    weft_object object;
    weft_comm post_group, start_group; /* of the open exposure / access epoch */
    pending_op *pending;               /* issued, not yet completed */
    size_t pending_count, pending_capacity;
    /* lock id of the lock held on each target (index: rank; [size]: all) */
    uint64_t *lock_ids;
    uint32_t size; /* ranks in the window's communicator */
} window;

static pthread_mutex_t windows_mutex = PTHREAD_MUTEX_INITIALIZER;
static window *windows; /* windows_mutex */
static size_t window_count, window_capacity;

/* Windows made per communicator key, for the keys of new windows. */
typedef struct creations {
    uint64_t comm_key;
    uint64_t count;
} creations;
static creations *made; /* windows_mutex */
static size_t made_count;

static atomic_uint_fast64_t next_id = 1; /* matching ids and lock ids */

static void report_once(const char *what)
{
    static atomic_bool reported;
    if (!atomic_exchange_explicit(&reported, true, memory_order_relaxed))
        weft_log_error("%s; some one-sided calls are not recorded as RMA", what);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

/* windows_mutex held. */
static window *find_locked(MPI_Win win)
{
    for (size_t i = 0; i < window_count; i++) {
        if (windows[i].win == win)
            return &windows[i];
    }
    return NULL;
}

/* The key of the next window made over comm: the same on every member,
 * which make their windows over it in the same order. windows_mutex held. */
static bool next_key_locked(weft_comm comm, uint64_t *key)
{
    weft_comm_def def;
    if (weft_registry_comm_get(weft_defs_global(), comm, &def) != WEFT_OK)
        return false;
    size_t i = 0;
    while (i < made_count && made[i].comm_key != def.key)
        i++;
    if (i == made_count) {
        creations *grown = realloc(made, (made_count + 1) * sizeof(*grown));
        if (!grown)
            return false;
        made = grown;
        made[made_count++] = (creations){def.key, 0};
    }
    *key = mix(mix(def.key ^ UINT64_C(0x77696e646f77)) + made[i].count++); /* "window" */
    return true;
}

void weft__pmpi_win_created(int ret, MPI_Comm comm, const MPI_Win *win)
{
    if (ret != MPI_SUCCESS || *win == MPI_WIN_NULL)
        return;
    weft_comm c = weft__pmpi_comm_of(comm);
    int size = 0;
    if (c.id == WEFT_INVALID_ID || PMPI_Comm_size(comm, &size) != MPI_SUCCESS || size <= 0) {
        report_once("cannot define an MPI window");
        return;
    }
    pthread_mutex_lock(&windows_mutex);
    weft_object_desc desc = {
        .kind = WEFT_OBJECT_RMA_WIN, .name = "MPI Window", .file = WEFT_OBJECT_INVALID, .comm = c};
    weft_object object = WEFT_OBJECT_INVALID;
    uint64_t *lock_ids = calloc((size_t)size + 1, sizeof(*lock_ids));
    bool ok = lock_ids && next_key_locked(c, &desc.key) &&
              weft_registry_object(weft_defs_global(), &desc, &object) == WEFT_OK;
    if (ok && window_count == window_capacity) {
        size_t capacity = window_capacity ? 2 * window_capacity : 8;
        window *grown = realloc(windows, capacity * sizeof(*grown));
        ok = grown != NULL;
        if (ok) {
            windows = grown;
            window_capacity = capacity;
        }
    }
    if (ok) {
        window *w = find_locked(*win); /* a stale entry of a reused handle */
        if (w) {
            free(w->pending);
            free(w->lock_ids);
        } else {
            w = &windows[window_count++];
        }
        *w = (window){.win = *win,
                      .object = object,
                      .post_group = WEFT_COMM_INVALID,
                      .start_group = WEFT_COMM_INVALID,
                      .lock_ids = lock_ids,
                      .size = (uint32_t)size};
    } else {
        free(lock_ids);
    }
    pthread_mutex_unlock(&windows_mutex);
    if (!ok) {
        report_once("cannot define an MPI window (out of memory)");
        return;
    }
    weft_rma_win_create(object);
}

weft_object weft__pmpi_win_free_begin(const MPI_Win *win)
{
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(*win);
    weft_object object = WEFT_OBJECT_INVALID;
    if (w) {
        object = w->object;
        free(w->pending);
        free(w->lock_ids);
        *w = windows[--window_count];
    }
    pthread_mutex_unlock(&windows_mutex);
    return object;
}

void weft__pmpi_win_free_end(int ret, weft_object object)
{
    if (ret == MPI_SUCCESS && object.id != WEFT_INVALID_ID)
        weft_rma_win_destroy(object);
}

/* Bytes of count elements of type; 0 for an invalid type (MPI reports it). */
static uint64_t bytes_of(int count, MPI_Datatype type)
{
    return weft__pmpi_type_bytes(count, type);
}

void weft__pmpi_rma_transfer(weft_pmpi_rma_op op, MPI_Win win, int target, int count,
                             MPI_Datatype type, int result_count, MPI_Datatype result_type)
{
    if (target == MPI_PROC_NULL || target < 0)
        return;
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(win);
    weft_object object = w ? w->object : WEFT_OBJECT_INVALID;
    uint64_t id = 0;
    if (w && (uint32_t)target < w->size) {
        if (w->pending_count == w->pending_capacity) {
            size_t capacity = w->pending_capacity ? 2 * w->pending_capacity : 16;
            pending_op *grown = realloc(w->pending, capacity * sizeof(*grown));
            if (grown) {
                w->pending = grown;
                w->pending_capacity = capacity;
            }
        }
        if (w->pending_count < w->pending_capacity) {
            id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
            w->pending[w->pending_count++] = (pending_op){id, (uint32_t)target};
        }
    }
    pthread_mutex_unlock(&windows_mutex);
    if (id == 0) {
        if (w)
            report_once("out of memory for pending one-sided operations");
        return;
    }
    uint64_t sent = bytes_of(count, type), received = bytes_of(result_count, result_type);
    switch (op) {
    case WEFT_PMPI_RMA_PUT:
        weft_rma_put(object, (uint32_t)target, sent, id);
        break;
    case WEFT_PMPI_RMA_GET:
        weft_rma_get(object, (uint32_t)target, sent, id);
        break;
    case WEFT_PMPI_RMA_ACCUMULATE:
        weft_rma_atomic(object, (uint32_t)target, WEFT_RMA_ATOMIC_ACCUMULATE, sent, 0, id);
        break;
    case WEFT_PMPI_RMA_COMPARE_AND_SWAP:
        weft_rma_atomic(object, (uint32_t)target, WEFT_RMA_ATOMIC_COMPARE_AND_SWAP, sent, received,
                        id);
        break;
    default: /* Get_accumulate, Fetch_and_op */
        weft_rma_atomic(object, (uint32_t)target, WEFT_RMA_ATOMIC_FETCH_AND_ACCUMULATE, sent,
                        received, id);
        break;
    }
}

/* Completes the pending operations of win on target (all: every target).
 * Records after the lock is released: the ids are copied out first. */
static weft_object complete_ops(MPI_Win win, uint32_t target, bool all)
{
    enum { BATCH = 64 };
    uint64_t ids[BATCH];
    weft_object object = WEFT_OBJECT_INVALID;
    for (;;) {
        size_t n = 0;
        pthread_mutex_lock(&windows_mutex);
        window *w = find_locked(win);
        if (w) {
            object = w->object;
            size_t kept = 0;
            for (size_t i = 0; i < w->pending_count; i++) {
                if (n < BATCH && (all || w->pending[i].target == target))
                    ids[n++] = w->pending[i].id;
                else
                    w->pending[kept++] = w->pending[i];
            }
            w->pending_count = kept;
        }
        pthread_mutex_unlock(&windows_mutex);
        for (size_t i = 0; i < n; i++)
            weft_rma_op_complete_blocking(object, ids[i]);
        if (n < BATCH)
            return object;
    }
}

static weft_object object_of(MPI_Win win)
{
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(win);
    weft_object object = w ? w->object : WEFT_OBJECT_INVALID;
    pthread_mutex_unlock(&windows_mutex);
    return object;
}

void weft__pmpi_win_fence_begin(void)
{
    weft_rma_collective_begin();
}

void weft__pmpi_win_fence_end(int ret, MPI_Win win)
{
    weft_object object = ret == MPI_SUCCESS ? complete_ops(win, 0, true) : object_of(win);
    /* Begin was recorded: an unknown window still closes the pair. */
    weft_rma_collective_end(object, WEFT_COLLECTIVE_BARRIER,
                            WEFT_RMA_SYNC_PROCESS | WEFT_RMA_SYNC_MEMORY, WEFT_NO_ROOT, 0, 0);
}

void weft__pmpi_win_group_open(int ret, MPI_Win win, MPI_Group group, bool exposure)
{
    if (ret != MPI_SUCCESS)
        return;
    weft_comm members = weft__pmpi_comm_of_group(group);
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(win);
    weft_object object = w ? w->object : WEFT_OBJECT_INVALID;
    if (w) {
        if (exposure)
            w->post_group = members;
        else
            w->start_group = members;
    }
    pthread_mutex_unlock(&windows_mutex);
    if (object.id != WEFT_INVALID_ID && members.id != WEFT_INVALID_ID)
        weft_rma_group_sync(object, WEFT_RMA_SYNC_PROCESS, members);
}

void weft__pmpi_win_group_close(int ret, MPI_Win win, bool exposure, int done)
{
    if (ret != MPI_SUCCESS || !done)
        return;
    weft_object object = exposure ? object_of(win) : complete_ops(win, 0, true);
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(win);
    weft_comm members = WEFT_COMM_INVALID;
    if (w) {
        members = exposure ? w->post_group : w->start_group;
        if (exposure)
            w->post_group = WEFT_COMM_INVALID;
        else
            w->start_group = WEFT_COMM_INVALID;
    }
    pthread_mutex_unlock(&windows_mutex);
    if (object.id != WEFT_INVALID_ID && members.id != WEFT_INVALID_ID)
        weft_rma_group_sync(object, WEFT_RMA_SYNC_PROCESS | WEFT_RMA_SYNC_MEMORY, members);
}

/* The remote of a lock event and its slot in lock_ids. */
static uint32_t lock_slot(const window *w, int rank, bool all)
{
    return all ? w->size : (uint32_t)rank;
}

uint64_t weft__pmpi_win_lock_begin(MPI_Win win, int rank, bool all, int lock_type)
{
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(win);
    weft_object object = WEFT_OBJECT_INVALID;
    uint64_t id = 0;
    if (w && (all || (rank >= 0 && (uint32_t)rank < w->size))) {
        object = w->object;
        id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&windows_mutex);
    if (id)
        weft_rma_request_lock(object, all ? WEFT_RMA_ALL_RANKS : (uint32_t)rank, id,
                              lock_type == MPI_LOCK_SHARED ? WEFT_RMA_LOCK_SHARED
                                                           : WEFT_RMA_LOCK_EXCLUSIVE);
    return id;
}

void weft__pmpi_win_lock_end(int ret, MPI_Win win, int rank, bool all, int lock_type,
                             uint64_t lock_id)
{
    if (lock_id == 0)
        return;
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(win);
    weft_object object = w ? w->object : WEFT_OBJECT_INVALID;
    if (w && ret == MPI_SUCCESS)
        w->lock_ids[lock_slot(w, rank, all)] = lock_id;
    pthread_mutex_unlock(&windows_mutex);
    if (object.id == WEFT_INVALID_ID)
        return;
    uint32_t remote = all ? WEFT_RMA_ALL_RANKS : (uint32_t)rank;
    /* A failed lock is released at once: the request stays paired. */
    if (ret == MPI_SUCCESS)
        weft_rma_acquire_lock(object, remote, lock_id,
                              lock_type == MPI_LOCK_SHARED ? WEFT_RMA_LOCK_SHARED
                                                           : WEFT_RMA_LOCK_EXCLUSIVE);
    else
        weft_rma_release_lock(object, remote, lock_id);
}

void weft__pmpi_win_unlock(int ret, MPI_Win win, int rank, bool all)
{
    if (ret != MPI_SUCCESS || (!all && rank < 0))
        return;
    weft_object object = complete_ops(win, (uint32_t)rank, all);
    pthread_mutex_lock(&windows_mutex);
    window *w = find_locked(win);
    uint64_t lock_id = 0;
    if (w && (all || (uint32_t)rank < w->size)) {
        uint32_t slot = lock_slot(w, rank, all);
        lock_id = w->lock_ids[slot];
        w->lock_ids[slot] = 0;
    }
    pthread_mutex_unlock(&windows_mutex);
    if (lock_id)
        weft_rma_release_lock(object, all ? WEFT_RMA_ALL_RANKS : (uint32_t)rank, lock_id);
}

void weft__pmpi_win_flush(int ret, MPI_Win win, int rank, bool all)
{
    if (ret == MPI_SUCCESS && (all || rank >= 0))
        complete_ops(win, (uint32_t)rank, all);
}

void weft__pmpi_win_sync(int ret, MPI_Win win)
{
    weft_object object = object_of(win);
    if (ret == MPI_SUCCESS && object.id != WEFT_INVALID_ID)
        weft_rma_sync(object, WEFT_RMA_ALL_RANKS, WEFT_RMA_SYNC_TYPE_MEMORY);
}
