/* The "every" mode of proposal_program.c: every routine of the merged POMP
 * proposal's tables, called exactly as the tables write them (first events
 * with the handle's address and a CTC string, later ones with the handle,
 * locks by value), in a parallel region of omp_get_max_threads() threads
 * and around it. The CTC strings name file every.c and distinct lines, so
 * that test_pomp_proposal_every.c knows every region; it also knows what
 * each thread calls, as listed at each part below. Prints "num_procs N"
 * (what omp_get_num_procs() returned) and nothing else. */
#include <omp.h>
#include <stdio.h>

#include <pomplib.h>

#include "proposal_program.h"

/* ---- every routine's type, as the proposal's tables give it ----------------- */
/* A pointer of the tabled type, initialised with the routine, does not
 * compile (-Werror) where the header declares the routine otherwise. A lock
 * event's name without a call's parentheses is the by-value function, not
 * the macro. Section_begin's two int32 cannot be told apart by type: its
 * order is checked in the trace (the section numbers). */
typedef int32_t (*later_fn)(POMP_Handle_t, int32_t);
typedef int32_t (*first_fn)(POMP_Handle_t *, int32_t, char[]);
typedef int32_t (*parallel_enter_fn)(POMP_Handle_t *, int32_t, int32_t, int32_t, char[]);
typedef int32_t (*loop_enter_fn)(POMP_Handle_t *, int32_t, int64_t, int64_t, int64_t, int64_t,
                                 char[]);
typedef int32_t (*chunk_begin_fn)(POMP_Handle_t, int32_t, int64_t, int64_t);
typedef int32_t (*iter_fn)(POMP_Handle_t, int32_t, int64_t);
typedef int32_t (*section_begin_fn)(POMP_Handle_t, int32_t, int32_t);
typedef int32_t (*value_fn)(POMP_Handle_t *, int32_t, int32_t, char[]);
typedef int32_t (*lock_fn)(POMP_Handle_t *, int32_t, omp_lock_t, char[]);
typedef int32_t (*lock_exit_fn)(POMP_Handle_t, int32_t, omp_lock_t);
typedef int32_t (*lock_test_fn)(POMP_Handle_t *, int32_t, omp_lock_t, int32_t, char[]);
typedef int32_t (*nest_fn)(POMP_Handle_t *, int32_t, omp_nest_lock_t, char[]);
typedef int32_t (*nest_exit_fn)(POMP_Handle_t, int32_t, omp_nest_lock_t);
typedef int32_t (*nest_test_fn)(POMP_Handle_t *, int32_t, omp_nest_lock_t, int32_t, char[]);

static const later_fn later_routines[] = {
    POMP_Parallel_begin, POMP_Parallel_end,   POMP_Parallel_exit,         POMP_Loop_chunk_end,
    POMP_Loop_iter_end,  POMP_Loop_exit,      POMP_Workshare_begin,       POMP_Workshare_end,
    POMP_Workshare_exit, POMP_Sections_exit,  POMP_Section_end,           POMP_Single_begin,
    POMP_Single_end,     POMP_Single_exit,    POMP_Critical_begin,        POMP_Critical_end,
    POMP_Critical_exit,  POMP_Ordered_begin,  POMP_Ordered_end,           POMP_Ordered_exit,
    POMP_Master_end,     POMP_Barrier_exit,   POMP_Implicit_barrier_exit, POMP_Function_exit,
    POMP_Function_end,   POMP_User_region_end};
static const first_fn first_routines[] = {
    POMP_Workshare_enter, POMP_Sections_enter,    POMP_Single_enter,   POMP_Critical_enter,
    POMP_Ordered_enter,   POMP_Master_begin,      POMP_Barrier_enter,  POMP_Implicit_barrier_enter,
    POMP_Atomic_event,    POMP_Flush_event,       POMP_Function_enter, POMP_Function_begin,
    POMP_Function_event,  POMP_User_region_begin, POMP_User_event};
