/* proposal_program.c's "every" mode with two threads at the default levels
 * and at each level of each POMP_<group> variable: which of its regions are
 * visited how often in all, forks, team begins, lock acquisitions and
 * parameters (proposal_every.c lists what each thread calls). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proposal_test.h"

enum { N = 2 }; /* threads */

typedef struct levels {
    const char *parallel, *loop, *workshare, *sync, *user, *runtime;
} levels;

static bool is(const char *level, const char *name)
{
    return strcmp(level, name) == 0;
}

/* Visits of the runtime calls at level Event, by CTC line (proposal_every.c). */
static const struct {
    const char *name;
    uint32_t line;
    uint64_t visits;
} runtime_calls[] = {
    {"omp_init_lock", 200, 1},         {"omp_unset_lock", 202, N},
    {"omp_set_lock", 203, 1},          {"omp_unset_lock", 204, 1},
    {"omp_test_lock", 205, 1},         {"omp_unset_lock", 206, 1},
    {"omp_test_lock", 207, 1},         {"omp_destroy_lock", 208, 1},
    {"omp_init_nest_lock", 210, 1},    {"omp_set_nest_lock", 212, 2},
    {"omp_test_nest_lock", 213, 1},    {"omp_unset_nest_lock", 214, 4},
    {"omp_destroy_nest_lock", 215, 1}, {"omp_set_num_threads", 220, 1},
    {"omp_get_num_threads", 221, N},   {"omp_get_max_threads", 222, 1},
    {"omp_get_thread_num", 223, N},    {"omp_get_num_procs", 224, 1},
    {"omp_in_parallel", 225, N},       {"omp_set_dynamic", 226, 1},
    {"omp_get_dynamic", 227, 1},       {"omp_set_nested", 228, 1},
    {"omp_get_nested", 229, 1},        {"omp_init_lock", 230, 1},
    {"omp_set_lock", 231, N},          {"omp_unset_lock", 232, N},
    {"omp_destroy_lock", 233, 1},
};

/* What the "every" mode leaves in the trace at `lv`. */
static void check_every(const trace_model *t, const levels *lv)
{
    bool par_ee = !is(lv->parallel, "none"), par_be = is(lv->parallel, "BeginEnd");
    bool loop_ee = !is(lv->loop, "none"), chunks = is(lv->loop, "Chunks");
    bool iter_ev = is(lv->loop, "IterEvent"), iter_be = is(lv->loop, "IterBeginEnd");
    bool ws_ee = !is(lv->workshare, "none"), ws_be = is(lv->workshare, "BeginEnd");
    bool sync_ee = !is(lv->sync, "none"), sync_be = is(lv->sync, "BeginEnd");
    bool user_be = is(lv->user, "BeginEnd"), user_ev = is(lv->user, "Event");
    bool rt_ev = is(lv->runtime, "Event"), rt_ee = is(lv->runtime, "EnterExit");

    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_FORK), par_ee ? 1 : 0);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_TEAM_BEGIN), par_be ? N : 0);
    expect_visits_at(t, "!$omp parallel @every.c:10", 10, par_be ? N : 0);
    expect_visits_at(t, "!$omp for @every.c:20", 20, loop_ee ? N : 0);
    expect_visits_at(t, "!$omp for chunk @every.c:20", 20, chunks ? 4 : 0);
    /* Iteration events in the odd chunks, begin/end in the even ones. */
    expect_visits_at(t, "!$omp for iteration @every.c:20", 20, iter_ev || iter_be ? 4 : 0);
    expect_visits_at(t, "!$omp workshare @every.c:30", 30, ws_ee ? N : 0);
    expect_visits_at(t, "!$omp workshare sblock @every.c:30", 30, ws_be ? N : 0);
    expect_visits_at(t, "!$omp sections @every.c:40", 40, ws_ee ? N : 0);
    expect_visits_at(t, "!$omp section @every.c:40", 40, ws_be ? 2 : 0);
    expect_visits_at(t, "!$omp single @every.c:50", 50, ws_ee ? N : 0);
    expect_visits_at(t, "!$omp single sblock @every.c:50", 50, ws_be ? 1 : 0);
    static const uint32_t barrier_lines[] = {19, 21, 31, 41, 51};
    for (size_t i = 0; i < sizeof(barrier_lines) / sizeof(barrier_lines[0]); i++) {
        char name[64];
        snprintf(name, sizeof(name), "!$omp implicit barrier @every.c:%u", barrier_lines[i]);
        expect_visits_at(t, name, barrier_lines[i], sync_ee ? N : 0);
    }
    expect_visits_at(t, "!$omp critical (one) @every.c:60", 60, sync_ee ? N : 0);
    expect_visits_at(t, "!$omp critical sblock @every.c:60", 60, sync_be ? N : 0);
    expect_visits_at(t, "!$omp ordered @every.c:70", 70, sync_ee ? N : 0);
    expect_visits_at(t, "!$omp ordered sblock @every.c:70", 70, sync_be ? N : 0);
    expect_visits_at(t, "!$omp master @every.c:80", 80, sync_be ? 1 : 0);
    expect_visits_at(t, "!$omp barrier @every.c:90", 90, sync_ee ? N : 0);
    expect_visits_at(t, "!$omp atomic @every.c:100", 100, sync_ee ? N : 0);
    expect_visits_at(t, "!$omp flush @every.c:110", 110, sync_ee ? N : 0);
    expect_visits_at(t, "compute", 0, user_be ? 1 : 0);
    expect_visits_at(t, "solve", 0, user_be ? 1 : 0);
    expect_visits_at(t, "tick", 0, user_ev ? 1 : 0);
    expect_visits_at(t, "phase", 120, user_be ? 1 : 0);
    expect_visits_at(t, "mark", 0, user_ev ? 1 : 0);
    for (size_t i = 0; i < sizeof(runtime_calls) / sizeof(runtime_calls[0]); i++)
        expect_visits_at(t, runtime_calls[i].name, runtime_calls[i].line,
                         rt_ev ? runtime_calls[i].visits : 0);
    /* Set_lock_enter/exit and Set_nest_lock_enter/exit: level EnterExit. */
    expect_visits_at(t, "omp_set_lock", 201, rt_ee ? N : 0);
    expect_visits_at(t, "omp_set_nest_lock", 211, rt_ee ? 1 : 0);
    /* Locks whenever the runtime group records anything: lock N + 2 times,
     * the nest lock twice, vlock N times where its value tells it (libomp);
     * the critical section's at Sync BeginEnd. */
    uint64_t acquisitions =
        (rt_ev || rt_ee ? N + 2 + 2 + (proposal_libomp ? N : 0) : 0) + (sync_be ? N : 0);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_ACQUIRE_LOCK), acquisitions);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_RELEASE_LOCK), acquisitions);
    /* Parameters: num_threads and if (2); each thread's loop (4); chunks
     * (2 each); iterations (1 each); section numbers (2); the runtime
     * values (7 on the master, 3 on each thread) and the three tests'
     * results, with their visits. */
    uint64_t parameters = (par_ee ? 2 : 0) + (loop_ee ? 4 * N : 0) + (chunks ? 8 : 0) +
                          (iter_ev || iter_be ? 4 : 0) + (ws_be ? 2 : 0) +
                          (rt_ev ? 7 + 3 * N + 3 : 0);
    assert_int_equal(kind_total(t, TRACE_EVENT_PARAMETER_INT), parameters);
}

