/* Integration tests of the recorder: real programs linked with libweft are
 * run with real environments, and their OTF2 traces are read back with the
 * OTF2 reader (tests/support) and checked event by event. argv[1] selects
 * one test (cmocka's filter), so each runs as its own CTest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "named_test.h"

#include "otf2_trace.h"
#include "recorder_fixture.h"
#include "run_program.h"

/* ---- 8 threads x 1,000,000 pairs, nested three deep, small buffers ------ */

static void check_stress(const char *timer, int threads, long pairs, const char *buffer,
                         const char *total_memory)
{
    char dir_var[4400], threads_arg[16], pairs_arg[32], buffer_var[64], timer_var[64];
    char total_var[64];
    snprintf(total_var, sizeof(total_var), "WEFT_TOTAL_MEMORY=%s", total_memory);
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    snprintf(buffer_var, sizeof(buffer_var), "WEFT_BUFFER_SIZE=%s", buffer);
    snprintf(timer_var, sizeof(timer_var), "WEFT_TIMER=%s", timer);
    snprintf(threads_arg, sizeof(threads_arg), "%d", threads);
    snprintf(pairs_arg, sizeof(pairs_arg), "%ld", pairs);
    const char *argv[] = {STRESS_PROGRAM, threads_arg, pairs_arg, NULL};
    const char *env[] = {dir_var, buffer_var, timer_var, total_var, NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines)
        fail_msg("unexpected stderr: %s", run.stderr_text);

    trace_model *t = load(trace_dir);
    check_sound(t);
    if (strcmp(timer, "monotonic") == 0)
        assert_int_equal(t->timer_resolution, 1000000000u);
    assert_int_equal(t->location_count, (size_t)threads);
    const trace_region *a = trace_region_by_name(t, "level_a");
    const trace_region *b = trace_region_by_name(t, "level_b");
    const trace_region *c = trace_region_by_name(t, "level_c");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_string_equal(c->source_file, STRESS_SOURCE);
    assert_int_equal(c->begin_line, 12);
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        assert_int_equal(trace_enter_count(loc, a->id), pairs / 4);
        assert_int_equal(trace_leave_count(loc, a->id), pairs / 4);
        assert_int_equal(trace_enter_count(loc, b->id), pairs / 4);
        assert_int_equal(trace_leave_count(loc, b->id), pairs / 4);
        assert_int_equal(trace_enter_count(loc, c->id), pairs / 2);
        assert_int_equal(trace_leave_count(loc, c->id), pairs / 2);
        assert_int_equal(loc->max_depth, 3);
        /* Besides enter/leave only the writer waits may appear. */
        uint64_t flush_events = loc->kind_counts[TRACE_EVENT_BUFFER_FLUSH];
        assert_int_equal(loc->event_count, 2 * (uint64_t)pairs + flush_events);
        assert_int_equal(property(t, loc->id, "weft::buffer_waits"), flush_events);
        assert_int_equal(property(t, loc->id, "weft::events_lost"), 0);
        uint64_t flushes = property(t, loc->id, "weft::buffer_flushes");
        if (flushes < 10)
            fail_msg("%s: only %llu mid-run flushes", loc->name, (unsigned long long)flushes);
    }
    trace_free(t);
}

static void test_stress_eight_threads(void **state)
{
    (void)state;
    check_stress("auto", 8, 1000000, "1M", "0");
    /* otf2-print, the reference reader, reads the whole trace. */
    char command[4600];
    snprintf(command, sizeof(command), "otf2-print %s/traces.otf2 > /dev/null", trace_dir);
    assert_int_equal(system(command), 0);
}

static void test_stress_monotonic_clock(void **state)
{
    (void)state;
    check_stress("monotonic", 2, 200000, "64K", "0");
}

/* WEFT_TOTAL_MEMORY far below 8 threads x WEFT_BUFFER_SIZE: the threads
 * share 2M (16 parts of 128K) and wait for the writer instead of taking
 * more; every event is still in the trace. */
static void test_stress_total_memory(void **state)
{
    (void)state;
    check_stress("auto", 8, 400000, "1M", "2M");
}

/* ---- lifecycle ----------------------------------------------------------- */

