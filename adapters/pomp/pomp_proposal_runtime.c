/* SPDX-License-Identifier: BSD-3-Clause */
/* The merged POMP proposal's OpenMP runtime library events (pomplib.h):
 * lock routines and the routines that set or return a value. A call of a
 * routine is a construct with a handle and CTC string like any other (type
 * omp_set_lock ..., see weft_ctc_parse_proposal): its region is named after
 * the routine, at the call's file and lines. It is entered and left by
 * *_enter / *_exit at the level EnterExit of POMP_RUNTIME, and visited
 * without length by *_event at the level Event. The value a routine sets or
 * returns, and whether a test found its lock set, follow the visit as
 * parameters.
 *
 * Lock acquisitions and releases are recorded whenever POMP_RUNTIME is not
 * none, whichever of its two levels is chosen, and also when the event has
 * no handle: Set_lock_exit acquires and Unset_lock_event releases, and a
 * trace with one but not the other would hold locks forever. A lock is
 * known by its address (pomplib.h's macros) or by its value where the
 * runtime makes that an identity (weft__omp_lock_value_key); otherwise its
 * acquisitions are not recorded at all, rather than under a wrong id. */
#include <stdbool.h>

#include "omp_runtime.h"
#include "pomp_events.h"
#include "pomp_proposal.h"
#include "pomplib.h"
#include "weft/log.h"
#include "weft/recorder.h"

#define R POMP_GROUP_RUNTIME

static bool runtime_on(void)
{
    return weft__pomp_level_on(R, POMP_LEVEL_EVENT) ||
           weft__pomp_level_on(R, POMP_LEVEL_ENTER_EXIT);
}

/* The lock's id, or UINT32_MAX when a value passed does not identify it
 * (said once: the trace then lacks those locks' events). */
static uint32_t lock_id_of(omp_lock_call call, const void *lock, size_t value_size)
{
    if (value_size == 0)
        return weft_lock_id(lock);
    uintptr_t key;
    if (weft__omp_lock_value_key(lock, value_size, &key))
        return weft_lock_id((const void *)key);
    static _Atomic int said;
    if (!said++)
        weft_log_error("the event of %s got the lock by value (the function, not pomplib.h's "
                       "macro), and this OpenMP runtime keeps the lock's state there: such locks' "
                       "acquisitions and releases are not recorded",
                       weft__omp_lock_call_name(call));
    return UINT32_MAX;
}

/* What a lock routine does to the lock: nest locks count levels. */
static void take(omp_lock_call call, uint32_t id)
{
    bool nest = call >= OMP_INIT_NEST_LOCK;
    if (!nest || weft__pomp_nest_enter(id) == 1)
        weft__pomp_lock_acquired(id);
}

static void give_back(omp_lock_call call, uint32_t id)
{
    bool nest = call >= OMP_INIT_NEST_LOCK;
    if (!nest || weft__pomp_nest_leave(id) == 0)
        weft__pomp_lock_releasing(id);
}

enum lock_effect { NONE, TAKE, GIVE_BACK };

/* A *_event of a lock routine: the visit (level Event) around its effect. */
static int32_t lock_event(omp_lock_call call, POMP_Handle_t *h, const char *ctc, const void *lock,
                          size_t value_size, enum lock_effect effect, bool test, int32_t was_set)
{
    if (!lock)
        return POMP_ERROR_NO_LOCK;
    const pomp_region *r;
    int32_t code = weft__pomp_first(h, ctc, &r);
    if (!runtime_on())
        return code;
    bool visit = r && weft__pomp_level_on(R, POMP_LEVEL_EVENT);
    if (visit)
        weft__pomp_enter_part(r, POMP_MAIN);
    if (visit && test)
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOCK_WAS_SET, was_set);
    uint32_t id = effect == NONE ? UINT32_MAX : lock_id_of(call, lock, value_size);
    if (id != UINT32_MAX && effect == GIVE_BACK)
        give_back(call, id);
    if (id != UINT32_MAX && effect == TAKE && (!test || was_set))
        take(call, id);
    if (visit)
        weft__pomp_leave_part(r, POMP_MAIN);
    return code;
}

/* Set_lock_enter (level EnterExit). */
static int32_t lock_enter(POMP_Handle_t *h, const char *ctc, const void *lock)
{
    if (!lock)
        return POMP_ERROR_NO_LOCK;
    const pomp_region *r;
    int32_t code = weft__pomp_first(h, ctc, &r);
    if (r && weft__pomp_level_on(R, POMP_LEVEL_ENTER_EXIT))
        weft__pomp_enter_part(r, POMP_MAIN);
    return code;
}

/* Set_lock_exit: the lock is taken (at either level), then the region left. */
static int32_t lock_exit(omp_lock_call call, POMP_Handle_t h, const void *lock, size_t value_size)
{
    if (!lock)
        return POMP_ERROR_NO_LOCK;
    const pomp_region *r;
    int32_t code = weft__pomp_later(h, &r);
    if (!runtime_on())
        return code;
    uint32_t id = lock_id_of(call, lock, value_size);
    if (id != UINT32_MAX)
        take(call, id);
    if (r && weft__pomp_level_on(R, POMP_LEVEL_ENTER_EXIT))
        weft__pomp_leave_part(r, POMP_MAIN);
    return code;
}