static const value_fn value_routines[] = {POMP_Set_num_threads_event, POMP_Get_num_threads_event,
                                          POMP_Get_max_threads_event, POMP_Get_thread_num_event,
                                          POMP_Get_num_procs_event,   POMP_In_parallel_event,
                                          POMP_Set_dynamic_event,     POMP_Get_dynamic_event,
                                          POMP_Set_nested_event,      POMP_Get_nested_event};
static const parallel_enter_fn parallel_enter = POMP_Parallel_enter;
static const loop_enter_fn loop_enter = POMP_Loop_enter;
static const chunk_begin_fn chunk_begin = POMP_Loop_chunk_begin;
static const iter_fn iter_routines[] = {POMP_Loop_iter_begin, POMP_Loop_iter_event};
static const section_begin_fn section_begin = POMP_Section_begin;
static const lock_fn lock_routines[] = {POMP_Init_lock_event, POMP_Destroy_lock_event,
                                        POMP_Set_lock_enter, POMP_Set_lock_event,
                                        POMP_Unset_lock_event};
static const lock_exit_fn lock_exit = POMP_Set_lock_exit;
static const lock_test_fn lock_test = POMP_Test_lock_event;
static const nest_fn nest_routines[] = {POMP_Init_nest_lock_event, POMP_Destroy_nest_lock_event,
                                        POMP_Set_nest_lock_enter, POMP_Set_nest_lock_event,
                                        POMP_Unset_nest_lock_event};
static const nest_exit_fn nest_exit = POMP_Set_nest_lock_exit;
static const nest_test_fn nest_test = POMP_Test_nest_lock_event;

/* The by-value forms this program calls, through the pointers above. */
#define BY_VALUE_INIT lock_routines[0]
#define BY_VALUE_DESTROY lock_routines[1]
#define BY_VALUE_SET_EVENT lock_routines[3]
#define BY_VALUE_UNSET_EVENT lock_routines[4]

/* ---- the parallel region: what each thread t of n calls ---------------------- */

static omp_lock_t lock;      /* taken n + 2 times, by its address (the macros) */
static omp_nest_lock_t nest; /* taken twice (outermost levels) */
static omp_lock_t vlock;     /* taken n times, by value (the functions) */
static int counter;

/* The worksharing constructs, each ended by its implicit barrier with a
 * handle and CTC string of its own: a loop of 8 iterations in chunks of 2,
 * dealt round-robin (chunk c to thread c mod n; even chunks with iteration
 * begin/end, odd ones with iteration events), a workshare, two sections
 * (section s + 1 to thread s mod n), a single run by thread 0. */
static void worksharing(int32_t t, int32_t n)
{
    static POMP_Handle_t hl, hlib, hw, hwib, hs, hsib, hsg, hsgib;
    POMP_Loop_enter(&hl, t, 2, 0, 7, 1, "0*type=loop*file=every.c*slines=20,20*elines=21,21**");
    for (int64_t c = t; c < 4; c += n) {
        POMP_Loop_chunk_begin(hl, t, 2 * c, 2 * c + 1);
        for (int64_t i = 2 * c; i <= 2 * c + 1; i++) {
            if (c % 2 == 0) {
                POMP_Loop_iter_begin(hl, t, i);
                POMP_Loop_iter_end(hl, t);
            } else {
                POMP_Loop_iter_event(hl, t, i);
            }
        }
        POMP_Loop_chunk_end(hl, t);
    }
    POMP_Implicit_barrier_enter(&hlib, t, "0*type=loop*file=every.c*slines=20,20*elines=21,21**");
#pragma omp barrier
    POMP_Implicit_barrier_exit(hlib, t);
    POMP_Loop_exit(hl, t);

    POMP_Workshare_enter(&hw, t, "0*type=workshare*file=every.c*slines=30,30*elines=31,31**");
    POMP_Workshare_begin(hw, t);
    POMP_Workshare_end(hw, t);
    POMP_Implicit_barrier_enter(&hwib, t,
                                "0*type=workshare*file=every.c*slines=30,30*elines=31,31**");
#pragma omp barrier
    POMP_Implicit_barrier_exit(hwib, t);
    POMP_Workshare_exit(hw, t);

    POMP_Sections_enter(&hs, t, "0*type=sections*file=every.c*slines=40,40*elines=41,41**");
    for (int32_t s = t; s < 2; s += n) {
        POMP_Section_begin(hs, s + 1, t);
        POMP_Section_end(hs, t);
    }
    POMP_Implicit_barrier_enter(&hsib, t,
                                "0*type=sections*file=every.c*slines=40,40*elines=41,41**");
#pragma omp barrier
    POMP_Implicit_barrier_exit(hsib, t);
    POMP_Sections_exit(hs, t);

    POMP_Single_enter(&hsg, t, "0*type=single*file=every.c*slines=50,50*elines=51,51**");
    if (t == 0) {
        POMP_Single_begin(hsg, t);
        POMP_Single_end(hsg, t);
    }
    POMP_Implicit_barrier_enter(&hsgib, t,
                                "0*type=single*file=every.c*slines=50,50*elines=51,51**");
#pragma omp barrier
    POMP_Implicit_barrier_exit(hsgib, t);
    POMP_Single_exit(hsg, t);
}

