/* What the merged POMP proposal's test files share (test_pomp_proposal.c
 * runs them): the program under test, its runs and region look-ups. */
#ifndef WEFT_TESTS_POMP_PROPOSAL_TEST_H
#define WEFT_TESTS_POMP_PROPOSAL_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include "otf2_trace.h"
#include "recorder_fixture.h"

/* proposal_program.c built with gcc (libgomp) or clang (libomp). */
extern const char *proposal_program;
/* The runtime keeps a reference to the lock in its value (libomp): the
 * by-value lock events can tell locks apart. */
extern bool proposal_libomp;

/* Runs the program in `mode` with the trace in trace_dir and up to eight
 * more environment assignments. */
program_run run_mode(const char *mode, const char *const *extra_env);

/* What the by-value lock events say on stderr under libgomp (once). */
#define BY_VALUE_NOTICE                                                                            \
    "weft: the event of omp_set_lock got the lock by value (the function, not pomplib.h's "        \
    "macro), and this OpenMP runtime keeps the lock's state there: such locks' acquisitions and "  \
    "releases are not recorded\n"

/* Fails unless stderr holds exactly what a run of "every" says: the by-value
 * notice when lock events are recorded under libgomp, nothing else. */
void expect_every_stderr(const program_run *run, bool lock_events);

/* The region named `name` that begins at `line` (any line when 0); NULL
 * when there is none. */
const trace_region *region_at(const trace_model *t, const char *name, uint32_t line);

/* Visits of that region over all locations (enters and leaves must match
 * on each); 0 when it is not defined. */
uint64_t visits_at(const trace_model *t, const char *name, uint32_t line);

/* Fails unless the region has `want` visits in all. */
void expect_visits_at(const trace_model *t, const char *name, uint32_t line, uint64_t want);

/* Sum of one event kind over all locations. */
uint64_t kind_total(const trace_model *t, trace_event_kind kind);

/* proposal_levels.c */
void test_every_event_default_levels(void **state);
void test_every_level_of_every_group(void **state);
void test_bad_level(void **state);

/* proposal_every_checks.c */
void test_every_routine_1_thread(void **state);
void test_every_routine_2_threads(void **state);

#endif /* WEFT_TESTS_POMP_PROPOSAL_TEST_H */
/* SPDX-License-Identifier: BSD-3-Clause */
