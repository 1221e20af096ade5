/* Measurement control, end to end: rusage metrics at every enter and leave
 * on two threads, PAPI events this machine cannot count, and a pause of
 * recording while two threads are inside nested regions. Real programs,
 * traces read back with the OTF2 reader and checked by `weft check`.
 * argv[1] selects one test (cmocka's filter). */
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

static const trace_metric_member *member_of(const trace_model *t, uint32_t id)
{
    for (size_t i = 0; i < t->metric_member_count; i++) {
        if (t->metric_members[i].id == id)
            return &t->metric_members[i];
    }
    fail_msg("no metric member %u", id);
    return NULL;
}

/* WEFT_METRIC_RUSAGE with three fields: one class of three members, and on
 * each of the two threads one METRIC event right before each of its 300
 * enters and leaves, carrying values that never decrease. */
static void test_rusage_metrics_two_threads(void **state)
{
    (void)state;
    const char *env[] = {"WEFT_METRIC_RUSAGE=ru_utime, ru_minflt,ru_nvcsw", NULL};
    program_run run = run_lifecycle("metrics", env);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines)
        fail_msg("unexpected stderr: %s", run.stderr_text);
    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);

    assert_int_equal(t->metric_class_count, 1);
    const trace_metric_class *metric = &t->metric_classes[0];
    assert_int_equal(metric->member_count, 3);
    const char *names[] = {"ru_utime", "ru_minflt", "ru_nvcsw"};
    const char *units[] = {"s", "#", "#"};
    for (int i = 0; i < 3; i++) {
        const trace_metric_member *m = member_of(t, metric->members[i]);
        assert_string_equal(m->name, names[i]);
        assert_string_equal(m->unit, units[i]);
        assert_int_equal(m->metric_type, OTF2_METRIC_TYPE_RUSAGE);
        assert_int_equal(m->mode, OTF2_METRIC_ACCUMULATED_START);
        assert_int_equal(m->value_type, OTF2_TYPE_UINT64);
        assert_int_equal(m->exponent, i == 0 ? -6 : 0);
    }

    assert_int_equal(t->location_count, 2);
    const trace_region *outer = trace_region_by_name(t, "outer");
    const trace_region *inner = trace_region_by_name(t, "inner");
    for (size_t l = 0; l < t->location_count; l++) {
        const trace_location_stats *loc = &t->locations[l];
        assert_int_equal(trace_enter_count(loc, outer->id), 50);
        assert_int_equal(trace_enter_count(loc, inner->id), 100);
        assert_int_equal(loc->kind_counts[TRACE_EVENT_ENTER], 150);
        assert_int_equal(loc->kind_counts[TRACE_EVENT_LEAVE], 150);
        assert_int_equal(loc->kind_counts[TRACE_EVENT_METRIC], 300);
        /* the master thread's program begin and end: no metrics */
        assert_int_equal(loc->event_count, loc->id == 0 ? 602 : 600);
        uint64_t last[3] = {0, 0, 0};
        for (size_t i = 0; i < loc->event_count; i++) {
            const trace_event *e = &loc->events[i];
            if (e->kind != TRACE_EVENT_METRIC)
                continue;
            assert_true(i + 1 < loc->event_count);
            const trace_event *next = &loc->events[i + 1];
            assert_true(next->kind == TRACE_EVENT_ENTER || next->kind == TRACE_EVENT_LEAVE);
            assert_true(e->time <= next->time);
            assert_int_equal(e->metric, metric->id);
            assert_int_equal(e->metric_count, 3);
            for (int v = 0; v < 3; v++) {
                if (e->metric_values[v] < last[v])
                    fail_msg("%s: %s went down from %llu to %llu", loc->name, names[v],
                             (unsigned long long)last[v], (unsigned long long)e->metric_values[v]);
                last[v] = e->metric_values[v];
            }
        }
        /* 100 x 200000 steps of arithmetic take several clock ticks of user CPU
         * time (tens of ms); the thread's stack and pages fault. */
        assert_true(last[0] > 0);
        assert_true(last[1] > 0);
    }
    trace_free(t);
}

