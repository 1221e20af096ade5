/* SPDX-License-Identifier: BSD-3-Clause */
/* The merged POMP performance monitoring interface for OpenMP (the joint
 * proposal of Juelich, Oregon, Pallas and Intel KSL, 2002), as weft
 * implements it. Programs instrumented by hand include this header and link
 * with `pkg-config --libs weft`; running them records an OTF2 trace.
 *
 * Every routine has the parameters of the proposal's tables and returns an
 * int32_t code (POMP_SUCCESS or one of the POMP_ERROR_* below). The calling
 * thread's OpenMP thread number is passed to each event (weft knows the
 * calling thread itself and does not rely on it). The first event of a
 * construct takes a pointer to the construct's handle (a zero-initialised
 * POMP_Handle_t) and, last, its CTC string "<length>*key=value*...**"; it
 * initialises the handle from the string when the handle is still unset
 * (thread-safely). Later events of the construct take the handle by value.
 * POMP_Get_handle initialises a handle up front, so that first events may
 * then pass NULL as the CTC string. A call of an OpenMP runtime routine is
 * a construct of its own, whose CTC type is the routine's name
 * ("0*type=omp_set_lock*file=f.c*lines=12,12**").
 *
 * The lock routines' events take the lock by value, as the proposal has it;
 * this header includes <omp.h> for omp_lock_t and omp_nest_lock_t. GCC's
 * libgomp keeps a lock's state in that value, so the value cannot tell one
 * lock from another; each lock event is therefore also a macro of the same
 * name that hands weft the lock's address instead. Calls written as in the
 * proposal, POMP_Set_lock_enter(&h, tid, lock, ctc), use the macro and need
 * the lock to be a variable (an lvalue). The function of the same name (by
 * value; reached by taking its address or as (POMP_Set_lock_enter)(...)) can
 * identify a lock only where the runtime keeps a reference to it in the
 * value (LLVM's libomp); under libgomp it records the event's region but no
 * lock acquisition or release (see weft's docs/OPENMP-POMP2.md).
 *
 * Which events are recorded is chosen at run time, per group, by the
 * environment variables POMP_PARALLEL, POMP_LOOP, POMP_WORKSHARE, POMP_SYNC,
 * POMP_USER and POMP_RUNTIME (see weft's docs/OPENMP-POMP2.md). */
#ifndef POMPLIB_H
#define POMPLIB_H

#include <stddef.h>
#include <stdint.h>

/* libweft itself is built without an OpenMP runtime's header (it serves
 * every runtime): it defines WEFT_POMPLIB_NO_OMP_H and gets all but the
 * by-value lock forms at the end. */
#ifndef WEFT_POMPLIB_NO_OMP_H
#include <omp.h>
#endif

#ifdef _POMP
#undef _POMP
#endif
#include <weft/compiler.h>

/* YYYYMM of the interface version: the proposal as published in 2002. */
#define _POMP 200209

#ifdef __cplusplus
extern "C" {
#endif

typedef void *POMP_Handle_t;

/* Return codes. */
#define POMP_SUCCESS 0
/* Neither a valid handle nor a CTC string: nothing recorded (a lock event
 * still records what it does to the lock, so its lock events stay paired). */
#define POMP_ERROR_NO_HANDLE 1
/* The CTC string is malformed (one line on stderr names the problem): the
 * construct is recorded under what could be read, or as unknown. */
#define POMP_ERROR_BAD_CTC 2
/* A lock event without a lock (only weft_pomp_*_at can be given none):
 * nothing recorded. */
#define POMP_ERROR_NO_LOCK 3

/* ---- control ------------------------------------------------------------- */
/* POMP_Init also calls every POMP_Init_<id>() function the program defines
 * (found in its symbol table); the library initialises and finalises itself
 * when the program does not call these. */
WEFT_EXPORT int32_t POMP_Init(void);
WEFT_EXPORT int32_t POMP_Finalize(void);
WEFT_EXPORT int32_t POMP_On(void);
WEFT_EXPORT int32_t POMP_Off(void);
WEFT_EXPORT int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]);

