/* SPDX-License-Identifier: BSD-3-Clause */
/* Mutual exclusion through OMPT: OpenMP locks and nest locks (with the
 * POMP2 adapter's wrapper regions "omp_set_lock" ... and lock events),
 * critical (Enter critical, Acquire, Enter critical sblock, Leave sblock,
 * Release, Leave critical), ordered, atomic; and flush and cancel.
 *
 * The runtime reports acquire (waiting starts), acquired and released, each
 * with the mutex's wait id. A release may come without a code address
 * (libomp 14 on worker threads): the scope opened at acquire says which
 * regions to leave. */
#include "ompt_internal.h"
#include "weft/openmp_control.h"
#include "weft/recorder.h"

static ompt_mutex_scope *push_mutex(ompt_thread *t)
{
    if (t->mutex_depth >= OMPT_MAX_MUTEX)
        return NULL;
    ompt_mutex_scope *m = &t->mutex[t->mutex_depth++];
    *m = (ompt_mutex_scope){.outer = WEFT_REGION_INVALID,
                            .block = WEFT_REGION_INVALID,
                            .block_pending = WEFT_REGION_INVALID,
                            .lock_id = UINT32_MAX};
    return m;
}

/* The innermost scope of this mutex, or NULL. */
static ompt_mutex_scope *find_mutex(ompt_thread *t, ompt_mutex_t kind, ompt_wait_id_t wait_id)
{
    for (uint32_t i = t->mutex_depth; i > 0; i--) {
        ompt_mutex_scope *m = &t->mutex[i - 1];
        if (m->wait_id == wait_id && m->kind == kind)
            return m;
    }
    return NULL;
}

static void drop_mutex(ompt_thread *t, ompt_mutex_scope *m)
{
    uint32_t i = (uint32_t)(m - t->mutex);
    for (; i + 1 < t->mutex_depth; i++)
        t->mutex[i] = t->mutex[i + 1];
    t->mutex_depth--;
}

static void enter(weft_region r)
{
    if (r.id != WEFT_INVALID_ID)
        weft_openmp_enter(r);
}

static void leave(weft_region r)
{
    if (r.id != WEFT_INVALID_ID)
        weft_openmp_leave(r);
}

static void call_region(ompt_lock_routine routine)
{
    weft_region r = weft__ompt_lock_region(routine);
    enter(r);
    leave(r);
}

static uint32_t lock_of(ompt_wait_id_t wait_id)
{
    return weft_lock_id((const void *)(uintptr_t)wait_id);
}

/* The runtime reports a release after it let the lock go, when another
 * thread may have taken it already: the order of an acquisition is kept with
 * the holder until its release, and the time of each acquisition is noted,
 * so that a late release is recorded just before the next acquisition
 * (weft_lock_release_time). */
static void acquired_lock(ompt_thread *t, uint32_t id)
{
    uint32_t order = weft_lock_next_order(id);
    weft_lock_acquire_at(WEFT_PARADIGM_OPENMP, id, order, weft_lock_acquired_time(id, order));
    if (t->held_count < OMPT_MAX_MUTEX) {
        t->held[t->held_count].lock_id = id;
        t->held[t->held_count].order = order;
        t->held_count++;
    }
}

/* The order of this thread's acquisition of lock `id`, now released. */
static uint32_t take_held_order(ompt_thread *t, uint32_t id)
{
    uint32_t order = 0;
    for (uint32_t i = t->held_count; i > 0; i--) {
        if (t->held[i - 1].lock_id == id) {
            order = t->held[i - 1].order;
            t->held[i - 1] = t->held[--t->held_count];
            break;
        }
    }
    if (order == 0) /* not found (the table was full): the best guess */
        order = weft_lock_current_order(id);
    return order;
}

/* These return the time they recorded (later after a buffer wait; see
 * weft_enter_at), for the next event of the group. */
static uint64_t enter_at(weft_region r, uint64_t time)
{
    return r.id != WEFT_INVALID_ID ? weft_openmp_enter_at(r, time) : time;
}

static uint64_t leave_at(weft_region r, uint64_t time)
{
    return r.id != WEFT_INVALID_ID ? weft_openmp_leave_at(r, time) : time;
}

void weft__ompt_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                              ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)hint, (void)impl;
    ompt_thread *t = weft__ompt_self();
    if (!t)
        return;
    if (kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock) {
        /* (Runtimes that tell a test from a set.) A failed test gets no
         * further callback: the routine's region is recorded here, whole; a
         * success adds the acquisition after it. */
        call_region(kind == ompt_mutex_test_lock ? LR_TEST_LOCK : LR_TEST_NEST_LOCK);
        return;
    }
    ompt_mutex_scope *m = push_mutex(t);
    if (!m)
        return;
    m->wait_id = wait_id;
    m->kind = kind;
    const void *fallback = weft__ompt_fallback(t);
    switch (kind) {
    case ompt_mutex_lock:
        m->outer = weft__ompt_lock_region(LR_SET_LOCK);
        t->lock_waiting = true;
        break;
    case ompt_mutex_nest_lock:
        m->outer = weft__ompt_lock_region(LR_SET_NEST_LOCK);
        t->lock_waiting = true;
        break;
    case ompt_mutex_critical:
        m->outer = weft__ompt_region(codeptr, OC_CRITICAL, fallback);
        m->block_pending = weft__ompt_region(codeptr, OC_CRITICAL_SBLOCK, fallback);
        if (weft_openmp_group_recorded(WEFT_OMP_GROUP_CRITICAL))
            m->lock_id = lock_of(wait_id);
        break;
    case ompt_mutex_ordered:
        m->outer = weft__ompt_region(codeptr, OC_ORDERED, fallback);
        m->block_pending = weft__ompt_region(codeptr, OC_ORDERED_SBLOCK, fallback);
        break;
    default: /* atomic, and kinds of later OpenMP versions */
        m->outer = weft__ompt_region(codeptr, OC_ATOMIC, fallback);
        break;
    }
    enter(m->outer);
}

