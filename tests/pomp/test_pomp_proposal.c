/* The merged POMP proposal, end to end: proposal_program.c instrumented by
 * hand, linked with libweft, run, and its trace read back. The proposal's
 * example in both forms; every event of its tables at the default levels
 * and at each level of each POMP_<group> variable (exact visits of every
 * region, forks, lock events, parameters); bad calls and their return
 * codes. argv[1] selects one test (cmocka's filter). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "otf2_trace.h"
#include "recorder_fixture.h"

static program_run run_mode(const char *mode, const char *const *extra_env)
{
    static char dir_var[4400];
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    const char *env[8] = {dir_var};
    for (int i = 0; extra_env && extra_env[i] && i < 6; i++)
        env[i + 1] = extra_env[i];
    const char *argv[] = {PROPOSAL_PROGRAM, mode, NULL};
    return run_in_scratch(argv, env);
}

/* Visits of the region NAME over all locations; 0 when it is not defined. */
static uint64_t visits(const trace_model *t, const char *name)
{
    const trace_region *r = trace_region_by_name(t, name);
    uint64_t sum = 0;
    for (size_t l = 0; r && l < t->location_count; l++) {
        assert_int_equal(trace_leave_count(&t->locations[l], r->id),
                         trace_enter_count(&t->locations[l], r->id));
        sum += trace_enter_count(&t->locations[l], r->id);
    }
    return sum;
}

static uint64_t kind_total(const trace_model *t, trace_event_kind kind)
{
    uint64_t sum = 0;
    for (size_t l = 0; l < t->location_count; l++)
        sum += t->locations[l].kind_counts[kind];
    return sum;
}

static void expect_visits(const trace_model *t, const char *name, uint64_t want)
{
    uint64_t got = visits(t, name);
    if (got != want)
        fail_msg("%s: %llu visits, expected %llu", name, (unsigned long long)got,
                 (unsigned long long)want);
}

/* ---- the proposal's example ------------------------------------------------ */

static void check_example(const char *mode)
{
    const char *env[] = {"OMP_NUM_THREADS=3", NULL};
    program_run run = run_mode(mode, env);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines)
        fail_msg("unexpected stderr: %s", run.stderr_text);
    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);
    assert_int_equal(t->location_count, 3);
    const trace_region *parallel = trace_region_by_name(t, "!$omp parallel @demo.c:7");
    assert_non_null(parallel);
    assert_int_equal(parallel->role, OTF2_REGION_ROLE_PARALLEL);
    assert_int_equal(parallel->begin_line, 7);
    assert_int_equal(parallel->end_line, 12);
    expect_visits(t, "!$omp parallel @demo.c:7", 3);
    const trace_location_stats *master = trace_location_by_id(t, 0);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_FORK], 1);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_JOIN], 1);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_TEAM_BEGIN), 3);
    /* if_expr_result 1 is a parameter after the fork; num_threads -1 is not. */
    assert_int_equal(master->kind_counts[TRACE_EVENT_PARAMETER_INT], 1);
    for (size_t i = 0; i + 1 < master->event_count; i++) {
        if (master->events[i].kind == TRACE_EVENT_THREAD_FORK) {
            assert_int_equal(master->events[i + 1].kind, TRACE_EVENT_PARAMETER_INT);
            assert_int_equal(master->events[i + 1].parameter_value, 1);
        }
    }
    trace_free(t);
}

static void test_example_standard(void **state)
{
    (void)state;
    check_example("example");
}

/* The handle comes from POMP_Init_demo(), which POMP_Init finds in the
 * program's symbol table: without it the parallel region would be missing
 * (and the program says so on stderr). */
static void test_example_optimised(void **state)
{
    (void)state;
    check_example("example-optimised");
}

/* ---- every event, at every level --------------------------------------------- */

typedef struct levels {
    const char *parallel, *loop, *workshare, *sync, *user, *runtime;
} levels;

static bool is(const char *level, const char *name)
{
    return strcmp(level, name) == 0;
}

