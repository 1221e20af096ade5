/* See recorder_fixture.h. */
#include "recorder_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

char scratch[4096];
char trace_dir[4300];

int setup(void **state)
{
    (void)state;
    scratch_dir_create(scratch, sizeof(scratch));
    snprintf(trace_dir, sizeof(trace_dir), "%s/trace", scratch);
    return 0;
}

int teardown(void **state)
{
    (void)state;
    if (!getenv("WEFT_TEST_KEEP"))
        scratch_dir_remove(scratch);
    return 0;
}

/* Runs `weft check` on dir. For "sound" it must exit with 0; for another
 * verdict with 1, printing one line only, which starts with
 * "weft check: VERDICT:". */
static void expect_verdict(const char *dir, const char *verdict)
{
    char command[9000], path[4400], line[9000] = "";
    snprintf(command, sizeof(command), "'%s' check '%s' >'%s.check' 2>&1", WEFT_CLI, dir, dir);
    int status = system(command);
    bool sound = strcmp(verdict, "sound") == 0;
    bool ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == (sound ? 0 : 1);
    if (ok && !sound) {
        snprintf(path, sizeof(path), "%s.check", dir);
        FILE *f = fopen(path, "r");
        int lines = 0;
        while (f && fgets(line, sizeof(line), f))
            lines++;
        if (f)
            fclose(f);
        char start[64];
        snprintf(start, sizeof(start), "weft check: %s:", verdict);
        ok = lines == 1 && strncmp(line, start, strlen(start)) == 0;
    }
    if (!ok)
        fail_msg("weft check does not find the trace in %s %s (see %s.check)", dir, verdict, dir);
}

static trace_model *read_trace(const char *dir, bool keep_events)
{
    char anchor[4400], err[512] = "";
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    trace_options opt = {.keep_events = keep_events};
    trace_model *t = NULL;
    if (trace_load(anchor, &opt, &t, err, sizeof(err)) != 0)
        fail_msg("cannot read the trace in %s: %s", dir, err);
    return t;
}

trace_model *load_trace(const char *dir, bool keep_events)
{
    trace_model *t = read_trace(dir, keep_events);
    /* `weft check` must find every trace these tests read sound. */
    expect_verdict(dir, "sound");
    return t;
}

trace_model *load_recovered_trace(const char *dir, bool keep_events)
{
    trace_model *t = read_trace(dir, keep_events);
    expect_verdict(dir, "recovered with losses");
    return t;
}

void check_sound(const trace_model *t)
{
    assert_true(t->has_clock_properties);
    assert_true(t->timer_resolution >= 1000000u);
    assert_int_equal(t->system_tree_node_count, 2);
    assert_string_equal(t->system_tree_nodes[1].class_name, "node");
    assert_int_equal(t->location_group_count, 1);
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        if (loc->nesting_errors)
            fail_msg("location %s: %s", loc->name, loc->first_nesting_error);
        if (loc->time_decreases)
            fail_msg("location %s: %s", loc->name, loc->first_time_error);
        assert_int_equal(loc->defined_event_count, loc->event_count);
        assert_int_equal(loc->type, OTF2_LOCATION_TYPE_CPU_THREAD);
        if (loc->event_count) {
            assert_true(loc->first_time >= t->global_offset);
            assert_true(loc->last_time <= t->global_offset + t->trace_length);
        }
    }
}

uint64_t property(const trace_model *t, uint64_t location, const char *name)
{
    uint64_t value = 0;
    if (!trace_location_property(t, location, name, &value))
        fail_msg("location %llu has no property %s", (unsigned long long)location, name);
    return value;
}

program_run run_in_scratch(const char *const *argv, const char *const *env)
{
    return run_program(argv, env, scratch);
}

program_run run_lifecycle(const char *mode, const char *const *extra_env)
{
    static char dir_var[4400];
    snprintf(dir_var, sizeof(dir_var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    const char *env[8] = {dir_var};
    for (int i = 0; extra_env && extra_env[i] && i < 6; i++)
        env[i + 1] = extra_env[i];
    const char *argv[] = {LIFECYCLE_PROGRAM, mode, NULL};
    return run_in_scratch(argv, env);
}
/* SPDX-License-Identifier: BSD-3-Clause */
