/* SPDX-License-Identifier: BSD-3-Clause */
/* The POMP2 interface of OPARI2 2.0.7 for C and C++ (opari2/pomp2_lib.h and
 * pomp2_user_lib.h): every function an instrumented program calls. Each
 * hands over at once to the adapter's weft__pomp_* functions; the Fortran
 * bindings in pomp2_fortran.c call the same ones. The signatures are written
 * out here rather than taken from OPARI2's header, which needs omp.h. */

#include "weft/compiler.h"
#include "pomp_events.h"
#include "weft/recorder.h"

typedef void *POMP2_Region_handle;
typedef int64_t POMP2_Task_handle;

#define H(handle) ((void **)(handle))
/* A C CTC string ends at its NUL: the parser stops there, so no strlen on
 * the event path (the string is only read when a handle is unset). */
#define CTC(ctc) (ctc), ((ctc) ? SIZE_MAX : 0)

/* Declarations: external names, exported from libweft. */
/* clang-format off */
WEFT_EXPORT void POMP2_Assign_handle(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_USER_Assign_handle(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT POMP2_Task_handle POMP2_Get_new_task_handle(void);
WEFT_EXPORT int POMP2_Lib_get_max_threads(void);
WEFT_EXPORT void POMP2_Init(void);
WEFT_EXPORT void POMP2_Finalize(void);
WEFT_EXPORT void POMP2_On(void);
WEFT_EXPORT void POMP2_Off(void);
WEFT_EXPORT void POMP2_Begin(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_End(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Parallel_fork(POMP2_Region_handle *h, int if_clause, int num_threads,
                                   POMP2_Task_handle *old_task, const char ctc[]);
WEFT_EXPORT void POMP2_Parallel_begin(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Parallel_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Parallel_join(POMP2_Region_handle *h, POMP2_Task_handle old_task);
WEFT_EXPORT void POMP2_For_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_For_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Sections_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Sections_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Section_begin(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Section_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Workshare_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Workshare_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Single_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Single_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Single_begin(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Single_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Master_begin(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Master_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Critical_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Critical_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Critical_begin(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Critical_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Atomic_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Atomic_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Flush_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Flush_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Ordered_enter(POMP2_Region_handle *h, const char ctc[]);
WEFT_EXPORT void POMP2_Ordered_exit(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Ordered_begin(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Ordered_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task,
                                   const char ctc[]);
WEFT_EXPORT void POMP2_Barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task);
WEFT_EXPORT void POMP2_Implicit_barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task);
WEFT_EXPORT void POMP2_Implicit_barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task);
WEFT_EXPORT void POMP2_Taskwait_begin(POMP2_Region_handle *h, POMP2_Task_handle *old_task,
                                    const char ctc[]);
WEFT_EXPORT void POMP2_Taskwait_end(POMP2_Region_handle *h, POMP2_Task_handle old_task);
WEFT_EXPORT void POMP2_Task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                                       POMP2_Task_handle *old_task, int if_clause,
                                       const char ctc[]);
WEFT_EXPORT void POMP2_Task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task);
WEFT_EXPORT void POMP2_Task_begin(POMP2_Region_handle *h, POMP2_Task_handle task);
WEFT_EXPORT void POMP2_Task_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Untied_task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                                              POMP2_Task_handle *old_task, int if_clause,
                                              const char ctc[]);
WEFT_EXPORT void POMP2_Untied_task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task);
WEFT_EXPORT void POMP2_Untied_task_begin(POMP2_Region_handle *h, POMP2_Task_handle task);
WEFT_EXPORT void POMP2_Untied_task_end(POMP2_Region_handle *h);
WEFT_EXPORT void POMP2_Init_lock(void *lock);
WEFT_EXPORT void POMP2_Destroy_lock(void *lock);
WEFT_EXPORT void POMP2_Set_lock(void *lock);
WEFT_EXPORT void POMP2_Unset_lock(void *lock);
WEFT_EXPORT int POMP2_Test_lock(void *lock);
WEFT_EXPORT void POMP2_Init_nest_lock(void *lock);
WEFT_EXPORT void POMP2_Destroy_nest_lock(void *lock);
WEFT_EXPORT void POMP2_Set_nest_lock(void *lock);
WEFT_EXPORT void POMP2_Unset_nest_lock(void *lock);
WEFT_EXPORT int POMP2_Test_nest_lock(void *lock);
/* clang-format on */

/* ---- handles, control, user regions -------------------------------------- */

void POMP2_Assign_handle(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_assign(H(h), CTC(ctc));
}
void POMP2_USER_Assign_handle(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_assign(H(h), CTC(ctc));
}
POMP2_Task_handle POMP2_Get_new_task_handle(void)
{
    return weft__pomp_new_task_handle();
}
int POMP2_Lib_get_max_threads(void)
{
    return weft__omp_max_threads();
}
void POMP2_Init(void)
{
    weft__pomp_init();
}
void POMP2_Finalize(void)
{
    weft_finalize();
}
void POMP2_On(void)
{
    weft_recording_set(true);
}
void POMP2_Off(void)
{
    weft_recording_set(false);
}
void POMP2_Begin(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_MAIN);
}
void POMP2_End(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_MAIN);
}

/* ---- parallel regions ------------------------------------------------------ */

void POMP2_Parallel_fork(POMP2_Region_handle *h, int if_clause, int num_threads,
                         POMP2_Task_handle *old_task, const char ctc[])
{
    weft__pomp_parallel_fork(H(h), if_clause, num_threads, old_task, CTC(ctc));
}
void POMP2_Parallel_begin(POMP2_Region_handle *h)
{
    weft__pomp_parallel_begin(H(h));
}
void POMP2_Parallel_end(POMP2_Region_handle *h)
{
    weft__pomp_parallel_end(H(h));
}
void POMP2_Parallel_join(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    (void)h;
    weft__pomp_join(old_task);
}

/* ---- worksharing and synchronisation ---------------------------------------- */

void POMP2_For_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_WORK);
}
void POMP2_For_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_WORK);
}
void POMP2_Sections_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_WORK);
}
void POMP2_Sections_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_WORK);
}
void POMP2_Section_begin(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_BLOCK);
}
void POMP2_Section_end(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_BLOCK);
}
void POMP2_Workshare_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_WORK);
}
void POMP2_Workshare_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_WORK);
}
void POMP2_Single_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_MAIN);
}
void POMP2_Single_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_MAIN);
}
void POMP2_Single_begin(POMP2_Region_handle *h)
{
    weft__pomp_enter(H(h), NULL, 0, POMP_BLOCK);
}
void POMP2_Single_end(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_BLOCK);
}
void POMP2_Master_begin(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_MAIN);
}
void POMP2_Master_end(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_MAIN);
}
void POMP2_Critical_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_MAIN);
}
void POMP2_Critical_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_MAIN);
}
void POMP2_Critical_begin(POMP2_Region_handle *h)
{
    weft__pomp_critical_begin(H(h));
}
void POMP2_Critical_end(POMP2_Region_handle *h)
{
    weft__pomp_critical_end(H(h));
}
void POMP2_Atomic_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_MAIN);
}
void POMP2_Atomic_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_MAIN);
}
void POMP2_Flush_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_MAIN);
}
void POMP2_Flush_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_MAIN);
}
void POMP2_Ordered_enter(POMP2_Region_handle *h, const char ctc[])
{
    weft__pomp_enter(H(h), CTC(ctc), POMP_MAIN);
}
void POMP2_Ordered_exit(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_MAIN);
}
void POMP2_Ordered_begin(POMP2_Region_handle *h)
{
    weft__pomp_enter(H(h), NULL, 0, POMP_BLOCK);
}
void POMP2_Ordered_end(POMP2_Region_handle *h)
{
    weft__pomp_leave(H(h), POMP_BLOCK);
}