/* ---- parallel regions ------------------------------------------------------ */
/* num_threads and if_expr_result: the clauses' values, -1 when not given. */
WEFT_EXPORT int32_t POMP_Parallel_enter(POMP_Handle_t *handle, int32_t thread_id,
                                        int32_t num_threads, int32_t if_expr_result, char ctc[]);
WEFT_EXPORT int32_t POMP_Parallel_begin(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Parallel_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Parallel_exit(POMP_Handle_t handle, int32_t thread_id);

/* ---- loops ----------------------------------------------------------------- */
WEFT_EXPORT int32_t POMP_Loop_enter(POMP_Handle_t *handle, int32_t thread_id, int64_t chunk_size,
                                    int64_t init_iter, int64_t final_iter, int64_t incr,
                                    char ctc[]);
WEFT_EXPORT int32_t POMP_Loop_chunk_begin(POMP_Handle_t handle, int32_t thread_id,
                                          int64_t init_iter, int64_t final_iter);
WEFT_EXPORT int32_t POMP_Loop_chunk_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Loop_iter_begin(POMP_Handle_t handle, int32_t thread_id, int64_t iter);
WEFT_EXPORT int32_t POMP_Loop_iter_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Loop_iter_event(POMP_Handle_t handle, int32_t thread_id, int64_t iter);
WEFT_EXPORT int32_t POMP_Loop_exit(POMP_Handle_t handle, int32_t thread_id);

/* ---- worksharing ------------------------------------------------------------ */
WEFT_EXPORT int32_t POMP_Workshare_enter(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Workshare_begin(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Workshare_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Workshare_exit(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Sections_enter(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Sections_exit(POMP_Handle_t handle, int32_t thread_id);
/* The section number comes before the thread number, as in the proposal. */
WEFT_EXPORT int32_t POMP_Section_begin(POMP_Handle_t handle, int32_t section_num,
                                       int32_t thread_id);
WEFT_EXPORT int32_t POMP_Section_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Single_enter(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Single_begin(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Single_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Single_exit(POMP_Handle_t handle, int32_t thread_id);

/* ---- synchronisation -------------------------------------------------------- */
WEFT_EXPORT int32_t POMP_Critical_enter(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Critical_begin(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Critical_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Critical_exit(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Ordered_enter(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Ordered_begin(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Ordered_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Ordered_exit(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Master_begin(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Master_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Barrier_enter(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Barrier_exit(POMP_Handle_t handle, int32_t thread_id);
/* The implicit barrier has a handle and CTC string of its own; the string
 * describes the construct the barrier ends (its type and elines). */
WEFT_EXPORT int32_t POMP_Implicit_barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                                                char ctc[]);
WEFT_EXPORT int32_t POMP_Implicit_barrier_exit(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Atomic_event(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Flush_event(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);

/* ---- functions and user regions ---------------------------------------------- */
WEFT_EXPORT int32_t POMP_Function_enter(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Function_exit(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Function_begin(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_Function_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_Function_event(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_User_region_begin(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);
WEFT_EXPORT int32_t POMP_User_region_end(POMP_Handle_t handle, int32_t thread_id);
WEFT_EXPORT int32_t POMP_User_event(POMP_Handle_t *handle, int32_t thread_id, char ctc[]);

/* ---- OpenMP runtime library: routines that set or return a value ------------- */
WEFT_EXPORT int32_t POMP_Set_num_threads_event(POMP_Handle_t *handle, int32_t thread_id,
                                               int32_t num_threads, char ctc[]);
WEFT_EXPORT int32_t POMP_Get_num_threads_event(POMP_Handle_t *handle, int32_t thread_id,
                                               int32_t num_threads, char ctc[]);
WEFT_EXPORT int32_t POMP_Get_max_threads_event(POMP_Handle_t *handle, int32_t thread_id,
                                               int32_t num_threads, char ctc[]);
WEFT_EXPORT int32_t POMP_Get_thread_num_event(POMP_Handle_t *handle, int32_t thread_id,
                                              int32_t thread_num, char ctc[]);
WEFT_EXPORT int32_t POMP_Get_num_procs_event(POMP_Handle_t *handle, int32_t thread_id,
                                             int32_t num_procs, char ctc[]);
WEFT_EXPORT int32_t POMP_In_parallel_event(POMP_Handle_t *handle, int32_t thread_id,
                                           int32_t is_parallel, char ctc[]);
WEFT_EXPORT int32_t POMP_Set_dynamic_event(POMP_Handle_t *handle, int32_t thread_id,
                                           int32_t is_dynamic, char ctc[]);
WEFT_EXPORT int32_t POMP_Get_dynamic_event(POMP_Handle_t *handle, int32_t thread_id,
                                           int32_t is_dynamic, char ctc[]);
WEFT_EXPORT int32_t POMP_Set_nested_event(POMP_Handle_t *handle, int32_t thread_id,
                                          int32_t is_nested, char ctc[]);
WEFT_EXPORT int32_t POMP_Get_nested_event(POMP_Handle_t *handle, int32_t thread_id,
                                          int32_t is_nested, char ctc[]);

/* ---- OpenMP runtime library: locks, weft's entry points ----------------------- */
/* What the proposal's lock events (below) call. `lock` is the lock
 * variable's address when lock_value_size is 0; otherwise it points to a
 * copy of the lock's value, lock_value_size bytes (the by-value forms). A
 * lock is known by its address, or by its value where that identifies it.
 * The CTC string may be const here. */
WEFT_EXPORT int32_t weft_pomp_init_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                 const void *lock, size_t lock_value_size,
                                                 const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_destroy_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                    const void *lock, size_t lock_value_size,
                                                    const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_set_lock_enter_at(POMP_Handle_t *handle, int32_t thread_id,
                                                const void *lock, size_t lock_value_size,
                                                const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_set_lock_exit_at(POMP_Handle_t handle, int32_t thread_id,
                                               const void *lock, size_t lock_value_size);
WEFT_EXPORT int32_t weft_pomp_set_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                const void *lock, size_t lock_value_size,
                                                const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_unset_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                  const void *lock, size_t lock_value_size,
                                                  const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_test_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                 const void *lock, size_t lock_value_size,
                                                 int32_t was_lock_set, const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_init_nest_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                      const void *lock, size_t lock_value_size,
                                                      const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_destroy_nest_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                         const void *lock, size_t lock_value_size,
                                                         const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_set_nest_lock_enter_at(POMP_Handle_t *handle, int32_t thread_id,
                                                     const void *lock, size_t lock_value_size,
                                                     const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_set_nest_lock_exit_at(POMP_Handle_t handle, int32_t thread_id,
                                                    const void *lock, size_t lock_value_size);
WEFT_EXPORT int32_t weft_pomp_set_nest_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                     const void *lock, size_t lock_value_size,
                                                     const char ctc[]);
WEFT_EXPORT int32_t weft_pomp_unset_nest_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                       const void *lock, size_t lock_value_size,
                                                       const char ctc[]);
/* was_lock_set: omp_test_nest_lock's result, the new nesting depth or 0. */
WEFT_EXPORT int32_t weft_pomp_test_nest_lock_event_at(POMP_Handle_t *handle, int32_t thread_id,
                                                      const void *lock, size_t lock_value_size,
                                                      int32_t was_lock_set, const char ctc[]);

#ifndef WEFT_POMPLIB_NO_OMP_H
/* ---- OpenMP runtime library: locks, the proposal's routines -------------------- */
/* The functions, by value as in the proposal. They are defined here, not in
 * libweft, because omp_lock_t's size and so how it is passed differ between
 * runtimes (4 bytes in libgomp, a pointer in libomp; omp_nest_lock_t 16
 * bytes or a pointer): compiled with the program, they take the lock as
 * the program's own omp.h has it. */
static inline int32_t POMP_Init_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                           omp_lock_t lock_id, char ctc[])
{
    return weft_pomp_init_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Destroy_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                              omp_lock_t lock_id, char ctc[])
{
    return weft_pomp_destroy_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Set_lock_enter(POMP_Handle_t *handle, int32_t thread_id,
                                          omp_lock_t lock_id, char ctc[])
{
    return weft_pomp_set_lock_enter_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Set_lock_exit(POMP_Handle_t handle, int32_t thread_id,
                                         omp_lock_t lock_id)
{
    return weft_pomp_set_lock_exit_at(handle, thread_id, &lock_id, sizeof(lock_id));
}

static inline int32_t POMP_Set_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                          omp_lock_t lock_id, char ctc[])
{
    return weft_pomp_set_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Unset_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                            omp_lock_t lock_id, char ctc[])
{
    return weft_pomp_unset_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Test_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                           omp_lock_t lock_id, int32_t was_lock_set, char ctc[])
{
    return weft_pomp_test_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), was_lock_set,
                                        ctc);
}

static inline int32_t POMP_Init_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                                omp_nest_lock_t lock_id, char ctc[])
{
    return weft_pomp_init_nest_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Destroy_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                                   omp_nest_lock_t lock_id, char ctc[])
{
    return weft_pomp_destroy_nest_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Set_nest_lock_enter(POMP_Handle_t *handle, int32_t thread_id,
                                               omp_nest_lock_t lock_id, char ctc[])
{
    return weft_pomp_set_nest_lock_enter_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Set_nest_lock_exit(POMP_Handle_t handle, int32_t thread_id,
                                              omp_nest_lock_t lock_id)
{
    return weft_pomp_set_nest_lock_exit_at(handle, thread_id, &lock_id, sizeof(lock_id));
}

static inline int32_t POMP_Set_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                               omp_nest_lock_t lock_id, char ctc[])
{
    return weft_pomp_set_nest_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Unset_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                                 omp_nest_lock_t lock_id, char ctc[])
{
    return weft_pomp_unset_nest_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id), ctc);
}

static inline int32_t POMP_Test_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                                omp_nest_lock_t lock_id, int32_t was_lock_set,
                                                char ctc[])
{
    return weft_pomp_test_nest_lock_event_at(handle, thread_id, &lock_id, sizeof(lock_id),
                                             was_lock_set, ctc);
}

/* The same names as macros: a call written as the proposal writes it
 * passes the lock variable, whose address these hand on (lock_value_size
 * 0), so every runtime's locks are told apart. */
#define POMP_Init_lock_event(handle, thread_id, lock_id, ctc)                                      \
    weft_pomp_init_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Destroy_lock_event(handle, thread_id, lock_id, ctc)                                   \
    weft_pomp_destroy_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Set_lock_enter(handle, thread_id, lock_id, ctc)                                       \
    weft_pomp_set_lock_enter_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Set_lock_exit(handle, thread_id, lock_id)                                             \
    weft_pomp_set_lock_exit_at((handle), (thread_id), &(lock_id), 0)
#define POMP_Set_lock_event(handle, thread_id, lock_id, ctc)                                       \
    weft_pomp_set_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Unset_lock_event(handle, thread_id, lock_id, ctc)                                     \
    weft_pomp_unset_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Test_lock_event(handle, thread_id, lock_id, was_lock_set, ctc)                        \
    weft_pomp_test_lock_event_at((handle), (thread_id), &(lock_id), 0, (was_lock_set), (ctc))
#define POMP_Init_nest_lock_event(handle, thread_id, lock_id, ctc)                                 \
    weft_pomp_init_nest_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Destroy_nest_lock_event(handle, thread_id, lock_id, ctc)                              \
    weft_pomp_destroy_nest_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Set_nest_lock_enter(handle, thread_id, lock_id, ctc)                                  \
    weft_pomp_set_nest_lock_enter_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Set_nest_lock_exit(handle, thread_id, lock_id)                                        \
    weft_pomp_set_nest_lock_exit_at((handle), (thread_id), &(lock_id), 0)
#define POMP_Set_nest_lock_event(handle, thread_id, lock_id, ctc)                                  \
    weft_pomp_set_nest_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Unset_nest_lock_event(handle, thread_id, lock_id, ctc)                                \
    weft_pomp_unset_nest_lock_event_at((handle), (thread_id), &(lock_id), 0, (ctc))
#define POMP_Test_nest_lock_event(handle, thread_id, lock_id, was_lock_set, ctc)                   \
    weft_pomp_test_nest_lock_event_at((handle), (thread_id), &(lock_id), 0, (was_lock_set), (ctc))
#endif /* WEFT_POMPLIB_NO_OMP_H */

#ifdef __cplusplus
}
#endif

#endif /* POMPLIB_H */
