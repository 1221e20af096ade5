/* SPDX-License-Identifier: BSD-3-Clause */
/* Recorder lifecycle: start on the first event, finalise at exit, on
 * request, on a terminating signal (signals.h) or when an MPI rank leaves
 * its job early; a fork()ed child records a trace of its own
 * (fork_child.c); stop cleanly on output failure. */
#ifndef WEFT_RECORDER_LIFECYCLE_H
#define WEFT_RECORDER_LIFECYCLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "weft/config.h"
#include "weft/journal.h"

/* True while the recorder records or is paused: initialised, tracing
 * enabled, not finalised, no output failure. The hot path does not read it:
 * it reads its location's `fast` flag, which every switch clears (see
 * location.h); the slow path reads this. */
extern atomic_bool weft__recording;

/* True while the user has paused recording (weft_recording_set(false)). */
extern atomic_bool weft__paused;

enum weft_lifecycle_state {
    WEFT_STATE_UNINITIALISED, /* before the first event */
    WEFT_STATE_RUNNING,       /* recording, or paused by the user */
    WEFT_STATE_FINALISED,     /* the trace is written (or finalisation began) */
    WEFT_STATE_DISABLED,      /* WEFT_ENABLE_TRACING=false, or a failure */
    WEFT_STATE_FORKED_CHILD,  /* a fork() of a recording process, before its first event */
};

/* The state (enum weft_lifecycle_state), the configuration recording
 * started with, and the process that records: lifecycle.c's, shared with
 * fork_child.c. */
extern _Atomic int weft__lifecycle_state;
extern weft_config weft__lifecycle_config;
extern pid_t weft__traced_pid;

/* The slow path's check: initialises on the very first event (and in a
 * fork()ed child on its first), returns whether the recorder runs
 * (weft__recording) and puts the pause state in *paused. */
bool weft__gate_slow(bool *paused);

/* Recording runs and is not paused (sequentially consistent loads; see
 * weft__loc_update_fast). */
bool weft__recording_unpaused(void);

/* Writes a MeasurementOnOff event on the calling thread (events.c). */
void weft__measurement_on_off(bool on);

/* An OpenMP fork and join (events.c), counted for weft_recording_set: a
 * switch inside a parallel region waits for the last join
 * (recording_switch.c). */
void weft__recording_fork_counted(void);
void weft__recording_join_counted(void);

/* The output failed (sink): stop recording for good. */
void weft__recording_stop_on_error(void);

/* True while the recorder runs (initialised, tracing enabled, not yet
 * finalised), whether or not recording is paused. */
bool weft__lifecycle_running(void);

/* Whether a terminating signal has a trace to write: recording runs in
 * this very process. Async-signal-safe. */
bool weft__lifecycle_rescuable(void);

/* The first half of finalisation, shared by weft_finalize and the job's:
 * stops recording and writes every event still buffered. False when
 * finalisation already happened (or recording never ran) in this process. */
bool weft__finalize_begin(void);

/* The rescue thread's work after a terminating signal SIGNO at TIME
 * (signals.c): every event up to TIME is written, what is open is closed at
 * TIME, the master's ProgramEnd says 128 + SIGNO, every location has the
 * property weft::ended_by_signal; a single process closes its archive, an
 * MPI rank leaves its part on disk (weft__finalize_part_at). */
void weft__finalize_on_signal(int signo, uint64_t time);

/* An MPI rank that leaves its job before MPI_Finalize (how: why): writes
 * its events (those after CUT_TIME left out; UINT64_MAX: none) and closes
 * its event files, but not the archive, which needs every rank; marks its
 * journal for `weft recover`, and says so in one line. Nothing when the
 * process is not attached to a job. */
void weft__finalize_part(weft_journal_state how, uint64_t exit_status, uint32_t signal);
void weft__finalize_part_at(weft_journal_state how, uint64_t cut_time, uint64_t exit_status,
                            uint32_t signal);

/* Reads the filter file PATH (WEFT_FILTERING_FILE; NULL or empty: none)
 * into the process's filter (filtering.c). A file that cannot be read or
 * parsed gives one line on stderr, naming it and the line, and no filter. */
void weft__filter_load(const char *path);

/* True when the filter excludes the OpenMP region NAME (a rule naming
 * "!$omp" regions; see weft_filter_excludes_openmp). */
bool weft__filter_excludes_openmp(const char *name);

/* At finalisation: one line naming the OpenMP regions throttled, if any
 * (openmp_control.c). */
void weft__openmp_control_report(void);

/* The last line(s) of finalisation: where the trace went, what was lost. */
struct weft_sink_totals;
void weft__finalize_report(const struct weft_sink_totals *totals);

/* OTF2's own error lines are kept back in a traced program (otf2_quiet.c). */
void weft__otf2_quiet(void);

/* ---- fork (fork_child.c) -------------------------------------------------- */

/* pthread_atfork's handlers. */
void weft__fork_before(void);
void weft__fork_after_in_parent(void);
void weft__fork_after_in_child(void);

/* The child's first event: it starts a recording of its own (or, the child
 * of an MPI rank, says in one line that it is not traced). */
void weft__fork_child_start(void);

#endif /* WEFT_RECORDER_LIFECYCLE_H */
