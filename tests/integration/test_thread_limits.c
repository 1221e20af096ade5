/* What many threads may cost: memory bounded by the threads alive at once
 * (locations of ended threads are reused), and a few file descriptors
 * whatever the number of threads. The test program (thread_limits.c)
 * reports its own peak resident memory and descriptors after weft wrote
 * the trace; the traces are read back and checked event by event. argv[1]
 * selects one test, so each runs as its own CTest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "named_test.h"

#include "otf2_trace.h"
#include "recorder_fixture.h"
#include "run_program.h"

/* The value of "NAME N" in the program's stdout. */
static long reported(const char *name)
{
    char word[64], line[256];
    snprintf(word, sizeof(word), "%s ", name);
    long value = -1;
    if (stdout_line(scratch, word, line, sizeof(line)))
        value = atol(line + strlen(word));
    if (value < 0)
        fail_msg("the program did not report %s", name);
    return value;
}

static program_run run_limits(const char *const *args)
{
    char dir_var[4400];
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    const char *argv[8] = {LIMITS_PROGRAM};
    for (int i = 0; args[i] && i < 6; i++)
        argv[i + 1] = args[i];
    const char *env[] = {dir_var, NULL};
    return run_in_scratch(argv, env);
}

/* 1000 threads created and joined, ten times over (issue 23): each thread's
 * memory is written and reused when it ends, so the peak resident memory
 * stays far below one buffer per thread ever created (10,000 x 2 MiB
 * chunks), and the trace has every thread's events, on locations that each
 * hold whole threads one after another. Every second thread ends inside a
 * region: it is closed when that thread ends, before the location's next
 * thread begins (so nothing nests deeper than one thread's two regions). */
static void test_thread_churn(void **state)
{
    (void)state;
    const char *args[] = {"churn", "1000", "10", NULL};
    program_run run = run_limits(args);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines)
        fail_msg("unexpected stderr: %s", run.stderr_text);
#ifndef WEFT_TEST_SANITIZED /* a sanitizer's shadow memory is most of it there */
    long peak_kb = reported("peak_rss_kb");
    if (peak_kb > 200 * 1024)
        fail_msg("peak resident memory %ld KiB, more than 200 MiB", peak_kb);
#endif

    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_region *thread = trace_region_by_name(t, "thread");
    const trace_region *work = trace_region_by_name(t, "work");
    assert_non_null(thread);
    assert_non_null(work);
    /* At most one location per thread alive at once, and no location 0:
     * the main thread records nothing. */
    assert_in_range(t->location_count, 1, 1000);
    uint64_t threads = 0, closed = 0, works = 0;
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        uint64_t n = property(t, loc->id, "weft::threads");
        uint64_t c = 0;
        trace_location_property(t, loc->id, "weft::scopes_closed_at_end", &c);
        assert_int_equal(trace_enter_count(loc, thread->id), n);
        assert_int_equal(trace_leave_count(loc, thread->id), n);
        assert_int_equal(trace_enter_count(loc, work->id), n);
        assert_int_equal(trace_leave_count(loc, work->id), n);
        assert_int_equal(loc->event_count, 4 * n);
        assert_in_range(loc->max_depth, 2, 2);
        assert_int_equal(property(t, loc->id, "weft::events_lost"), 0);
        assert_in_range(c, 0, n);
        threads += n;
        closed += c;
        works += trace_enter_count(loc, work->id);
    }
    assert_int_equal(threads, 10000);
    assert_int_equal(works, 10000);
    assert_int_equal(closed, 5000);
    trace_free(t);
}

/* 16 threads that each record 800,000 events (twice what OTF2 held per
 * thread before weft made it write during the run) under a file limit of
 * 24, while the program opens 8 files at a time: its own open() never
 * fails, weft keeps at most 4 event files and its spill file open (the
 * limit's sixteenth, at least 4), the two sockets of the thread that
 * writes the trace on a terminating signal, and one file it opens for a
 * moment (the recovery journal's next version, or an event file it
 * allocates disk space in), and every event is in the trace. */
static void test_few_files_for_many_threads(void **state)
{
    (void)state;
    const char *args[] = {"files", "16", "400000", "24", NULL};
    program_run run = run_limits(args);
    if (run.stderr_lines)
        fail_msg("unexpected stderr: %s", run.stderr_text);
    assert_int_equal(reported("failed_opens"), 0);
    assert_int_equal(run.exit_code, 0);
    /* Besides what the program had before its first event: its own 8, and
     * weft's 4 event files, spill file, rescue sockets and passing file. */
    long weft_fds = reported("max_fds") - reported("base_fds") - 8;
    assert_in_range(weft_fds, 0, 4 + 1 + 2 + 1);

    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_region *work = trace_region_by_name(t, "work");
    assert_non_null(work);
    /* A thread that starts after another ended continues its location. */
    assert_in_range(t->location_count, 2, 16);
    uint64_t threads = 0;
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        uint64_t n = property(t, loc->id, "weft::threads");
        assert_int_equal(trace_enter_count(loc, work->id), 400000 * n);
        assert_int_equal(trace_leave_count(loc, work->id), 400000 * n);
        uint64_t flush_events = loc->kind_counts[TRACE_EVENT_BUFFER_FLUSH];
        assert_int_equal(loc->event_count, 800000 * n + flush_events);
        assert_int_equal(property(t, loc->id, "weft::events_lost"), 0);
        threads += n;
    }
    assert_int_equal(threads, 16);
    trace_free(t);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        TEST(test_thread_churn),
        TEST(test_few_files_for_many_threads),
    };
    return run_named_test(tests, argc > 1 ? argv[1] : NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