/* What proposal_program.c's "every" mode leaves in the trace at `lv`. */
static void check_every(const trace_model *t, const levels *lv)
{
    bool par_ee = !is(lv->parallel, "none"), par_be = is(lv->parallel, "BeginEnd");
    bool loop_ee = !is(lv->loop, "none");
    bool ws_ee = !is(lv->workshare, "none"), ws_be = is(lv->workshare, "BeginEnd");
    bool sync_ee = !is(lv->sync, "none"), sync_be = is(lv->sync, "BeginEnd");
    bool user_be = is(lv->user, "BeginEnd"), user_ev = is(lv->user, "Event");
    bool rt_ev = is(lv->runtime, "Event"), rt_ee = is(lv->runtime, "EnterExit");

    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_FORK), par_ee ? 1 : 0);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_TEAM_BEGIN), par_be ? 2 : 0);
    expect_visits(t, "!$omp parallel @every.c:10", par_be ? 2 : 0);
    expect_visits(t, "!$omp implicit barrier @every.c:11", sync_ee ? 2 : 0);
    expect_visits(t, "!$omp for @every.c:20", loop_ee ? 1 : 0);
    expect_visits(t, "!$omp implicit barrier @every.c:21", sync_ee ? 1 : 0);
    expect_visits(t, "!$omp for chunk @every.c:20", is(lv->loop, "Chunks") ? 2 : 0);
    expect_visits(t, "!$omp for iteration @every.c:20",
                  is(lv->loop, "IterBeginEnd") || is(lv->loop, "IterEvent") ? 4 : 0);
    expect_visits(t, "!$omp workshare @every.c:30", ws_ee ? 1 : 0);
    expect_visits(t, "!$omp sections @every.c:40", ws_ee ? 1 : 0);
    expect_visits(t, "!$omp section @every.c:40", ws_be ? 2 : 0);
    expect_visits(t, "!$omp single @every.c:50", ws_ee ? 1 : 0);
    expect_visits(t, "!$omp single sblock @every.c:50", ws_be ? 1 : 0);
    expect_visits(t, "!$omp critical (one) @every.c:60", sync_ee ? 1 : 0);
    expect_visits(t, "!$omp critical sblock @every.c:60", sync_be ? 1 : 0);
    expect_visits(t, "!$omp ordered @every.c:70", sync_ee ? 1 : 0);
    expect_visits(t, "!$omp ordered sblock @every.c:70", sync_be ? 1 : 0);
    expect_visits(t, "!$omp master @every.c:80", sync_be ? 1 : 0);
    expect_visits(t, "!$omp barrier @every.c:90", sync_ee ? 1 : 0);
    expect_visits(t, "!$omp atomic @every.c:100", sync_ee ? 1 : 0);
    expect_visits(t, "!$omp flush @every.c:110", sync_ee ? 1 : 0);
    expect_visits(t, "compute", user_be ? 1 : 0);
    expect_visits(t, "solve", user_be ? 1 : 0);
    expect_visits(t, "tick", user_ev ? 1 : 0);
    expect_visits(t, "phase", user_be ? 1 : 0);
    expect_visits(t, "mark", user_ev ? 1 : 0);
    if (user_be) {
        assert_int_equal(trace_region_by_name(t, "compute")->role, OTF2_REGION_ROLE_FUNCTION);
        assert_int_equal(trace_region_by_name(t, "phase")->role, OTF2_REGION_ROLE_CODE);
        assert_int_equal(trace_region_by_name(t, "phase")->begin_line, 120);
    }
    expect_visits(t, "omp_init_lock", rt_ev ? 1 : 0);
    expect_visits(t, "omp_set_lock", rt_ev || rt_ee ? 1 : 0);
    expect_visits(t, "omp_unset_lock", rt_ev ? 3 : 0);
    expect_visits(t, "omp_test_lock", rt_ev ? 2 : 0);
    expect_visits(t, "omp_destroy_lock", rt_ev ? 1 : 0);
    expect_visits(t, "omp_set_nest_lock", rt_ev || rt_ee ? 1 : 0);
    expect_visits(t, "omp_unset_nest_lock", rt_ev ? 3 : 0);
    expect_visits(t, "omp_test_nest_lock", rt_ev ? 1 : 0);
    static const char *const routines[] = {
        "omp_set_num_threads", "omp_get_num_threads", "omp_get_max_threads", "omp_get_thread_num",
        "omp_get_num_procs",   "omp_in_parallel",     "omp_set_dynamic",     "omp_get_dynamic",
        "omp_set_nested",      "omp_get_nested"};
    for (size_t i = 0; i < sizeof(routines) / sizeof(routines[0]); i++)
        expect_visits(t, routines[i], rt_ev ? 1 : 0);
    /* Locks: 3 + 2 acquisitions of the two OpenMP locks whenever the runtime
     * group records anything, 1 of the critical section at Sync BeginEnd. */
    uint64_t acquisitions = (rt_ev || rt_ee ? 5 : 0) + (sync_be ? 1 : 0);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_ACQUIRE_LOCK), acquisitions);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_RELEASE_LOCK), acquisitions);
    /* Parameters: num_threads and if (2), loop (4), chunks (2 x 2),
     * iterations (4), sections (2), test locks (3), runtime values (10). */
    uint64_t parameters = (par_ee ? 2 : 0) + (loop_ee ? 4 : 0) + (is(lv->loop, "Chunks") ? 4 : 0) +
                          (is(lv->loop, "IterBeginEnd") || is(lv->loop, "IterEvent") ? 4 : 0) +
                          (ws_be ? 2 : 0) + (rt_ev || rt_ee ? 3 : 0) + (rt_ev ? 10 : 0);
    assert_int_equal(kind_total(t, TRACE_EVENT_PARAMETER_INT), parameters);
}