void POMP2_Barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task, const char ctc[])
{
    weft__pomp_sync_enter(H(h), old_task, CTC(ctc), POMP_MAIN);
}
void POMP2_Barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    weft__pomp_sync_exit(H(h), old_task, POMP_MAIN);
}
void POMP2_Implicit_barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task)
{
    weft__pomp_sync_enter(H(h), old_task, NULL, 0, POMP_BARRIER);
}
void POMP2_Implicit_barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    weft__pomp_sync_exit(H(h), old_task, POMP_BARRIER);
}
void POMP2_Taskwait_begin(POMP2_Region_handle *h, POMP2_Task_handle *old_task, const char ctc[])
{
    weft__pomp_sync_enter(H(h), old_task, CTC(ctc), POMP_MAIN);
}
void POMP2_Taskwait_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    weft__pomp_sync_exit(H(h), old_task, POMP_MAIN);
}

/* ---- tasks (tied and untied alike; the region's role tells them apart) ----- */

void POMP2_Task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                             POMP2_Task_handle *old_task, int if_clause, const char ctc[])
{
    (void)if_clause; /* OPARI2 only calls this when the if clause holds */
    weft__pomp_task_create_begin(H(h), new_task, old_task, CTC(ctc), false);
}
void POMP2_Task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    weft__pomp_task_create_end(H(h), old_task, false);
}
void POMP2_Task_begin(POMP2_Region_handle *h, POMP2_Task_handle task)
{
    weft__pomp_task_begin(H(h), task, false);
}
void POMP2_Task_end(POMP2_Region_handle *h)
{
    weft__pomp_task_end(H(h), false);
}
void POMP2_Untied_task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                                    POMP2_Task_handle *old_task, int if_clause, const char ctc[])
{
    (void)if_clause;
    weft__pomp_task_create_begin(H(h), new_task, old_task, CTC(ctc), true);
}
void POMP2_Untied_task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    weft__pomp_task_create_end(H(h), old_task, true);
}
void POMP2_Untied_task_begin(POMP2_Region_handle *h, POMP2_Task_handle task)
{
    weft__pomp_task_begin(H(h), task, true);
}
void POMP2_Untied_task_end(POMP2_Region_handle *h)
{
    weft__pomp_task_end(H(h), true);
}

/* ---- OpenMP lock routines ------------------------------------------------------ */

void POMP2_Init_lock(void *lock)
{
    weft__pomp_lock(OMP_INIT_LOCK, lock, false);
}
void POMP2_Destroy_lock(void *lock)
{
    weft__pomp_lock(OMP_DESTROY_LOCK, lock, false);
}
void POMP2_Set_lock(void *lock)
{
    weft__pomp_lock(OMP_SET_LOCK, lock, false);
}
void POMP2_Unset_lock(void *lock)
{
    weft__pomp_lock(OMP_UNSET_LOCK, lock, false);
}
int POMP2_Test_lock(void *lock)
{
    return weft__pomp_lock(OMP_TEST_LOCK, lock, false);
}
void POMP2_Init_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_INIT_NEST_LOCK, lock, false);
}
void POMP2_Destroy_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_DESTROY_NEST_LOCK, lock, false);
}
void POMP2_Set_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_SET_NEST_LOCK, lock, false);
}
void POMP2_Unset_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_UNSET_NEST_LOCK, lock, false);
}
int POMP2_Test_nest_lock(void *lock)
{
    return weft__pomp_lock(OMP_TEST_NEST_LOCK, lock, false);
}
