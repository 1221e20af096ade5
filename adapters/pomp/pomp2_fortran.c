/* SPDX-License-Identifier: BSD-3-Clause */
/* The POMP2 interface for Fortran programs instrumented by OPARI2, in
 * gfortran's conventions: lower-case names with one trailing underscore,
 * every argument by reference, region handles as INTEGER*8, LOGICAL as a
 * 4-byte int, and each CHARACTER argument's length passed as a hidden
 * size_t after the visible arguments (gfortran 8 and later). The CTC strings
 * are not NUL-terminated: their length is that hidden argument. */
#include <stddef.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "pomp_events.h"
#include "weft/recorder.h"

typedef int64_t fhandle; /* INTEGER*8 region handle */
typedef int64_t ftask;   /* INTEGER*8 task handle */
typedef int32_t flogical;

#define H(handle) ((void **)(handle))
/* clang-format off */
#define F_ENTER(name, part)                                                                \
    WEFT_EXPORT void name(fhandle *h, const char *ctc, size_t len);                               \
    void name(fhandle *h, const char *ctc, size_t len) { weft__pomp_enter(H(h), ctc, len, part); }
#define F_ENTER_NO_CTC(name, part)                                                         \
    WEFT_EXPORT void name(fhandle *h);                                                            \
    void name(fhandle *h) { weft__pomp_enter(H(h), NULL, 0, part); }
#define F_LEAVE(name, part)                                                                \
    WEFT_EXPORT void name(fhandle *h);                                                            \
    void name(fhandle *h) { weft__pomp_leave(H(h), part); }
#define F_LOCK(name, call)                                                                 \
    WEFT_EXPORT void name(void *lock);                                                            \
    void name(void *lock) { weft__pomp_lock(call, lock, true); }
#define F_TEST_LOCK(name, call)                                                            \
    WEFT_EXPORT int32_t name(void *lock);                                                         \
    int32_t name(void *lock) { return weft__pomp_lock(call, lock, true); }

F_ENTER(pomp2_begin_, POMP_MAIN)                F_LEAVE(pomp2_end_, POMP_MAIN)
F_ENTER(pomp2_do_enter_, POMP_WORK)             F_LEAVE(pomp2_do_exit_, POMP_WORK)
F_ENTER(pomp2_sections_enter_, POMP_WORK)       F_LEAVE(pomp2_sections_exit_, POMP_WORK)
F_ENTER(pomp2_section_begin_, POMP_BLOCK)       F_LEAVE(pomp2_section_end_, POMP_BLOCK)
F_ENTER(pomp2_workshare_enter_, POMP_WORK)      F_LEAVE(pomp2_workshare_exit_, POMP_WORK)
F_ENTER(pomp2_single_enter_, POMP_MAIN)         F_LEAVE(pomp2_single_exit_, POMP_MAIN)
F_ENTER_NO_CTC(pomp2_single_begin_, POMP_BLOCK) F_LEAVE(pomp2_single_end_, POMP_BLOCK)
F_ENTER(pomp2_master_begin_, POMP_MAIN)         F_LEAVE(pomp2_master_end_, POMP_MAIN)
F_ENTER(pomp2_critical_enter_, POMP_MAIN)       F_LEAVE(pomp2_critical_exit_, POMP_MAIN)
F_ENTER(pomp2_atomic_enter_, POMP_MAIN)         F_LEAVE(pomp2_atomic_exit_, POMP_MAIN)
F_ENTER(pomp2_flush_enter_, POMP_MAIN)          F_LEAVE(pomp2_flush_exit_, POMP_MAIN)
F_ENTER(pomp2_ordered_enter_, POMP_MAIN)        F_LEAVE(pomp2_ordered_exit_, POMP_MAIN)
F_ENTER_NO_CTC(pomp2_ordered_begin_, POMP_BLOCK) F_LEAVE(pomp2_ordered_end_, POMP_BLOCK)