/* Each thread once: critical, ordered, barrier, atomic, flush; master on
 * thread 0. */
static void synchronisation(int32_t t)
{
    static POMP_Handle_t hc, ho, hm, hb, ha, hf;
    POMP_Critical_enter(&hc, t, "0*type=critical*name=one*file=every.c*lines=60,61**");
#pragma omp critical(one)
    {
        POMP_Critical_begin(hc, t);
        POMP_Critical_end(hc, t);
    }
    POMP_Critical_exit(hc, t);
    POMP_Ordered_enter(&ho, t, "0*type=ordered*file=every.c*lines=70,71**");
    POMP_Ordered_begin(ho, t);
    POMP_Ordered_end(ho, t);
    POMP_Ordered_exit(ho, t);
    if (t == 0) {
        POMP_Master_begin(&hm, t, "0*type=master*file=every.c*lines=80,81**");
        POMP_Master_end(hm, t);
    }
    POMP_Barrier_enter(&hb, t, "0*type=barrier*file=every.c*lines=90,90**");
#pragma omp barrier
    POMP_Barrier_exit(hb, t);
    POMP_Atomic_event(&ha, t, "0*type=atomic*file=every.c*lines=100,100**");
#pragma omp atomic
    counter++;
    POMP_Flush_event(&hf, t, "0*type=flush*file=every.c*lines=110,110**");
#pragma omp flush
}

/* Each thread: the team queries (221, 223, 225); lock taken with
 * Set_lock_enter/exit (201) and given back (202); thread 0 takes it once
 * more (203) while thread n - 1 tries it in vain when n > 1 (207), then
 * gives it back (204); vlock taken and given back by value (231, 232). The
 * unset events come before omp_unset_lock: the release is then recorded
 * before anyone can take the lock again. */
static void runtime_in_parallel(int32_t t, int32_t n)
{
    static POMP_Handle_t h201, h202, h203, h204, h207, h221, h223, h225, h231, h232;
    POMP_Get_num_threads_event(&h221, t, omp_get_num_threads(),
                               "0*type=omp_get_num_threads*file=every.c*lines=221,221**");
    POMP_Get_thread_num_event(&h223, t, omp_get_thread_num(),
                              "0*type=omp_get_thread_num*file=every.c*lines=223,223**");
    POMP_In_parallel_event(&h225, t, omp_in_parallel(),
                           "0*type=omp_in_parallel*file=every.c*lines=225,225**");

    POMP_Set_lock_enter(&h201, t, lock, "0*type=omp_set_lock*file=every.c*lines=201,201**");
    omp_set_lock(&lock);
    POMP_Set_lock_exit(h201, t, lock);
    POMP_Unset_lock_event(&h202, t, lock, "0*type=omp_unset_lock*file=every.c*lines=202,202**");
    omp_unset_lock(&lock);

#pragma omp barrier
    if (t == 0) {
        omp_set_lock(&lock);
        POMP_Set_lock_event(&h203, t, lock, "0*type=omp_set_lock*file=every.c*lines=203,203**");
    }
#pragma omp barrier
    if (n > 1 && t == n - 1) {
        int32_t was_set = omp_test_lock(&lock);
        POMP_Test_lock_event(&h207, t, lock, was_set,
                             "0*type=omp_test_lock*file=every.c*lines=207,207**");
    }
#pragma omp barrier
    if (t == 0) {
        POMP_Unset_lock_event(&h204, t, lock, "0*type=omp_unset_lock*file=every.c*lines=204,204**");
        omp_unset_lock(&lock);
    }

    omp_set_lock(&vlock);
    BY_VALUE_SET_EVENT(&h231, t, vlock, "0*type=omp_set_lock*file=every.c*lines=231,231**");
    BY_VALUE_UNSET_EVENT(&h232, t, vlock, "0*type=omp_unset_lock*file=every.c*lines=232,232**");
    omp_unset_lock(&vlock);
}