/* `all` and unknown names: every field but the unknown one, and one line
 * naming it. */
static void test_rusage_all_and_unknown_name(void **state)
{
    (void)state;
    const char *env[] = {"WEFT_METRIC_RUSAGE=all,ru_bogus", NULL};
    program_run run = run_lifecycle("metrics", env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 1);
    assert_non_null(
        strstr(run.stderr_text, "weft: WEFT_METRIC_RUSAGE: 'ru_bogus' is not a getrusage field"));
    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(t->metric_class_count, 1);
    assert_int_equal(t->metric_classes[0].member_count, 9);
    assert_int_equal(t->locations[0].kind_counts[TRACE_EVENT_METRIC], 300);
    trace_free(t);
}

/* PAPI events this VM cannot count (it exposes no hardware counters) and a
 * name PAPI does not know: one line each, and a complete trace without
 * metrics. */
static void test_papi_events_missing(void **state)
{
    (void)state;
    const char *env[] = {"WEFT_METRIC_PAPI=PAPI_TOT_CYC,NO_SUCH_EVENT", NULL};
    program_run run = run_lifecycle("metrics", env);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines < 1 || run.stderr_lines > 2)
        fail_msg("expected one line per event, got: %s", run.stderr_text);
    assert_non_null(strstr(run.stderr_text, "weft: WEFT_METRIC_PAPI: '"));
    assert_non_null(strstr(run.stderr_text, "PAPI_TOT_CYC"));
    if (run.stderr_lines == 2)
        assert_non_null(strstr(run.stderr_text, "'NO_SUCH_EVENT' is not a PAPI event"));
    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(t->metric_class_count, 0);
    for (size_t l = 0; l < t->location_count; l++) {
        assert_int_equal(t->locations[l].kind_counts[TRACE_EVENT_METRIC], 0);
        assert_int_equal(t->locations[l].event_count, t->locations[l].id == 0 ? 302 : 300);
    }
    trace_free(t);
}

static uint64_t enters(const trace_model *t, const trace_location_stats *loc, const char *name)
{
    const trace_region *r = trace_region_by_name(t, name);
    if (!r)
        return 0;
    assert_int_equal(trace_leave_count(loc, r->id), trace_enter_count(loc, r->id));
    return trace_enter_count(loc, r->id);
}

/* A pause while two threads are two regions deep (see lifecycle.c's
 * pause-nested): regions entered before the pause and left during it are
 * closed at their true time, regions entered during the pause leave no
 * trace at all, and every location balances. */
static void test_pause_inside_nested_regions(void **state)
{
    (void)state;
    program_run run = run_lifecycle("pause-nested", NULL);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines)
        fail_msg("unexpected stderr: %s", run.stderr_text);
    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_location_stats *main_loc = trace_location_by_id(t, 0);
    const trace_location_stats *other = trace_location_by_id(t, UINT64_C(1) << 32);
    assert_non_null(main_loc);
    assert_non_null(other);
    assert_int_equal(enters(t, main_loc, "a"), 1);
    assert_int_equal(enters(t, main_loc, "b"), 1);
    assert_int_equal(enters(t, main_loc, "c"), 0);
    assert_int_equal(enters(t, main_loc, "work"), 1);
    assert_int_equal(main_loc->kind_counts[TRACE_EVENT_MEASUREMENT_ON_OFF], 2);
    assert_int_equal(main_loc->event_count, 10); /* with ProgramBegin and ProgramEnd */
    assert_int_equal(enters(t, other, "x"), 1);
    assert_int_equal(enters(t, other, "y"), 1);
    assert_int_equal(enters(t, other, "z"), 0);
    assert_int_equal(enters(t, other, "w"), 1);
    assert_int_equal(other->event_count, 6);
    trace_free(t);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        TEST(test_rusage_metrics_two_threads),
        TEST(test_rusage_all_and_unknown_name),
        TEST(test_papi_events_missing),
        TEST(test_pause_inside_nested_regions),
    };
    return run_named_test(tests, argc > 1 ? argv[1] : NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