F_LOCK(pomp2_init_lock_, OMP_INIT_LOCK)               F_LOCK(pomp2_destroy_lock_, OMP_DESTROY_LOCK)
F_LOCK(pomp2_set_lock_, OMP_SET_LOCK)                 F_LOCK(pomp2_unset_lock_, OMP_UNSET_LOCK)
F_TEST_LOCK(pomp2_test_lock_, OMP_TEST_LOCK)
F_LOCK(pomp2_init_nest_lock_, OMP_INIT_NEST_LOCK)     F_LOCK(pomp2_destroy_nest_lock_, OMP_DESTROY_NEST_LOCK)
F_LOCK(pomp2_set_nest_lock_, OMP_SET_NEST_LOCK)       F_LOCK(pomp2_unset_nest_lock_, OMP_UNSET_NEST_LOCK)
F_TEST_LOCK(pomp2_test_nest_lock_, OMP_TEST_NEST_LOCK)

WEFT_EXPORT void pomp2_assign_handle_(fhandle *h, const char *ctc, size_t len);
WEFT_EXPORT void pomp2_user_assign_handle_(fhandle *h, const char *ctc, size_t len);
WEFT_EXPORT int32_t pomp2_lib_get_max_threads_(void);
WEFT_EXPORT void pomp2_init_(void);
WEFT_EXPORT void pomp2_finalize_(void);
WEFT_EXPORT void pomp2_on_(void);
WEFT_EXPORT void pomp2_off_(void);
WEFT_EXPORT void pomp2_parallel_fork_(fhandle *h, flogical *if_clause, int32_t *num_threads, ftask *old_task, const char *ctc, size_t len);
WEFT_EXPORT void pomp2_parallel_begin_(fhandle *h);
WEFT_EXPORT void pomp2_parallel_end_(fhandle *h);
WEFT_EXPORT void pomp2_parallel_join_(fhandle *h, ftask *old_task);
WEFT_EXPORT void pomp2_critical_begin_(fhandle *h);
WEFT_EXPORT void pomp2_critical_end_(fhandle *h);
WEFT_EXPORT void pomp2_barrier_enter_(fhandle *h, ftask *old_task, const char *ctc, size_t len);
WEFT_EXPORT void pomp2_barrier_exit_(fhandle *h, ftask *old_task);
WEFT_EXPORT void pomp2_implicit_barrier_enter_(fhandle *h, ftask *old_task);
WEFT_EXPORT void pomp2_implicit_barrier_exit_(fhandle *h, ftask *old_task);
WEFT_EXPORT void pomp2_taskwait_begin_(fhandle *h, ftask *old_task, const char *ctc, size_t len);
WEFT_EXPORT void pomp2_taskwait_end_(fhandle *h, ftask *old_task);
WEFT_EXPORT void pomp2_task_create_begin_(fhandle *h, ftask *new_task, ftask *old_task, flogical *if_clause, const char *ctc, size_t len);
WEFT_EXPORT void pomp2_task_create_end_(fhandle *h, ftask *old_task);
WEFT_EXPORT void pomp2_task_begin_(fhandle *h, ftask *task);
WEFT_EXPORT void pomp2_task_end_(fhandle *h);
WEFT_EXPORT void pomp2_untied_task_create_begin_(fhandle *h, ftask *new_task, ftask *old_task, flogical *if_clause, const char *ctc, size_t len);
WEFT_EXPORT void pomp2_untied_task_create_end_(fhandle *h, ftask *old_task);
WEFT_EXPORT void pomp2_untied_task_begin_(fhandle *h, ftask *task);
WEFT_EXPORT void pomp2_untied_task_end_(fhandle *h);
/* clang-format on */

void pomp2_assign_handle_(fhandle *h, const char *ctc, size_t len)
{
    weft__pomp_assign(H(h), ctc, len);
}

void pomp2_user_assign_handle_(fhandle *h, const char *ctc, size_t len)
{
    weft__pomp_assign(H(h), ctc, len);
}

