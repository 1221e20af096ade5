/* What the recorder's integration tests share: a scratch directory per
 * test (setup/teardown), running the test programs with the trace going to
 * trace_dir, and reading the trace back (which also runs `weft check` on
 * it) with the checks every weft trace must pass. */
#ifndef WEFT_TESTS_RECORDER_FIXTURE_H
#define WEFT_TESTS_RECORDER_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "otf2_trace.h"
#include "run_program.h"

extern char scratch[4096];
extern char trace_dir[4300];

int setup(void **state);
int teardown(void **state);

/* Reads the trace in dir (events kept when keep_events) after `weft check`
 * found it sound; fails the test otherwise. */
trace_model *load_trace(const char *dir, bool keep_events);
#define load(dir) load_trace(dir, false)

/* The same for a trace that `weft recover` made and that lost events:
 * weft check must call it "recovered with losses" (exit status 1) and
 * report nothing else. */
trace_model *load_recovered_trace(const char *dir, bool keep_events);

/* Properties every weft trace of one process has. */
void check_sound(const trace_model *t);

/* A numeric location property; fails the test when it is missing. */
uint64_t property(const trace_model *t, uint64_t location, const char *name);

program_run run_in_scratch(const char *const *argv, const char *const *env);

/* Runs the lifecycle program in `mode` with the trace in trace_dir and up
 * to six more environment assignments. */
program_run run_lifecycle(const char *mode, const char *const *extra_env);

#endif /* WEFT_TESTS_RECORDER_FIXTURE_H */
/* SPDX-License-Identifier: BSD-3-Clause */
