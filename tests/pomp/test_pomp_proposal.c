/* The merged POMP proposal, end to end: proposal_program.c instrumented by
 * hand, linked with libweft, run, and its trace read back (and found sound
 * by `weft check`). Here the proposal's example in both forms and bad calls
 * with their return codes; every routine of its tables on each thread
 * (proposal_every_checks.c) and at each level of each POMP_<group> variable
 * (proposal_levels.c).
 *
 * Usage: test_pomp_proposal PROGRAM gomp|omp [TEST]: the program as built
 * with gcc (libgomp) or clang (libomp), and one test (cmocka's filter). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "named_test.h"

#include "proposal_test.h"

const char *proposal_program;
bool proposal_libomp;

program_run run_mode(const char *mode, const char *const *extra_env)
{
    static char dir_var[4400];
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    const char *env[10] = {dir_var};
    for (int i = 0; extra_env && extra_env[i] && i < 8; i++)
        env[i + 1] = extra_env[i];
    const char *argv[] = {proposal_program, mode, NULL};
    return run_in_scratch(argv, env);
}

void expect_every_stderr(const program_run *run, bool lock_events)
{
    const char *want = lock_events && !proposal_libomp ? BY_VALUE_NOTICE : "";
    if (strcmp(run->stderr_text, want) != 0)
        fail_msg("stderr: \"%s\", expected \"%s\"", run->stderr_text, want);
}

const trace_region *region_at(const trace_model *t, const char *name, uint32_t line)
{
    for (size_t i = 0; i < t->region_count; i++) {
        const trace_region *r = &t->regions[i];
        if (r->name && strcmp(r->name, name) == 0 && (line == 0 || r->begin_line == line))
            return r;
    }
    return NULL;
}

uint64_t visits_at(const trace_model *t, const char *name, uint32_t line)
{
    const trace_region *r = region_at(t, name, line);
    uint64_t sum = 0;
    for (size_t l = 0; r && l < t->location_count; l++) {
        assert_int_equal(trace_leave_count(&t->locations[l], r->id),
                         trace_enter_count(&t->locations[l], r->id));
        sum += trace_enter_count(&t->locations[l], r->id);
    }
    return sum;
}

void expect_visits_at(const trace_model *t, const char *name, uint32_t line, uint64_t want)
{
    uint64_t got = visits_at(t, name, line);
    if (got != want)
        fail_msg("%s (line %u): %llu visits, expected %llu", name, (unsigned)line,
                 (unsigned long long)got, (unsigned long long)want);
}

uint64_t kind_total(const trace_model *t, trace_event_kind kind)
{
    uint64_t sum = 0;
    for (size_t l = 0; l < t->location_count; l++)
        sum += t->locations[l].kind_counts[kind];
    return sum;
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
    expect_visits_at(t, "!$omp parallel @demo.c:7", 7, 3);
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
    assert_string_equal(codes, "1\n1\n1\n3\n2\n0\n2\n0\n2\n0\n0\n0\n0\n0\n0\n1\n1\n");
    trace_model *t = load_trace(trace_dir, false);
    check_sound(t);
    expect_visits_at(t, "!$omp unknown", 0, 3);
    expect_visits_at(t, "!$omp barrier @errors.c:9", 9, 1);
    expect_visits_at(t, "!$omp barrier @errors.c:5", 5, 1);
    /* The lock events without a handle: no visit, the lock still paired. */
    expect_visits_at(t, "omp_set_lock", 0, 0);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_ACQUIRE_LOCK), 1);
    assert_int_equal(kind_total(t, TRACE_EVENT_THREAD_RELEASE_LOCK), 1);
    trace_free(t);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        TEST(test_example_standard),
        TEST(test_example_optimised),
        TEST(test_every_routine_1_thread),
        TEST(test_every_routine_2_threads),
        TEST(test_every_event_default_levels),
        TEST(test_every_level_of_every_group),
        TEST(test_bad_level),
        TEST(test_errors_and_bad_ctc_strings),
    };
    if (argc < 3 || (strcmp(argv[2], "gomp") != 0 && strcmp(argv[2], "omp") != 0)) {
        fprintf(stderr, "usage: %s PROGRAM gomp|omp [TEST]\n", argv[0]);
        return 2;
    }
    proposal_program = argv[1];
    proposal_libomp = strcmp(argv[2], "omp") == 0;
    return run_named_test(tests, argc > 3 ? argv[3] : NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
