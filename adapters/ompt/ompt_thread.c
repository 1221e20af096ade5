/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-thread state of the OMPT tool; see ompt_internal.h.
 *
 * Thread teams are defined as the POMP2 adapter defines them: once per place
 * in the team tree, named by (the forking thread's number in its team, team
 * size) under the enclosing team, so a team that forms again and again is
 * one definition and the two adapters give the same team structure. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weft/compiler.h"
#include "ompt_internal.h"
#include "weft/log.h"
#include "weft/openmp_control.h"
#include "weft/recorder.h"

static __thread ompt_thread *self __attribute__((tls_model("initial-exec")));

static ompt_thread *create(void);

ompt_thread *weft__ompt_self_unsettled(void)
{
    ompt_thread *t = self;
    return WEFT_LIKELY(t != NULL) ? t : create();
}

ompt_thread *weft__ompt_self_raw(void)
{
    ompt_thread *t = weft__ompt_self_unsettled();
    if (t && WEFT_UNLIKELY(t->creating.task != 0))
        weft__ompt_settle_task_create(t);
    if (t && WEFT_UNLIKELY(t->parking.task != 0))
        weft__ompt_settle_parking(t);
    return t;
}

ompt_thread *weft__ompt_self(void)
{
    ompt_thread *t = weft__ompt_self_raw();
    if (t && WEFT_UNLIKELY(t->lock_waiting))
        weft__ompt_settle_lock(t);
    return t;
}

ompt_thread *weft__ompt_self_in(const ompt_data_t *task)
{
    ompt_thread *t = weft__ompt_self();
    if (t)
        weft__ompt_task_in(t, task);
    return t;
}

static ompt_thread *create(void)
{
    ompt_thread *t = calloc(1, sizeof(*t));
    if (!t) {
        weft_log_error("out of memory for a thread's OpenMP state; its OpenMP events are not "
                       "recorded");
        return NULL;
    }
    t->cached_parent = t->cached_team = WEFT_COMM_INVALID;
    t->open = t->open_inline;
    t->open_capacity = OMPT_OPEN_INLINE;
    t->current_task = weft__ompt_implicit_task_id(0);
    self = t;
    return t;
}

/* Doubles t's open-region stack; false (said once per thread) when the
 * memory cannot be had: deeper regions are then counted, not recorded. */
static __attribute__((noinline, cold)) bool grow_open(ompt_thread *t)
{
    uint32_t capacity = t->open_capacity * 2;
    ompt_open_region *open = capacity > t->open_capacity ? malloc(capacity * sizeof(*open)) : NULL;
    if (!open) {
        if (t->open_overflow == 0)
            weft_log_error("out of memory for OpenMP regions nested %u deep on one thread; "
                           "deeper regions are not recorded",
                           t->open_capacity);
        return false;
    }
    memcpy(open, t->open, t->open_depth * sizeof(*open));
    if (t->open != t->open_inline)
        free(t->open);
    t->open = open;
    t->open_capacity = capacity;
    return true;
}

/* Room for one more open region on t's stack; false: it is counted as
 * overflowed (not recorded, so not left either). */
static inline bool open_room(ompt_thread *t)
{
    if (WEFT_LIKELY(t->open_depth < t->open_capacity) || (!t->open_overflow && grow_open(t)))
        return true;
    t->open_overflow++;
    return false;
}

void weft__ompt_push(ompt_thread *t, weft_region region, ompt_scope_kind kind)
{
    if (!open_room(t))
        return;
    t->open[t->open_depth++] = (ompt_open_region){.region = region, .kind = (uint8_t)kind};
    if (region.id != WEFT_INVALID_ID)
        weft_openmp_enter(region);
}

uint64_t weft__ompt_push_at(ompt_thread *t, weft_region region, ompt_scope_kind kind,
                            uint64_t time)
{
    if (!open_room(t))
        return time;
    t->open[t->open_depth++] = (ompt_open_region){.region = region, .kind = (uint8_t)kind};
    return region.id != WEFT_INVALID_ID ? weft_openmp_enter_at(region, time) : time;
}

uint64_t weft__ompt_push_task_at(ompt_thread *t, weft_region region, uint64_t task, uint64_t from,
                                 uint64_t time)
{
    uint32_t at = t->open_depth;
    time = weft__ompt_push_at(t, region, SCOPE_TASK, time);
    if (t->open_depth > at) {
        t->open[at].task = task;
        t->open[at].from = from;
    }
    return time;
}

const ompt_open_region *weft__ompt_task_scope(const ompt_thread *t)
{
    for (uint32_t at = t->open_depth; at > 0; at--)
        if (t->open[at - 1].kind == SCOPE_TASK)
            return &t->open[at - 1];
    return NULL;
}