/* Four threads of 1000 pairs each, ended before the main thread's 10 pairs.
 * A thread that starts after another ended continues that one's location
 * (location reuse), so there are 1 to 4 worker locations: each holds the
 * pairs of whole threads, weft::threads says how many, and all 4000 are
 * there. */
static void test_threads_that_exit_early(void **state)
{
    (void)state;
    program_run run = run_lifecycle("early-exit", NULL);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_region *work = trace_region_by_name(t, "work");
    assert_non_null(work);
    assert_in_range(t->location_count, 2, 5);
    const trace_location_stats *master = trace_location_by_id(t, 0);
    assert_non_null(master);
    assert_int_equal(trace_enter_count(master, work->id), 10);
    assert_int_equal(property(t, 0, "weft::threads"), 1);
    uint64_t pairs = 0;
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        if (loc->id == 0)
            continue;
        assert_in_range(loc->id >> 32, 1, 4);
        uint64_t threads = property(t, loc->id, "weft::threads");
        assert_int_equal(trace_enter_count(loc, work->id), 1000 * threads);
        assert_int_equal(trace_leave_count(loc, work->id), 1000 * threads);
        assert_int_equal(loc->event_count, 2000 * threads);
        pairs += trace_enter_count(loc, work->id);
    }
    assert_int_equal(pairs, 4000);
    trace_free(t);
}

static void test_bad_environment_values(void **state)
{
    (void)state;
    const char *env[] = {"WEFT_BUFFER_SIZE=lots", "WEFT_TIMER=sundial", "WEFT_VERBOSE=maybe", NULL};
    program_run run = run_lifecycle("early-exit", env);
    assert_int_equal(run.exit_code, 0);
    /* One line per bad value, naming it; then the defaults do their job. */
    assert_int_equal(run.stderr_lines, 3);
    assert_non_null(strstr(run.stderr_text, "WEFT_BUFFER_SIZE='lots'"));
    assert_non_null(strstr(run.stderr_text, "WEFT_TIMER='sundial'"));
    assert_non_null(strstr(run.stderr_text, "WEFT_VERBOSE='maybe'"));
    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(trace_total_events(t), 4 * 2000 + 20 + 2); /* + program begin, end */
    trace_free(t);
}

static void test_unwritable_directory(void **state)
{
    (void)state;
    /* A directory below a regular file cannot exist, even for root. */
    char blocker[4400], dir_var[4500];
    snprintf(blocker, sizeof(blocker), "%s/plainfile", scratch);
    FILE *f = fopen(blocker, "w");
    fclose(f);
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s/trace", blocker);
    const char *env[] = {dir_var, NULL};
    const char *argv[] = {LIFECYCLE_PROGRAM, "exit-code", NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 3); /* the program's own status */
    assert_int_equal(run.stderr_lines, 1);
    assert_non_null(strstr(run.stderr_text, "cannot create the experiment directory"));
    assert_non_null(strstr(run.stderr_text, blocker));
}

static void test_existing_directory_is_not_reused(void **state)
{
    (void)state;
    assert_int_equal(mkdir(trace_dir, 0755), 0);
    program_run run = run_lifecycle("exit-code", NULL);
    assert_int_equal(run.exit_code, 3);
    assert_int_equal(run.stderr_lines, 1);
    assert_non_null(strstr(run.stderr_text, "already exists"));
    assert_int_equal(count_entries(trace_dir, "traces"), 0); /* untouched */
    char second[4400];
    snprintf(second, sizeof(second), "%s.1", trace_dir);
    trace_model *t = load(second);
    check_sound(t);
    assert_int_equal(trace_total_events(t), 200 + 2);
    trace_free(t);
}

static void test_program_that_records_nothing(void **state)
{
    (void)state;
    const char *argv[] = {LIFECYCLE_PROGRAM, "nothing", NULL};
    program_run run = run_in_scratch(argv, NULL);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    assert_int_equal(count_entries(scratch, "weft-"), 0);

    /* Asked for, an empty run still leaves a readable trace. */
    char dir_var[4400];
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    const char *env[] = {dir_var, "WEFT_WRITE_EMPTY_TRACE=true", NULL};
    run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load(trace_dir);
    assert_int_equal(trace_total_events(t), 0);
    trace_free(t);
}