static void run_every(const levels *lv)
{
    char vars[6][64];
    const char *names[6] = {"POMP_PARALLEL", "POMP_LOOP", "POMP_WORKSHARE",
                            "POMP_SYNC",     "POMP_USER", "POMP_RUNTIME"};
    const char *values[6] = {lv->parallel, lv->loop, lv->workshare,
                             lv->sync,     lv->user, lv->runtime};
    const char *env[8] = {"OMP_NUM_THREADS=2"};
    for (int i = 0; i < 6; i++) {
        snprintf(vars[i], sizeof(vars[i]), "%s=%s", names[i], values[i]);
        env[i + 1] = vars[i];
    }
    program_run run = run_mode("every", env);
    assert_int_equal(run.exit_code, 0);
    expect_every_stderr(&run, !is(lv->runtime, "none"));
    trace_model *t = load_trace(trace_dir, false);
    check_sound(t);
    check_every(t, lv);
    trace_free(t);
    scratch_dir_remove(trace_dir);
}

static const levels defaults = {"BeginEnd", "EnterExit", "BeginEnd",
                                "BeginEnd", "BeginEnd",  "Event"};

void test_every_event_default_levels(void **state)
{
    (void)state;
    /* The same as setting nothing: check the defaults are what they say. */
    const char *env[] = {"OMP_NUM_THREADS=2", NULL};
    program_run run = run_mode("every", env);
    assert_int_equal(run.exit_code, 0);
    expect_every_stderr(&run, true);
    trace_model *t = load_trace(trace_dir, false);
    check_every(t, &defaults);
    trace_free(t);
}

/* Each level of each group, the other groups at their defaults. */
void test_every_level_of_every_group(void **state)
{
    (void)state;
    static const char *const group_levels[6][6] = {
        {"none", "EnterExit", "BeginEnd"},
        {"none", "EnterExit", "Chunks", "IterEvent", "IterBeginEnd"},
        {"none", "EnterExit", "BeginEnd"},
        {"none", "EnterExit", "Event", "BeginEnd"},
        {"none", "Event", "BeginEnd"},
        {"none", "Event", "EnterExit"},
    };
    for (int g = 0; g < 6; g++) {
        for (int l = 0; l < 6 && group_levels[g][l]; l++) {
            levels lv = defaults;
            const char **fields[6] = {&lv.parallel, &lv.loop, &lv.workshare,
                                      &lv.sync,     &lv.user, &lv.runtime};
            *fields[g] = group_levels[g][l];
            run_every(&lv);
        }
    }
}

/* A level a group does not have: one line, the default. */
void test_bad_level(void **state)
{
    (void)state;
    const char *env[] = {"POMP_MASTER_PLAN=x", "POMP_LOOP=Sometimes", "OMP_NUM_THREADS=2", NULL};
    program_run run = run_mode("every", env);
    assert_int_equal(run.exit_code, 0);
    const char *notice = "weft: POMP_LOOP='Sometimes' is not one of its levels; using EnterExit\n";
    if (strncmp(run.stderr_text, notice, strlen(notice)) != 0)
        fail_msg("stderr: %s", run.stderr_text);
    assert_int_equal(run.stderr_lines, proposal_libomp ? 1 : 2);
    trace_model *t = load_trace(trace_dir, false);
    check_every(t, &defaults);
    trace_free(t);
}
/* SPDX-License-Identifier: BSD-3-Clause */