int32_t pomp2_lib_get_max_threads_(void)
{
    return weft__omp_max_threads();
}

void pomp2_init_(void)
{
    weft__pomp_init();
}

void pomp2_finalize_(void)
{
    weft_finalize();
}

void pomp2_on_(void)
{
    weft_recording_set(true);
}

void pomp2_off_(void)
{
    weft_recording_set(false);
}

void pomp2_parallel_fork_(fhandle *h, flogical *if_clause, int32_t *num_threads, ftask *old_task,
                          const char *ctc, size_t len)
{
    weft__pomp_parallel_fork(H(h), if_clause ? *if_clause != 0 : 1, num_threads ? *num_threads : 1,
                             old_task, ctc, len);
}

void pomp2_parallel_begin_(fhandle *h)
{
    weft__pomp_parallel_begin(H(h));
}

void pomp2_parallel_end_(fhandle *h)
{
    weft__pomp_parallel_end(H(h));
}

void pomp2_parallel_join_(fhandle *h, ftask *old_task)
{
    (void)h;
    weft__pomp_join(*old_task);
}

void pomp2_critical_begin_(fhandle *h)
{
    weft__pomp_critical_begin(H(h));
}

void pomp2_critical_end_(fhandle *h)
{
    weft__pomp_critical_end(H(h));
}

void pomp2_barrier_enter_(fhandle *h, ftask *old_task, const char *ctc, size_t len)
{
    weft__pomp_sync_enter(H(h), old_task, ctc, len, POMP_MAIN);
}

void pomp2_barrier_exit_(fhandle *h, ftask *old_task)
{
    weft__pomp_sync_exit(H(h), *old_task, POMP_MAIN);
}

void pomp2_implicit_barrier_enter_(fhandle *h, ftask *old_task)
{
    weft__pomp_sync_enter(H(h), old_task, NULL, 0, POMP_BARRIER);
}

void pomp2_implicit_barrier_exit_(fhandle *h, ftask *old_task)
{
    weft__pomp_sync_exit(H(h), *old_task, POMP_BARRIER);
}

void pomp2_taskwait_begin_(fhandle *h, ftask *old_task, const char *ctc, size_t len)
{
    weft__pomp_sync_enter(H(h), old_task, ctc, len, POMP_MAIN);
}

void pomp2_taskwait_end_(fhandle *h, ftask *old_task)
{
    weft__pomp_sync_exit(H(h), *old_task, POMP_MAIN);
}

void pomp2_task_create_begin_(fhandle *h, ftask *new_task, ftask *old_task, flogical *if_clause,
                              const char *ctc, size_t len)
{
    (void)if_clause; /* OPARI2 only calls this when the if clause holds */
    weft__pomp_task_create_begin(H(h), new_task, old_task, ctc, len, false);
}

void pomp2_task_create_end_(fhandle *h, ftask *old_task)
{
    weft__pomp_task_create_end(H(h), *old_task, false);
}

void pomp2_task_begin_(fhandle *h, ftask *task)
{
    weft__pomp_task_begin(H(h), *task, false);
}

void pomp2_task_end_(fhandle *h)
{
    weft__pomp_task_end(H(h), false);
}

void pomp2_untied_task_create_begin_(fhandle *h, ftask *new_task, ftask *old_task,
                                     flogical *if_clause, const char *ctc, size_t len)
{
    (void)if_clause;
    weft__pomp_task_create_begin(H(h), new_task, old_task, ctc, len, true);
}

void pomp2_untied_task_create_end_(fhandle *h, ftask *old_task)
{
    weft__pomp_task_create_end(H(h), *old_task, true);
}

void pomp2_untied_task_begin_(fhandle *h, ftask *task)
{
    weft__pomp_task_begin(H(h), *task, true);
}

void pomp2_untied_task_end_(fhandle *h)
{
    weft__pomp_task_end(H(h), true);
}