static void test_default_directory_name(void **state)
{
    (void)state;
    const char *argv[] = {LIFECYCLE_PROGRAM, "exit-code", NULL};
    program_run run = run_in_scratch(argv, NULL);
    assert_int_equal(run.exit_code, 3);
    assert_int_equal(count_entries(scratch, "weft-"), 1);
}

static void test_tracing_disabled(void **state)
{
    (void)state;
    const char *env[] = {"WEFT_ENABLE_TRACING=false", NULL};
    program_run run = run_lifecycle("exit-code", env);
    assert_int_equal(run.exit_code, 3);
    assert_int_equal(run.stderr_lines, 0);
    assert_int_equal(count_entries(scratch, "trace"), 0);
}

/* The child's events stay out of the parent's trace: the child writes a
 * trace of its own and says where (tests/integration/test_faults.c checks
 * that one). */
static void test_forked_child_stays_out(void **state)
{
    (void)state;
    program_run run = run_lifecycle("fork", NULL);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 1);
    assert_non_null(strstr(run.stderr_text, "records its own trace in '"));
    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(t->location_count, 1);
    /* 5 + 5 pairs and the program's begin and end, none of the child's 7 */
    assert_int_equal(trace_total_events(t), 22);
    trace_free(t);
}

static void test_user_off_and_on(void **state)
{
    (void)state;
    program_run run = run_lifecycle("on-off", NULL);
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_location_stats *loc = trace_location_by_id(t, 0);
    const trace_region *work = trace_region_by_name(t, "work");
    assert_int_equal(trace_enter_count(loc, work->id), 5); /* 3 + 2: the 4 paused are absent */
    assert_int_equal(loc->kind_counts[TRACE_EVENT_MEASUREMENT_ON_OFF], 2);
    trace_free(t);
}

/* A program that exits inside two regions: the sink closes them, innermost
 * first, at the location's last timestamp, and says how many it closed. */
static void test_regions_left_open_are_closed(void **state)
{
    (void)state;
    program_run run = run_lifecycle("exit-inside", NULL);
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_location_stats *loc = trace_location_by_id(t, 0);
    const trace_region *outer = trace_region_by_name(t, "outer");
    const trace_region *inner = trace_region_by_name(t, "inner");
    assert_int_equal(trace_enter_count(loc, outer->id), 1);
    assert_int_equal(trace_enter_count(loc, inner->id), 1);
    assert_int_equal(trace_enter_count(loc, trace_region_by_name(t, "work")->id), 2);
    assert_int_equal(loc->kind_counts[TRACE_EVENT_ENTER], 4);
    assert_int_equal(loc->kind_counts[TRACE_EVENT_LEAVE], 4);
    uint64_t closed = 0;
    assert_non_null(trace_location_property(t, 0, "weft::scopes_closed_at_end", &closed));
    assert_int_equal(closed, 2);
    trace_free(t);
}

/* weft_task_switch_undo takes back only a switch (or a switch and the
 * Enter named) that is the thread's last, and only once
 * (lifecycle_tasks.c): the trace keeps the one switch into the task that
 * was not taken back, its region, and the switch out. */
static void test_task_switch_undo(void **state)
{
    (void)state;
    program_run run = run_lifecycle("task-undo", NULL);
    assert_int_equal(run.exit_code, 0);
    char line[64];
    assert_true(stdout_line(scratch, "undo ", line, sizeof(line)));
    assert_string_equal(line, "undo 1 0 0 0 1 0 0\n");
    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_location_stats *loc = trace_location_by_id(t, 0);
    assert_int_equal(loc->kind_counts[TRACE_EVENT_THREAD_TASK_CREATE], 1);
    assert_int_equal(loc->kind_counts[TRACE_EVENT_THREAD_TASK_SWITCH], 2);
    assert_int_equal(loc->kind_counts[TRACE_EVENT_THREAD_TASK_COMPLETE], 1);
    assert_int_equal(trace_enter_count(loc, trace_region_by_name(t, "task body")->id), 1);
    trace_free(t);
}