static void run_every(const levels *lv)
{
    char vars[6][64];
    const char *names[6] = {"POMP_PARALLEL", "POMP_LOOP", "POMP_WORKSHARE",
                            "POMP_SYNC",     "POMP_USER", "POMP_RUNTIME"};
    const char *values[6] = {lv->parallel, lv->loop, lv->workshare,
                             lv->sync,     lv->user, lv->runtime};
    const char *env[7];
    for (int i = 0; i < 6; i++) {
        snprintf(vars[i], sizeof(vars[i]), "%s=%s", names[i], values[i]);
        env[i] = vars[i];
    }
    env[6] = NULL;
    program_run run = run_mode("every", env);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines)
        fail_msg("unexpected stderr: %s", run.stderr_text);
    trace_model *t = load_trace(trace_dir, false);
    check_sound(t);
    check_every(t, lv);
    trace_free(t);
    scratch_dir_remove(trace_dir);
}

static const levels defaults = {"BeginEnd", "EnterExit", "BeginEnd",
                                "BeginEnd", "BeginEnd",  "Event"};

static void test_every_event_default_levels(void **state)
{
    (void)state;
    /* The same as setting nothing: check the defaults are what they say. */
    program_run run = run_mode("every", NULL);
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load_trace(trace_dir, false);
    check_every(t, &defaults);
    trace_free(t);
}

/* Each level of each group, the other groups at their defaults. */
static void test_every_level_of_every_group(void **state)
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
            const char **field = (const char *[]){NULL};
            switch (g) {
            case 0:
                field = &lv.parallel;
                break;
            case 1:
                field = &lv.loop;
                break;
            case 2:
                field = &lv.workshare;
                break;
            case 3:
                field = &lv.sync;
                break;
            case 4:
                field = &lv.user;
                break;
            default:
                field = &lv.runtime;
                break;
            }
            *field = group_levels[g][l];
            run_every(&lv);
        }
    }
}

/* A level a group does not have: one line, the default. */
static void test_bad_level(void **state)
{
    (void)state;
    const char *env[] = {"POMP_MASTER_PLAN=x", "POMP_LOOP=Sometimes", NULL};
    program_run run = run_mode("every", env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 1);
    assert_non_null(strstr(
        run.stderr_text, "weft: POMP_LOOP='Sometimes' is not one of its levels; using EnterExit"));
    trace_model *t = load_trace(trace_dir, false);
    check_every(t, &defaults);
    trace_free(t);
}

/* ---- errors ------------------------------------------------------------------ */

static void test_errors_and_bad_ctc_strings(void **state)
{
    (void)state;
    program_run run = run_mode("errors", NULL);
    assert_int_equal(run.exit_code, 0);
    /* The three malformed strings, one line each. */
    assert_int_equal(run.stderr_lines, 3);
    assert_non_null(strstr(run.stderr_text, "weft: malformed POMP CTC string \"garbage\": "));
    assert_non_null(strstr(run.stderr_text, "\"19*type=nosuch**\": type is not known"));
    assert_non_null(strstr(run.stderr_text, "\"2**\": no type"));
    char path[4500], codes[256] = "";
    snprintf(path, sizeof(path), "%s/.stdout", scratch);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(codes, 1, sizeof(codes) - 1, f);
    fclose(f);
    codes[n] = '\0';
    assert_string_equal(codes, "1\n1\n1\n3\n2\n0\n2\n0\n2\n0\n0\n0\n0\n0\n0\n");
    trace_model *t = load_trace(trace_dir, false);
    check_sound(t);
    expect_visits(t, "!$omp unknown", 3);
    expect_visits(t, "!$omp barrier @errors.c:9", 1);
    expect_visits(t, "!$omp barrier @errors.c:5", 1);
    trace_free(t);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        TEST(test_example_standard),
        TEST(test_example_optimised),
        TEST(test_every_event_default_levels),
        TEST(test_every_level_of_every_group),
        TEST(test_bad_level),
        TEST(test_errors_and_bad_ctc_strings),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