void weft__ompt_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)codeptr;
    ompt_thread *t = weft__ompt_self_raw();
    if (!t)
        return;
    bool locks = weft_openmp_group_recorded(WEFT_OMP_GROUP_LOCKS);
    if (kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock) {
        if (locks)
            acquired_lock(t, lock_of(wait_id));
        return;
    }
    ompt_mutex_scope *m = find_mutex(t, kind, wait_id);
    if (!m)
        return;
    if (kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock) {
        /* The routine returns: its region ends with the acquisition. */
        if (locks)
            acquired_lock(t, lock_of(wait_id));
        leave(m->outer);
        drop_mutex(t, m);
        t->lock_waiting = false;
        return;
    }
    if (m->lock_id != UINT32_MAX)
        acquired_lock(t, m->lock_id);
    m->block = m->block_pending;
    enter(m->block);
}

void weft__ompt_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)codeptr;
    ompt_thread *t = weft__ompt_self_raw();
    if (!t)
        return;
    if (kind == ompt_mutex_lock || kind == ompt_mutex_test_lock || kind == ompt_mutex_nest_lock ||
        kind == ompt_mutex_test_nest_lock) {
        bool nest = kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock;
        weft_region r = weft__ompt_lock_region(nest ? LR_UNSET_NEST_LOCK : LR_UNSET_LOCK);
        if (!weft_openmp_group_recorded(WEFT_OMP_GROUP_LOCKS))
            return; /* r is WEFT_REGION_INVALID too */
        uint32_t id = lock_of(wait_id);
        uint32_t order = take_held_order(t, id);
        uint64_t at = weft_lock_release_time(id, order);
        at = enter_at(r, at);
        at = weft_lock_release_at(WEFT_PARADIGM_OPENMP, id, order, at);
        leave_at(r, at);
        return;
    }
    ompt_mutex_scope *m = find_mutex(t, kind, wait_id);
    if (!m)
        return;
    bool locked = m->lock_id != UINT32_MAX && m->block.id != WEFT_INVALID_ID;
    uint32_t order = locked ? take_held_order(t, m->lock_id) : 0;
    uint64_t at = locked ? weft_lock_release_time(m->lock_id, order) : weft_now();
    at = leave_at(m->block, at);
    if (locked)
        at = weft_lock_release_at(WEFT_PARADIGM_OPENMP, m->lock_id, order, at);
    leave_at(m->outer, at);
    drop_mutex(t, m);
}

/* libomp 14 reports omp_test_lock as an omp_set_lock (kind lock, not
 * test_lock), and a failed test then gets no further callback: the region
 * opened at acquire ends at the thread's next OpenMP event. */
void weft__ompt_settle_lock(ompt_thread *t)
{
    t->lock_waiting = false;
    for (uint32_t i = t->mutex_depth; i > 0; i--) {
        ompt_mutex_scope *m = &t->mutex[i - 1];
        if (m->kind == ompt_mutex_lock || m->kind == ompt_mutex_nest_lock) {
            leave(m->outer);
            drop_mutex(t, m);
            return;
        }
    }
}

/* Inner levels of a nest lock the thread already holds: no lock event, the
 * routine's region only. */
void weft__ompt_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                          const void *codeptr)
{
    (void)codeptr;
    ompt_thread *t = weft__ompt_self_raw();
    if (!t)
        return;
    if (endpoint == ompt_scope_begin) {
        ompt_mutex_scope *m = find_mutex(t, ompt_mutex_nest_lock, wait_id);
        if (m) { /* omp_set_nest_lock returns (a test was recorded already) */
            leave(m->outer);
            drop_mutex(t, m);
            t->lock_waiting = false;
        }
    } else {
        call_region(LR_UNSET_NEST_LOCK);
    }
}

void weft__ompt_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                          ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)hint, (void)impl, (void)wait_id, (void)codeptr;
    if (weft__ompt_self())
        call_region(kind == ompt_mutex_nest_lock ? LR_INIT_NEST_LOCK : LR_INIT_LOCK);
}

void weft__ompt_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)wait_id, (void)codeptr;
    if (weft__ompt_self())
        call_region(kind == ompt_mutex_nest_lock ? LR_DESTROY_NEST_LOCK : LR_DESTROY_LOCK);
}

static void point_region(ompt_construct c, const void *codeptr)
{
    ompt_thread *t = weft__ompt_self();
    if (!t)
        return;
    weft_region r = weft__ompt_region(codeptr, c, weft__ompt_fallback(t));
    enter(r);
    leave(r);
}

void weft__ompt_flush(ompt_data_t *thread, const void *codeptr)
{
    (void)thread;
    point_region(OC_FLUSH, codeptr);
}

void weft__ompt_cancel(ompt_data_t *task, int flags, const void *codeptr)
{
    (void)task, (void)flags;
    point_region(OC_CANCEL, codeptr);
}
