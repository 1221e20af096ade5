/* The merged POMP performance monitoring interface for OpenMP (the joint
 * proposal of Juelich, Oregon, Pallas and Intel KSL, 2002), as weft
 * implements it. Programs instrumented by hand include this header and link
 * with `pkg-config --libs weft`; running them records an OTF2 trace.
 *
 * Every event routine returns an int32_t code (POMP_SUCCESS or one of the
 * POMP_ERROR_* below) and takes the calling thread's OpenMP thread number
 * second (weft knows the calling thread itself and does not rely on it).
 * The first event of a construct takes a pointer to the construct's handle
 * (a zero-initialised POMP_Handle_t) and, last, its CTC string
 * "<length>*key=value*...**"; it initialises the handle from the string
 * when the handle is still unset (thread-safely). Later events of the
 * construct take the handle by value. POMP_Get_handle initialises a handle
 * up front, so that first events may then pass NULL as the CTC string.
 *
 * Which events are recorded is chosen at run time, per group, by the
 * environment variables POMP_PARALLEL, POMP_LOOP, POMP_WORKSHARE, POMP_SYNC,
 * POMP_USER and POMP_RUNTIME (see weft's docs/OPENMP-POMP2.md). */
#ifndef POMPLIB_H
#define POMPLIB_H

#include <stdint.h>

#ifdef _POMP
#undef _POMP
#endif
/* YYYYMM of the interface version: the proposal as published in 2002. */
#define _POMP 200209

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define POMP_EXPORT __attribute__((visibility("default")))
#else
#define POMP_EXPORT
#endif

typedef void *POMP_Handle_t;

/* Return codes. */
#define POMP_SUCCESS 0
/* Neither a valid handle nor a CTC string: nothing recorded. */
#define POMP_ERROR_NO_HANDLE 1
/* The CTC string is malformed (one line on stderr names the problem): the
 * construct is recorded under what could be read, or as unknown. */
#define POMP_ERROR_BAD_CTC 2
/* A lock routine event without a lock: nothing recorded. */
#define POMP_ERROR_NO_LOCK 3

/* ---- control ------------------------------------------------------------- */
/* POMP_Init also calls every POMP_Init_<id>() function the program defines
 * (found in its symbol table); the library initialises and finalises itself
 * when the program does not call these. */
POMP_EXPORT int32_t POMP_Init(void);
POMP_EXPORT int32_t POMP_Finalize(void);
POMP_EXPORT int32_t POMP_On(void);
POMP_EXPORT int32_t POMP_Off(void);
POMP_EXPORT int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]);

/* ---- parallel regions ------------------------------------------------------ */
/* num_threads and if_expr_result: the clauses' values, -1 when not given. */
POMP_EXPORT int32_t POMP_Parallel_enter(POMP_Handle_t *handle, int32_t thread,
                                        int32_t num_threads, int32_t if_expr_result,
                                        const char ctc[]);
POMP_EXPORT int32_t POMP_Parallel_begin(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Parallel_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Parallel_exit(POMP_Handle_t handle, int32_t thread);

/* ---- loops ----------------------------------------------------------------- */
POMP_EXPORT int32_t POMP_Loop_enter(POMP_Handle_t *handle, int32_t thread, int64_t chunk_size,
                                    int64_t init_iter, int64_t final_iter, int64_t incr,
                                    const char ctc[]);
POMP_EXPORT int32_t POMP_Loop_chunk_begin(POMP_Handle_t handle, int32_t thread,
                                          int64_t init_iter, int64_t final_iter);
POMP_EXPORT int32_t POMP_Loop_chunk_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Loop_iter_begin(POMP_Handle_t handle, int32_t thread, int64_t iter);
POMP_EXPORT int32_t POMP_Loop_iter_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Loop_iter_event(POMP_Handle_t handle, int32_t thread, int64_t iter);
POMP_EXPORT int32_t POMP_Loop_exit(POMP_Handle_t handle, int32_t thread);

/* ---- worksharing ------------------------------------------------------------ */
POMP_EXPORT int32_t POMP_Workshare_enter(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Workshare_exit(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Sections_enter(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Sections_exit(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Section_begin(POMP_Handle_t handle, int32_t thread, int32_t section_num);
POMP_EXPORT int32_t POMP_Section_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Single_enter(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Single_begin(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Single_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Single_exit(POMP_Handle_t handle, int32_t thread);

/* ---- synchronisation -------------------------------------------------------- */
POMP_EXPORT int32_t POMP_Critical_enter(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Critical_begin(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Critical_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Critical_exit(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Ordered_enter(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Ordered_begin(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Ordered_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Ordered_exit(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Master_begin(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Master_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Barrier_enter(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Barrier_exit(POMP_Handle_t handle, int32_t thread);
/* The implicit barrier at the end of the construct whose handle is given. */
POMP_EXPORT int32_t POMP_Implicit_barrier_enter(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Implicit_barrier_exit(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Atomic_event(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Flush_event(POMP_Handle_t *handle, int32_t thread, const char ctc[]);

/* ---- functions and user regions ---------------------------------------------- */
POMP_EXPORT int32_t POMP_Function_enter(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Function_exit(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Function_begin(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_Function_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_Function_event(POMP_Handle_t *handle, int32_t thread, const char ctc[]);
POMP_EXPORT int32_t POMP_User_region_begin(POMP_Handle_t *handle, int32_t thread,
                                           const char ctc[]);
POMP_EXPORT int32_t POMP_User_region_end(POMP_Handle_t handle, int32_t thread);
POMP_EXPORT int32_t POMP_User_event(POMP_Handle_t *handle, int32_t thread, const char ctc[]);

/* ---- OpenMP runtime library: locks (the lock's address identifies it) --------- */
POMP_EXPORT int32_t POMP_Init_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Destroy_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Set_lock_enter(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Set_lock_exit(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Set_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Unset_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Test_lock_event(int32_t thread, void *lock, int32_t was_lock_set);
POMP_EXPORT int32_t POMP_Init_nest_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Destroy_nest_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Set_nest_lock_enter(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Set_nest_lock_exit(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Set_nest_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Unset_nest_lock_event(int32_t thread, void *lock);
POMP_EXPORT int32_t POMP_Test_nest_lock_event(int32_t thread, void *lock, int32_t was_lock_set);

/* ---- OpenMP runtime library: the other routines (value set or returned) ------- */
POMP_EXPORT int32_t POMP_Set_num_threads_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Get_num_threads_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Get_max_threads_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Get_thread_num_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Get_num_procs_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_In_parallel_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Set_dynamic_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Get_dynamic_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Set_nested_event(int32_t thread, int32_t value);
POMP_EXPORT int32_t POMP_Get_nested_event(int32_t thread, int32_t value);

#ifdef __cplusplus
}
#endif

#endif /* POMPLIB_H */