/* ---- on the master thread, before and after the parallel region --------------- */

/* Once each: the locks' init (200, 210, 230), the routines that set or
 * return a value (220, 222, 224, 226 to 229). */
static void runtime_before(int32_t n)
{
    static POMP_Handle_t h200, h210, h220, h222, h224, h226, h227, h228, h229, h230;
    omp_init_lock(&lock);
    POMP_Init_lock_event(&h200, 0, lock, "0*type=omp_init_lock*file=every.c*lines=200,200**");
    omp_init_nest_lock(&nest);
    POMP_Init_nest_lock_event(&h210, 0, nest,
                              "0*type=omp_init_nest_lock*file=every.c*lines=210,210**");
    omp_init_lock(&vlock);
    BY_VALUE_INIT(&h230, 0, vlock, "0*type=omp_init_lock*file=every.c*lines=230,230**");

    POMP_Get_max_threads_event(&h222, 0, n,
                               "0*type=omp_get_max_threads*file=every.c*lines=222,222**");
    omp_set_num_threads(n);
    POMP_Set_num_threads_event(&h220, 0, n,
                               "0*type=omp_set_num_threads*file=every.c*lines=220,220**");
    omp_set_dynamic(0);
    POMP_Set_dynamic_event(&h226, 0, 0, "0*type=omp_set_dynamic*file=every.c*lines=226,226**");
    POMP_Get_dynamic_event(&h227, 0, omp_get_dynamic(),
                           "0*type=omp_get_dynamic*file=every.c*lines=227,227**");
    /* omp_set_nested/omp_get_nested are deprecated (OpenMP 5.0): the events
     * carry what an instrumented call would, without calling them. */
    POMP_Set_nested_event(&h228, 0, 0, "0*type=omp_set_nested*file=every.c*lines=228,228**");
    POMP_Get_nested_event(&h229, 0, 0, "0*type=omp_get_nested*file=every.c*lines=229,229**");
    int32_t procs = omp_get_num_procs();
    POMP_Get_num_procs_event(&h224, 0, procs,
                             "0*type=omp_get_num_procs*file=every.c*lines=224,224**");
    printf("num_procs %d\n", (int)procs);
}

/* lock: a successful test (205), given back (206), destroyed (208). nest:
 * Set_nest_lock_enter/exit (211, acquired), set again (212) and tested
 * (213: depth 3), given back three times (214, released at the last), set
 * (212, acquired again) and given back (214), destroyed (215). vlock
 * destroyed by value (233). */