/* weft's entry points behind pomplib.h's lock events; thread_id is not
 * needed (weft knows the calling thread). */
#define LOCK_EVENT(function, call, effect)                                                         \
    int32_t function(POMP_Handle_t *h, int32_t thread_id, const void *lock, size_t size,           \
                     const char ctc[])                                                             \
    {                                                                                              \
        (void)thread_id;                                                                           \
        return lock_event(call, h, ctc, lock, size, effect, false, 0);                             \
    }
#define TEST_EVENT(function, call)                                                                 \
    int32_t function(POMP_Handle_t *h, int32_t thread_id, const void *lock, size_t size,           \
                     int32_t was_set, const char ctc[])                                            \
    {                                                                                              \
        (void)thread_id;                                                                           \
        return lock_event(call, h, ctc, lock, size, TAKE, true, was_set);                          \
    }
#define SET_ENTER(function)                                                                        \
    int32_t function(POMP_Handle_t *h, int32_t thread_id, const void *lock, size_t size,           \
                     const char ctc[])                                                             \
    {                                                                                              \
        (void)thread_id, (void)size;                                                               \
        return lock_enter(h, ctc, lock);                                                           \
    }
#define SET_EXIT(function, call)                                                                   \
    int32_t function(POMP_Handle_t h, int32_t thread_id, const void *lock, size_t size)            \
    {                                                                                              \
        (void)thread_id;                                                                           \
        return lock_exit(call, h, lock, size);                                                     \
    }
LOCK_EVENT(weft_pomp_init_lock_event_at, OMP_INIT_LOCK, NONE)
LOCK_EVENT(weft_pomp_destroy_lock_event_at, OMP_DESTROY_LOCK, NONE)
SET_ENTER(weft_pomp_set_lock_enter_at)
SET_EXIT(weft_pomp_set_lock_exit_at, OMP_SET_LOCK)
LOCK_EVENT(weft_pomp_set_lock_event_at, OMP_SET_LOCK, TAKE)
LOCK_EVENT(weft_pomp_unset_lock_event_at, OMP_UNSET_LOCK, GIVE_BACK)
TEST_EVENT(weft_pomp_test_lock_event_at, OMP_TEST_LOCK)
LOCK_EVENT(weft_pomp_init_nest_lock_event_at, OMP_INIT_NEST_LOCK, NONE)
LOCK_EVENT(weft_pomp_destroy_nest_lock_event_at, OMP_DESTROY_NEST_LOCK, NONE)
SET_ENTER(weft_pomp_set_nest_lock_enter_at)
SET_EXIT(weft_pomp_set_nest_lock_exit_at, OMP_SET_NEST_LOCK)
LOCK_EVENT(weft_pomp_set_nest_lock_event_at, OMP_SET_NEST_LOCK, TAKE)
LOCK_EVENT(weft_pomp_unset_nest_lock_event_at, OMP_UNSET_NEST_LOCK, GIVE_BACK)
TEST_EVENT(weft_pomp_test_nest_lock_event_at, OMP_TEST_NEST_LOCK)
#undef LOCK_EVENT
#undef TEST_EVENT
#undef SET_ENTER
#undef SET_EXIT

/* ---- routines that set or return a value -------------------------------------- */

static int32_t value_event(POMP_Handle_t *h, const char *ctc, int32_t value)
{
    const pomp_region *r;
    int32_t code = weft__pomp_first(h, ctc, &r);
    if (r && weft__pomp_level_on(R, POMP_LEVEL_EVENT)) {
        weft__pomp_enter_part(r, POMP_MAIN);
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_RUNTIME_VALUE, value);
        weft__pomp_leave_part(r, POMP_MAIN);
    }
    return code;
}

/* The value's parameter is named in the proposal after what it is
 * (num_threads, is_dynamic ...); weft records each as "OpenMP runtime value". */
#define VALUE_EVENT(function)                                                                      \
    int32_t function(POMP_Handle_t *h, int32_t thread_id, int32_t value, char ctc[])               \
    {                                                                                              \
        (void)thread_id;                                                                           \
        return value_event(h, ctc, value);                                                         \
    }
VALUE_EVENT(POMP_Set_num_threads_event)
VALUE_EVENT(POMP_Get_num_threads_event)
VALUE_EVENT(POMP_Get_max_threads_event)
VALUE_EVENT(POMP_Get_thread_num_event)
VALUE_EVENT(POMP_Get_num_procs_event)
VALUE_EVENT(POMP_In_parallel_event)
VALUE_EVENT(POMP_Set_dynamic_event)
VALUE_EVENT(POMP_Get_dynamic_event)
VALUE_EVENT(POMP_Set_nested_event)
VALUE_EVENT(POMP_Get_nested_event)
#undef VALUE_EVENT
