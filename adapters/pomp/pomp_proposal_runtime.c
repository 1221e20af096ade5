/* The merged POMP proposal's OpenMP runtime library events (pomplib.h):
 * lock routines and the routines that set or return a value. Each is a
 * region named after the routine ("omp_set_lock", file "OMP", as the POMP2
 * lock wrappers record it): entered and left by *_enter / *_exit at the
 * level EnterExit of POMP_RUNTIME, a visit of no length for *_event at the
 * level Event. The value a routine sets or returns, and whether a test
 * found its lock set, follow as parameters.
 *
 * Lock acquisitions and releases are recorded whenever POMP_RUNTIME is not
 * none, whichever of its two levels is chosen: Set_lock_exit acquires and
 * Unset_lock_event releases, and a trace with one but not the other would
 * hold locks forever. */
#include <stdbool.h>

#include "omp_runtime.h"
#include "pomp_events.h"
#include "pomp_proposal.h"
#include "pomplib.h"
#include "weft/recorder.h"

#define R POMP_GROUP_RUNTIME

static bool runtime_on(void)
{
    return weft__pomp_level_on(R, POMP_LEVEL_EVENT) ||
           weft__pomp_level_on(R, POMP_LEVEL_ENTER_EXIT);
}

static void enter(omp_lock_call call)
{
    weft_region region = weft__pomp_lock_region(call);
    if (region.id != WEFT_INVALID_ID)
        weft_enter(region);
}

static void leave(omp_lock_call call)
{
    weft_region region = weft__pomp_lock_region(call);
    if (region.id != WEFT_INVALID_ID)
        weft_leave(region);
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
static int32_t lock_event(omp_lock_call call, void *lock, enum lock_effect effect, int32_t was_set,
                          bool test)
{
    if (!lock)
        return POMP_ERROR_NO_LOCK;
    if (!runtime_on())
        return POMP_SUCCESS;
    bool visit = weft__pomp_level_on(R, POMP_LEVEL_EVENT);
    uint32_t id = weft_lock_id(lock);
    if (visit)
        enter(call);
    if (test)
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOCK_WAS_SET, was_set);
    if (effect == GIVE_BACK)
        give_back(call, id);
    if (effect == TAKE && (!test || was_set))
        take(call, id);
    if (visit)
        leave(call);
    return POMP_SUCCESS;
}

/* Set_lock_enter / _exit (level EnterExit); the exit acquires. */
static int32_t lock_enter_exit(omp_lock_call call, void *lock, bool is_exit)
{
    if (!lock)
        return POMP_ERROR_NO_LOCK;
    if (!runtime_on())
        return POMP_SUCCESS;
    bool region = weft__pomp_level_on(R, POMP_LEVEL_ENTER_EXIT);
    if (!is_exit && region)
        enter(call);
    if (is_exit) {
        take(call, weft_lock_id(lock));
        if (region)
            leave(call);
    }
    return POMP_SUCCESS;
}

/* clang-format off */
int32_t POMP_Init_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_INIT_LOCK, lock, NONE, 0, false); }
int32_t POMP_Destroy_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_DESTROY_LOCK, lock, NONE, 0, false); }
int32_t POMP_Set_lock_enter(int32_t t, void *lock) { (void)t; return lock_enter_exit(OMP_SET_LOCK, lock, false); }
int32_t POMP_Set_lock_exit(int32_t t, void *lock) { (void)t; return lock_enter_exit(OMP_SET_LOCK, lock, true); }
int32_t POMP_Set_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_SET_LOCK, lock, TAKE, 0, false); }
int32_t POMP_Unset_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_UNSET_LOCK, lock, GIVE_BACK, 0, false); }
int32_t POMP_Test_lock_event(int32_t t, void *lock, int32_t was_set) { (void)t; return lock_event(OMP_TEST_LOCK, lock, TAKE, was_set, true); }
int32_t POMP_Init_nest_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_INIT_NEST_LOCK, lock, NONE, 0, false); }
int32_t POMP_Destroy_nest_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_DESTROY_NEST_LOCK, lock, NONE, 0, false); }
int32_t POMP_Set_nest_lock_enter(int32_t t, void *lock) { (void)t; return lock_enter_exit(OMP_SET_NEST_LOCK, lock, false); }
int32_t POMP_Set_nest_lock_exit(int32_t t, void *lock) { (void)t; return lock_enter_exit(OMP_SET_NEST_LOCK, lock, true); }
int32_t POMP_Set_nest_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_SET_NEST_LOCK, lock, TAKE, 0, false); }
int32_t POMP_Unset_nest_lock_event(int32_t t, void *lock) { (void)t; return lock_event(OMP_UNSET_NEST_LOCK, lock, GIVE_BACK, 0, false); }
int32_t POMP_Test_nest_lock_event(int32_t t, void *lock, int32_t was_set) { (void)t; return lock_event(OMP_TEST_NEST_LOCK, lock, TAKE, was_set, true); }
/* clang-format on */