/* Writes TEXT to a file in the scratch directory; returns the
 * WEFT_FILTERING_FILE=... assignment naming it. */
static const char *filter_file(const char *text)
{
    static char path[4400], var[4500];
    snprintf(path, sizeof(path), "%s/filter.txt", scratch);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(var, sizeof(var), "WEFT_FILTERING_FILE=%s", path);
    return var;
}

static uint64_t enters_of(const trace_model *t, const char *name)
{
    const trace_region *r = trace_region_by_name(t, name);
    return r ? trace_enter_count(trace_location_by_id(t, 0), r->id) : 0;
}

/* One of three user regions excluded by name, one by its file (Score-P's
 * block names and weft's, comments, a rule over two lines). */
static void test_filter_by_name_and_file(void **state)
{
    (void)state;
    const char *env[] = {filter_file("# keep alpha only\n"
                                     "SCOREP_REGION_NAMES_BEGIN\n"
                                     "  EXCLUDE be?a   # by name\n"
                                     "          nothing_matches_this\n"
                                     "SCOREP_REGION_NAMES_END\n"
                                     "WEFT_FILE_NAMES_BEGIN\n"
                                     "  EXCLUDE */lifecycle_helper.c\n"
                                     "WEFT_FILE_NAMES_END\n"),
                         NULL};
    program_run run = run_lifecycle("filtered", env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(enters_of(t, "alpha"), 3);
    assert_int_equal(enters_of(t, "beta"), 0);
    assert_int_equal(enters_of(t, "gamma"), 0);
    assert_int_equal(trace_total_events(t), 6 + 2);
    trace_free(t);
}

/* A filter file that does not parse: one line naming the file and the
 * line, no filter, every region recorded. */
static void test_malformed_filter_file(void **state)
{
    (void)state;
    const char *env[] = {filter_file("SCOREP_REGION_NAMES_BEGIN\n"
                                     "  EXCLUDE beta\n"
                                     "SCOREP_FILE_NAMES_END\n"),
                         NULL};
    program_run run = run_lifecycle("filtered", env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 1);
    assert_non_null(strstr(run.stderr_text, "WEFT_FILTERING_FILE '"));
    assert_non_null(strstr(run.stderr_text, "filter.txt': line 3: no matching BEGIN for "
                                            "'SCOREP_FILE_NAMES_END'; no filter is applied"));
    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(enters_of(t, "alpha"), 3);
    assert_int_equal(enters_of(t, "beta"), 4);
    assert_int_equal(enters_of(t, "gamma"), 5);
    trace_free(t);
}

static void test_cxx_user_api(void **state)
{
    (void)state;
    char dir_var[4400];
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    const char *env[] = {dir_var, NULL};
    const char *argv[] = {CXX_PROGRAM, NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_location_stats *loc = trace_location_by_id(t, 0);
    const trace_region *square = trace_region_by_name(t, "square");
    const trace_region *lambda = trace_region_by_name(t, "lambda");
    assert_non_null(square);
    assert_non_null(lambda);
    assert_int_equal(trace_enter_count(loc, square->id), 25);
    assert_int_equal(trace_enter_count(loc, lambda->id), 1);
    assert_int_equal(square->begin_line, 8);
    assert_int_equal(square->role, OTF2_REGION_ROLE_CODE);
    assert_int_equal(square->paradigm, OTF2_PARADIGM_USER);
    assert_non_null(strstr(square->source_file, "user_api.cpp"));
    trace_free(t);
}

/* ---- the program region: ProgramBegin first and ProgramEnd last on the master thread -- */

static void test_program_begin_and_end(void **state)
{
    (void)state;
    program_run run = run_lifecycle("early-exit", NULL); /* 4 threads record before main */
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);
    const trace_region *program = trace_program_region(t);
    assert_non_null(program);
    const char *base = strrchr(LIFECYCLE_PROGRAM, '/') + 1;
    char canonical[4400];
    snprintf(canonical, sizeof(canonical), "%s early-exit", LIFECYCLE_PROGRAM);
    assert_string_equal(program->name, base);
    assert_string_equal(program->canonical_name, canonical);
    assert_int_equal(program->role, OTF2_REGION_ROLE_ARTIFICIAL);
    assert_int_equal(program->paradigm, OTF2_PARADIGM_MEASUREMENT_SYSTEM);

    const trace_location_stats *master = trace_location_by_id(t, 0);
    assert_non_null(master);
    const trace_event *first = &master->events[0];
    const trace_event *last = &master->events[master->event_list_len - 1];
    assert_int_equal(first->kind, TRACE_EVENT_PROGRAM_BEGIN);
    assert_string_equal(trace_string_text(t, first->program_name), LIFECYCLE_PROGRAM);
    assert_int_equal(first->program_argument_count, 1);
    assert_int_equal(first->program_region, program->id);
    assert_int_equal(last->kind, TRACE_EVENT_PROGRAM_END);
    assert_int_equal(last->exit_status, OTF2_UNDEFINED_INT64);
    assert_int_equal(master->kind_counts[TRACE_EVENT_PROGRAM_BEGIN], 1);
    assert_int_equal(master->kind_counts[TRACE_EVENT_PROGRAM_END], 1);
    assert_int_equal(master->event_count, 20 + 2);
    /* The program began when recording did: before the worker threads' first events. */
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        if (loc->id == 0)
            continue;
        assert_int_equal(loc->kind_counts[TRACE_EVENT_PROGRAM_BEGIN], 0);
        assert_int_equal(loc->kind_counts[TRACE_EVENT_PROGRAM_END], 0);
        assert_true(first->time <= loc->first_time);
        assert_true(last->time >= loc->last_time);
    }
    trace_free(t);
}