static void runtime_after(void)
{
    static POMP_Handle_t h205, h206, h208, h211, h212, h213, h214, h215, h233;
    int32_t was_set = omp_test_lock(&lock);
    POMP_Test_lock_event(&h205, 0, lock, was_set,
                         "0*type=omp_test_lock*file=every.c*lines=205,205**");
    POMP_Unset_lock_event(&h206, 0, lock, "0*type=omp_unset_lock*file=every.c*lines=206,206**");
    omp_unset_lock(&lock);
    POMP_Destroy_lock_event(&h208, 0, lock, "0*type=omp_destroy_lock*file=every.c*lines=208,208**");
    omp_destroy_lock(&lock);

    POMP_Set_nest_lock_enter(&h211, 0, nest,
                             "0*type=omp_set_nest_lock*file=every.c*lines=211,211**");
    omp_set_nest_lock(&nest);
    POMP_Set_nest_lock_exit(h211, 0, nest);
    omp_set_nest_lock(&nest);
    POMP_Set_nest_lock_event(&h212, 0, nest,
                             "0*type=omp_set_nest_lock*file=every.c*lines=212,212**");
    int32_t depth = omp_test_nest_lock(&nest);
    POMP_Test_nest_lock_event(&h213, 0, nest, depth,
                              "0*type=omp_test_nest_lock*file=every.c*lines=213,213**");
    for (int i = 0; i < 3; i++) {
        POMP_Unset_nest_lock_event(&h214, 0, nest,
                                   "0*type=omp_unset_nest_lock*file=every.c*lines=214,214**");
        omp_unset_nest_lock(&nest);
    }
    omp_set_nest_lock(&nest);
    POMP_Set_nest_lock_event(&h212, 0, nest,
                             "0*type=omp_set_nest_lock*file=every.c*lines=212,212**");
    POMP_Unset_nest_lock_event(&h214, 0, nest,
                               "0*type=omp_unset_nest_lock*file=every.c*lines=214,214**");
    omp_unset_nest_lock(&nest);
    POMP_Destroy_nest_lock_event(&h215, 0, nest,
                                 "0*type=omp_destroy_nest_lock*file=every.c*lines=215,215**");
    omp_destroy_nest_lock(&nest);

    BY_VALUE_DESTROY(&h233, 0, vlock, "0*type=omp_destroy_lock*file=every.c*lines=233,233**");
    omp_destroy_lock(&vlock);
}

/* Once each, on the master: functions and user regions. */
static void functions_and_user_regions(void)
{
    static POMP_Handle_t hfn, hfb, hfe, hu, hue;
    POMP_Function_enter(&hfn, 0, "0*type=function*name=compute*group=app*file=every.c**");
    POMP_Function_exit(hfn, 0);
    POMP_Function_begin(&hfb, 0, "0*type=function*name=solve*file=every.c**");
    POMP_Function_end(hfb, 0);
    POMP_Function_event(&hfe, 0, "0*type=function*name=tick*file=every.c**");
    POMP_User_region_begin(&hu, 0, "0*type=region*name=phase*file=every.c*lines=120,130**");
    POMP_User_region_end(hu, 0);
    POMP_User_event(&hue, 0, "0*type=region*name=mark*file=every.c**");
}

int every(void)
{
    /* The tables are only there to be compiled. */
    (void)later_routines, (void)first_routines, (void)value_routines, (void)parallel_enter;
    (void)loop_enter, (void)chunk_begin, (void)iter_routines, (void)section_begin;
    (void)lock_exit, (void)lock_test, (void)nest_routines, (void)nest_exit, (void)nest_test;

    static POMP_Handle_t hp, hpib;
    POMP_Init();
    int32_t n = omp_get_max_threads();
    runtime_before(n);
    POMP_Parallel_enter(&hp, omp_get_thread_num(), n, 1,
                        "0*type=preregion*file=every.c*slines=10,10*elines=19,19**");
#pragma omp parallel num_threads(n)
    {
        int32_t t = omp_get_thread_num();
        POMP_Parallel_begin(hp, t);
        runtime_in_parallel(t, n);
        worksharing(t, n);
        synchronisation(t);
        POMP_Implicit_barrier_enter(&hpib, t,
                                    "0*type=preregion*file=every.c*slines=10,10*elines=19,19**");
#pragma omp barrier
        POMP_Implicit_barrier_exit(hpib, t);
        POMP_Parallel_end(hp, t);
    }
    POMP_Parallel_exit(hp, omp_get_thread_num());
    runtime_after();
    functions_and_user_regions();
    POMP_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