/* ---- routines that set or return a value -------------------------------------- */

/* clang-format off */
#define VALUE_ROUTINES(X)                                                                          \
    X(POMP_Set_num_threads_event, "omp_set_num_threads")                                          \
    X(POMP_Get_num_threads_event, "omp_get_num_threads")                                          \
    X(POMP_Get_max_threads_event, "omp_get_max_threads")                                          \
    X(POMP_Get_thread_num_event, "omp_get_thread_num")                                            \
    X(POMP_Get_num_procs_event, "omp_get_num_procs")                                              \
    X(POMP_In_parallel_event, "omp_in_parallel")                                                  \
    X(POMP_Set_dynamic_event, "omp_set_dynamic")                                                  \
    X(POMP_Get_dynamic_event, "omp_get_dynamic")                                                  \
    X(POMP_Set_nested_event, "omp_set_nested")                                                    \
    X(POMP_Get_nested_event, "omp_get_nested")
/* clang-format on */

#define ROUTINE_INDEX(function, name) ROUTINE_##function,
enum { VALUE_ROUTINES(ROUTINE_INDEX) ROUTINE_COUNT };
#undef ROUTINE_INDEX

static weft_region routine_region(unsigned routine)
{
#define ROUTINE_NAME(function, name) name,
    static const char *const names[ROUTINE_COUNT] = {VALUE_ROUTINES(ROUTINE_NAME)};
#undef ROUTINE_NAME
    static uint32_t ids[ROUTINE_COUNT]; /* id + 1; 0 until defined */
    uint32_t id = __atomic_load_n(&ids[routine], __ATOMIC_ACQUIRE);
    if (id)
        return (weft_region){id - 1};
    weft_region_desc desc = {.name = names[routine],
                             .file = "OMP",
                             .role = WEFT_REGION_ROLE_WRAPPER,
                             .paradigm = WEFT_PARADIGM_OPENMP};
    weft_region region = WEFT_REGION_INVALID;
    if (weft_registry_region(weft_defs_global(), &desc, &region) == WEFT_OK)
        __atomic_store_n(&ids[routine], region.id + 1, __ATOMIC_RELEASE);
    return region;
}

static int32_t value_event(unsigned routine, int32_t value)
{
    if (!weft__pomp_level_on(R, POMP_LEVEL_EVENT))
        return POMP_SUCCESS;
    weft_region region = routine_region(routine);
    if (region.id == WEFT_INVALID_ID)
        return POMP_SUCCESS;
    weft_enter(region);
    weft__pomp_parameter(WEFT_PARAMETER_OPENMP_RUNTIME_VALUE, value);
    weft_leave(region);
    return POMP_SUCCESS;
}

#define DEFINE_ROUTINE(function, name)                                                             \
    int32_t function(int32_t thread, int32_t value)                                                \
    {                                                                                              \
        (void)thread;                                                                              \
        return value_event(ROUTINE_##function, value);                                             \
    }
VALUE_ROUTINES(DEFINE_ROUTINE)
#undef DEFINE_ROUTINE