/* A release timed after the lock was taken ten more times (more than the
 * recorder keeps): recorded at the releasing thread's last event, after
 * its region inside the lock and before the next acquisition. Before,
 * it was recorded "now", after acquisitions it preceded, and weft check
 * (run by load) reported the lock acquired while held. */
static void test_late_lock_release(void **state)
{
    (void)state;
    program_run run = run_lifecycle("late-release", NULL);
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);
    assert_int_equal(t->location_count, 2);
    const trace_location_stats *main_loc = &t->locations[0], *other = &t->locations[1];
    assert_int_equal(other->kind_counts[TRACE_EVENT_THREAD_ACQUIRE_LOCK], 10);
    assert_int_equal(other->kind_counts[TRACE_EVENT_THREAD_RELEASE_LOCK], 10);
    uint64_t held_left = 0, released = 0, next_acquired = 0;
    for (size_t i = 0; i < main_loc->event_list_len; i++) {
        const trace_event *e = &main_loc->events[i];
        if (e->kind == TRACE_EVENT_LEAVE && e->region == trace_region_by_name(t, "held")->id)
            held_left = e->time;
        if (e->kind == TRACE_EVENT_THREAD_RELEASE_LOCK) {
            assert_int_equal(e->acquisition_order, 1);
            released = e->time;
        }
    }
    for (size_t i = 0; i < other->event_list_len && !next_acquired; i++) {
        const trace_event *e = &other->events[i];
        if (e->kind == TRACE_EVENT_THREAD_ACQUIRE_LOCK) {
            assert_int_equal(e->acquisition_order, 2);
            next_acquired = e->time;
        }
    }
    assert_true(held_left > 0 && released >= held_left);
    assert_true(released < next_acquired);
    trace_free(t);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        TEST(test_stress_eight_threads),
        TEST(test_stress_monotonic_clock),
        TEST(test_stress_total_memory),
        TEST(test_threads_that_exit_early),
        TEST(test_bad_environment_values),
        TEST(test_unwritable_directory),
        TEST(test_existing_directory_is_not_reused),
        TEST(test_program_that_records_nothing),
        TEST(test_default_directory_name),
        TEST(test_tracing_disabled),
        TEST(test_forked_child_stays_out),
        TEST(test_user_off_and_on),
        TEST(test_cxx_user_api),
        TEST(test_regions_left_open_are_closed),
        TEST(test_filter_by_name_and_file),
        TEST(test_malformed_filter_file),
        TEST(test_program_begin_and_end),
        TEST(test_task_switch_undo),
        TEST(test_late_lock_release),
    };
    return run_named_test(tests, argc > 1 ? argv[1] : NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