/* Leaves the scopes from position `at` (1-based) up, innermost first. */
static uint64_t leave_from(ompt_thread *t, uint32_t at, uint64_t time)
{
    while (t->open_depth >= at) {
        weft_region r = t->open[--t->open_depth].region;
        if (r.id != WEFT_INVALID_ID)
            time = weft_openmp_leave_at(r, time);
    }
    return time;
}

uint64_t weft__ompt_pop_task_at(ompt_thread *t, uint64_t task, uint64_t time)
{
    const ompt_open_region *scope = weft__ompt_task_scope(t);
    if (!scope || scope->task != task)
        return time; /* its scopes are not on this thread (it started elsewhere) */
    return leave_from(t, (uint32_t)(scope - t->open) + 1, time);
}

/* Where the innermost scope of `kind` starts on t's stack (1-based), 0 when
 * none is open; consumes an overflowed one instead (returns 0). */
static uint32_t scope_start(ompt_thread *t, ompt_scope_kind kind)
{
    if (t->open_overflow) {
        t->open_overflow--;
        return 0;
    }
    /* A construct inside a task ends in that task: its end closes nothing
     * below the task's scope (an implicit task's end closes everything). */
    bool bounded = kind != SCOPE_TASK && kind != SCOPE_PARALLEL;
    uint32_t at = t->open_depth;
    while (at > 0 && t->open[at - 1].kind != kind) {
        if (bounded && t->open[at - 1].kind == SCOPE_TASK)
            return 0;
        at--;
    }
    return at; /* 0: an end without its begin (e.g. recording started inside) */
}

void weft__ompt_pop(ompt_thread *t, ompt_scope_kind kind)
{
    uint32_t at = scope_start(t, kind);
    if (at == 0)
        return;
    while (t->open_depth >= at) {
        weft_region r = t->open[--t->open_depth].region;
        if (r.id != WEFT_INVALID_ID)
            weft_openmp_leave(r);
    }
}

uint64_t weft__ompt_pop_at(ompt_thread *t, ompt_scope_kind kind, uint64_t time)
{
    uint32_t at = scope_start(t, kind);
    return at == 0 ? time : leave_from(t, at, time);
}

const ompt_member *weft__ompt_member(const ompt_thread *t)
{
    if (t->member_depth == 0 || t->member_depth > OMPT_MAX_NESTING)
        return NULL;
    return &t->members[t->member_depth - 1];
}

const void *weft__ompt_fallback(const ompt_thread *t)
{
    const ompt_member *m = weft__ompt_member(t);
    return m ? m->codeptr : NULL;
}

static weft_comm register_team(weft_comm parent, uint64_t key)
{
    weft_comm_desc desc = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = parent, .key = key};
    weft_comm team;
    if (weft_registry_comm(weft_defs_global(), &desc, &team) != WEFT_OK)
        weft_log_error("cannot define an OpenMP thread team; team events are not recorded");
    return team;
}

static weft_comm cached_team(ompt_thread *t, weft_comm parent, uint64_t key)
{
    if (t->cached_team.id != WEFT_INVALID_ID && t->cached_parent.id == parent.id &&
        t->cached_key == key)
        return t->cached_team;
    weft_comm team = register_team(parent, key);
    if (team.id != WEFT_INVALID_ID) {
        t->cached_parent = parent;
        t->cached_key = key;
        t->cached_team = team;
    }
    return team;
}

weft_comm weft__ompt_team(ompt_thread *t, const ompt_fork *fork, uint32_t size)
{
    return cached_team(t, fork->parent_team, (uint64_t)fork->forker << 32 | size);
}

#define ROOT_MAIN UINT32_MAX
#define ROOT_FIRST (UINT32_C(1) << 31)

/* Threads other than the main one that forked outside any team. */
static atomic_uint_least32_t other_roots;

uint32_t weft__ompt_root_key(ompt_thread *t)
{
    if (t->league_team != 0)
        return t->league_team;
    if (WEFT_UNLIKELY(t->root_key == 0))
        t->root_key =
            gettid() == getpid()
                ? ROOT_MAIN
                : ROOT_FIRST |
                      (atomic_fetch_add_explicit(&other_roots, 1, memory_order_relaxed) + 1);
    return t->root_key == ROOT_MAIN ? 0 : t->root_key;
}

weft_comm weft__ompt_task_team(ompt_thread *t)
{
    const ompt_member *m = weft__ompt_member(t);
    if (m)
        return m->team;
    /* Outside parallel regions: the initial thread's one-thread team, the
     * same (forker 0, size 1) team the POMP2 adapter defines there; in a
     * host league, its team's own; on another root thread, its own. */
    return cached_team(t, WEFT_COMM_INVALID, (uint64_t)weft__ompt_root_key(t) << 32 | 1);
}
