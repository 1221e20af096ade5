/* SPDX-License-Identifier: BSD-3-Clause */
/* The POMP2 events that take more than one region enter or leave: parallel
 * regions, scheduling points, critical sections, tasks and the OpenMP lock
 * routines. The C and Fortran entry points both call these; the order of the
 * events follows docs/dev/OTF2-CONVENTIONS.md. */
#include <pthread.h>

#include "omp_runtime.h"
#include "pomp_events.h"
#include "weft/log.h"
#include "weft/openmp_control.h"
#include "weft/recorder.h"

void weft__pomp_parallel_fork(void **handle, int if_clause, int num_threads, pomp_task *old_task,
                              const char *ctc, size_t ctc_len)
{
    weft__pomp_region_of(handle, ctc, ctc_len); /* assigns it before the team starts */
    weft__pomp_fork(if_clause, num_threads, old_task);
}

void weft__pomp_parallel_begin(void **handle)
{
    weft__pomp_team_begin(weft__pomp_region_known(handle));
}

void weft__pomp_parallel_end(void **handle)
{
    weft__pomp_team_end(weft__pomp_region_known(handle));
}

void weft__pomp_sync_enter(void **handle, pomp_task *old_task, const char *ctc, size_t ctc_len,
                           pomp_part part)
{
    if (old_task)
        *old_task = weft__pomp_current_task();
    weft__pomp_enter(handle, ctc, ctc_len, part);
}

void weft__pomp_sync_exit(void **handle, pomp_task old_task, pomp_part part)
{
    weft__pomp_resume(old_task);
    weft__pomp_leave(handle, part);
}

/* Inside the critical section: Acquire, then Enter sblock. */
void weft__pomp_critical_begin(void **handle)
{
    weft__pomp_critical_acquired(weft__pomp_region_known(handle));
}

void weft__pomp_critical_acquired(const pomp_region *r)
{
    if (r->lock_id != UINT32_MAX)
        weft_lock_acquire(WEFT_PARADIGM_OPENMP, r->lock_id, weft_lock_next_order(r->lock_id));
    weft__pomp_enter_part(r, POMP_BLOCK);
}

/* Still inside: Leave sblock, then Release. */
void weft__pomp_critical_end(void **handle)
{
    weft__pomp_critical_releasing(weft__pomp_region_known(handle));
}

void weft__pomp_critical_releasing(const pomp_region *r)
{
    weft__pomp_leave_part(r, POMP_BLOCK);
    if (r->lock_id != UINT32_MAX)
        weft_lock_release(WEFT_PARADIGM_OPENMP, r->lock_id, weft_lock_current_order(r->lock_id));
}

/* The events of a task's creation, start and end follow each other with
 * nothing in between: each group takes one reading of the clock (of 8 per
 * task, 4 are left). */
void weft__pomp_task_create_begin(void **handle, pomp_task *new_task, pomp_task *old_task,
                                  const char *ctc, size_t ctc_len, bool untied)
{
    if (old_task)
        *old_task = weft__pomp_current_task();
    const pomp_region *r = weft__pomp_region_of(handle, ctc, ctc_len);
    uint64_t time = weft_now();
    time = weft__pomp_enter_part_at(r, untied ? POMP_UNTIED_CREATE : POMP_CREATE, time);
    pomp_task task;
    weft__pomp_new_task_at(&task, time);
    if (new_task)
        *new_task = task;
}

void weft__pomp_task_create_end(void **handle, pomp_task old_task, bool untied)
{
    weft__pomp_resume(old_task);
    weft__pomp_leave(handle, untied ? POMP_UNTIED_CREATE : POMP_CREATE);
}

void weft__pomp_task_begin(void **handle, pomp_task task, bool untied)
{
    const pomp_region *r = weft__pomp_region_of(handle, NULL, 0);
    uint64_t time = weft__pomp_switch_into_at(task, weft_now());
    weft__pomp_enter_part_at(r, untied ? POMP_UNTIED_BLOCK : POMP_BLOCK, time);
}

void weft__pomp_task_end(void **handle, bool untied)
{
    const pomp_region *r = weft__pomp_region_known(handle);
    uint64_t time = weft__pomp_leave_part_at(r, untied ? POMP_UNTIED_BLOCK : POMP_BLOCK, weft_now());
    weft__pomp_complete_task_at(time);
}

/* ---- OpenMP lock routines --------------------------------------------------- */

static weft_region lock_regions[OMP_LOCK_CALL_COUNT];

static void define_lock_regions(void)
{
    for (int call = 0; call < OMP_LOCK_CALL_COUNT; call++) {
        weft_region_desc desc = {.name = weft__omp_lock_call_name((omp_lock_call)call),
                                 .file = "OMP",
                                 .role = WEFT_REGION_ROLE_WRAPPER,
                                 .paradigm = WEFT_PARADIGM_OPENMP};
        lock_regions[call] = weft_openmp_region(&desc, WEFT_OMP_LOCK_ROUTINE);
    }
}

weft_region weft__pomp_lock_region(omp_lock_call call)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, define_lock_regions);
    return lock_regions[call];
}

/* The lock events of the omp_*_lock routines: none when WEFT_OPENMP_EVENTS
 * leaves locks out. */
void weft__pomp_lock_acquired(uint32_t id)
{
    if (weft_openmp_group_recorded(WEFT_OMP_GROUP_LOCKS))
        weft_lock_acquire(WEFT_PARADIGM_OPENMP, id, weft_lock_next_order(id));
}

void weft__pomp_lock_releasing(uint32_t id)
{
    if (weft_openmp_group_recorded(WEFT_OMP_GROUP_LOCKS))
        weft_lock_release(WEFT_PARADIGM_OPENMP, id, weft_lock_current_order(id));
}

/* Events around one lock routine. A nest lock is acquired when its outermost
 * level is taken and released when that level is given back. */
int weft__pomp_lock(omp_lock_call call, void *lock, bool fortran)
{
    weft_region region = weft__pomp_lock_region(call);
    bool recorded = region.id != WEFT_INVALID_ID;
    if (recorded)
        weft_openmp_enter(region);
    uint32_t id = weft_lock_id(lock);
    if (call == OMP_UNSET_LOCK)
        weft__pomp_lock_releasing(id);
    else if (call == OMP_UNSET_NEST_LOCK && weft__pomp_nest_leave(id) == 0)
        weft__pomp_lock_releasing(id);
    int result = weft__omp_lock_call(call, lock, fortran);
    if (call == OMP_SET_LOCK || (call == OMP_TEST_LOCK && result))
        weft__pomp_lock_acquired(id);
    else if ((call == OMP_SET_NEST_LOCK || (call == OMP_TEST_NEST_LOCK && result)) &&
             weft__pomp_nest_enter(id) == 1)
        weft__pomp_lock_acquired(id);
    if (recorded)
        weft_openmp_leave(region);
    return result;
}
