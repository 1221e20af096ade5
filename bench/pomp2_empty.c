/* OPARI2's POMP2 routines with empty bodies (the lock routines only call
 * the OpenMP runtime's): linked into a program that `weft compile`
 * instrumented, in place of libweft, it measures what OPARI2's rewriting
 * of the source costs by itself - an explicit barrier before every
 * implicit one, the num_threads and firstprivate clauses, a call per
 * construct - which weft's POMP2 rows pay and none of it is recording.
 * bench/run-apps runs it beside the plain and the traced programs. */
#include <omp.h>
#include <opari2/pomp2_lib.h>

#define UNUSED __attribute__((unused))
typedef POMP2_Region_handle handle;
typedef POMP2_Task_handle task;

/* Region handles stay 0: nothing reads them. */
void POMP2_Assign_handle(handle *h UNUSED, const char ctc[] UNUSED) {}
task POMP2_Get_new_task_handle(void) { return 0; }
int POMP2_Lib_get_max_threads(void) { return omp_get_max_threads(); }

/* Constructs entered with their description, left without. */
#define ENTER_LEAVE(enter, leave)                                                                  \
    void enter(handle *h UNUSED, const char ctc[] UNUSED) {}                                       \
    void leave(handle *h UNUSED) {}
ENTER_LEAVE(POMP2_Atomic_enter, POMP2_Atomic_exit)
ENTER_LEAVE(POMP2_Flush_enter, POMP2_Flush_exit)
ENTER_LEAVE(POMP2_Critical_enter, POMP2_Critical_exit)
ENTER_LEAVE(POMP2_For_enter, POMP2_For_exit)
ENTER_LEAVE(POMP2_Master_begin, POMP2_Master_end)
ENTER_LEAVE(POMP2_Section_begin, POMP2_Section_end)
ENTER_LEAVE(POMP2_Sections_enter, POMP2_Sections_exit)
ENTER_LEAVE(POMP2_Single_enter, POMP2_Single_exit)
ENTER_LEAVE(POMP2_Workshare_enter, POMP2_Workshare_exit)
ENTER_LEAVE(POMP2_Ordered_enter, POMP2_Ordered_exit)

/* Events with the handle alone. */
#define HANDLE_ONLY(name) void name(handle *h UNUSED) {}
HANDLE_ONLY(POMP2_Critical_begin)
HANDLE_ONLY(POMP2_Critical_end)
HANDLE_ONLY(POMP2_Parallel_begin)
HANDLE_ONLY(POMP2_Parallel_end)
HANDLE_ONLY(POMP2_Single_begin)
HANDLE_ONLY(POMP2_Single_end)
HANDLE_ONLY(POMP2_Ordered_begin)
HANDLE_ONLY(POMP2_Ordered_end)
HANDLE_ONLY(POMP2_Task_end)
HANDLE_ONLY(POMP2_Untied_task_end)

/* Task scheduling points: the current task saved, then given back. */
#define SAVE_RESTORE(save, restore)                                                                \
    void save(handle *h UNUSED, task *old, const char ctc[] UNUSED) { *old = 0; }                  \
    void restore(handle *h UNUSED, task old UNUSED) {}
SAVE_RESTORE(POMP2_Barrier_enter, POMP2_Barrier_exit)
SAVE_RESTORE(POMP2_Taskwait_begin, POMP2_Taskwait_end)
void POMP2_Implicit_barrier_enter(handle *h UNUSED, task *old) { *old = 0; }
void POMP2_Implicit_barrier_exit(handle *h UNUSED, task old UNUSED) {}

void POMP2_Parallel_fork(handle *h UNUSED, int if_clause UNUSED, int num_threads UNUSED, task *old,
                         const char ctc[] UNUSED)
{
    *old = 0;
}
void POMP2_Parallel_join(handle *h UNUSED, task old UNUSED) {}

#define TASK(create_begin, create_end, begin)                                                      \
    void create_begin(handle *h UNUSED, task *new_task, task *old, int if_clause UNUSED,           \
                      const char ctc[] UNUSED)                                                     \
    {                                                                                              \
        *new_task = *old = 0;                                                                      \
    }                                                                                              \
    void create_end(handle *h UNUSED, task old UNUSED) {}                                          \
    void begin(handle *h UNUSED, task t UNUSED) {}
TASK(POMP2_Task_create_begin, POMP2_Task_create_end, POMP2_Task_begin)
TASK(POMP2_Untied_task_create_begin, POMP2_Untied_task_create_end, POMP2_Untied_task_begin)

/* OPARI2 turns omp_*_lock calls into these: they must still lock. */
void POMP2_Init_lock(omp_lock_t *s) { omp_init_lock(s); }
void POMP2_Destroy_lock(omp_lock_t *s) { omp_destroy_lock(s); }
void POMP2_Set_lock(omp_lock_t *s) { omp_set_lock(s); }
void POMP2_Unset_lock(omp_lock_t *s) { omp_unset_lock(s); }
int POMP2_Test_lock(omp_lock_t *s) { return omp_test_lock(s); }
void POMP2_Init_nest_lock(omp_nest_lock_t *s) { omp_init_nest_lock(s); }
void POMP2_Destroy_nest_lock(omp_nest_lock_t *s) { omp_destroy_nest_lock(s); }
void POMP2_Set_nest_lock(omp_nest_lock_t *s) { omp_set_nest_lock(s); }
void POMP2_Unset_nest_lock(omp_nest_lock_t *s) { omp_unset_nest_lock(s); }
int POMP2_Test_nest_lock(omp_nest_lock_t *s) { return omp_test_nest_lock(s); }
/* SPDX-License-Identifier: BSD-3-Clause */
