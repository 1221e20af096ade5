/* SPDX-License-Identifier: BSD-3-Clause */
/* weft_init, weft_finalize and the ways a recording ends (at exit, on a
 * signal, for an MPI rank that leaves its job early), recording on/off;
 * see lifecycle.h and weft/recorder.h. A fork()ed child is fork_child.c's. */
#include "lifecycle.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "clock.h"
#include "job_internal.h"
#include "journal.h"
#include "location.h"
#include "metrics.h"
#include "part_gate.h"
#include "program.h"
#include "signals.h"
#include "sink.h"
#include "weft/log.h"
#include "weft/recorder.h"
#include "writer.h"

/* How long after a signal a rank of an MPI job waits for the others of its
 * node to write their parts (part_gate.h): mpirun waits 1 s at most. */
#define PARTS_WAIT_NS 800000000u

atomic_bool weft__recording;
atomic_bool weft__paused;

/* See lifecycle.h; `state` and `config` for short in this file. */
_Atomic int weft__lifecycle_state = WEFT_STATE_UNINITIALISED;
weft_config weft__lifecycle_config;
static _Atomic int *const state = &weft__lifecycle_state;
static weft_config *const config = &weft__lifecycle_config;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
pid_t weft__traced_pid;

const weft_config *weft_config_current(void)
{
    weft_init(); /* loads the configuration once */
    return config;
}

bool weft__lifecycle_running(void)
{
    return atomic_load_explicit(state, memory_order_relaxed) == WEFT_STATE_RUNNING;
}

bool weft__lifecycle_rescuable(void)
{
    return atomic_load(state) == WEFT_STATE_RUNNING && getpid() == weft__traced_pid;
}

/* The end of the process: exit handlers have run (they may have recorded
 * events: this runs after them, see below). A job that missed MPI_Finalize
 * cannot close its archive, which takes every rank: it leaves its part on
 * disk for `weft recover`. */
static void finalize_at_exit(void)
{
    if (weft__job_attached()) {
        weft__finalize_part(WEFT_JOURNAL_NO_FINALIZE, WEFT_EXIT_STATUS_UNKNOWN, 0);
        return;
    }
    weft_finalize();
}

/* The trace is written when libweft is unloaded, which at exit comes after
 * every atexit handler and C++ static destructor and after the program's
 * own ELF destructors (libweft is a library the program depends on), so
 * that regions recorded there are in the trace. */
__attribute__((destructor)) static void finalize_at_unload(void)
{
    int saved_errno = errno;
    finalize_at_exit();
    errno = saved_errno;
}

/* quick_exit() runs no atexit handler nor destructor: its own handlers,
 * registered with at_quick_exit, are where the trace is written. */
static void finalize_at_quick_exit(void)
{
    int saved_errno = errno;
    finalize_at_exit();
    errno = saved_errno;
}

static void init_once_fn(void)
{
    weft_config_load(config);
    weft_log_set_verbose(config->verbose);
    weft__traced_pid = getpid();
    if (!config->enable_tracing) {
        weft_log_verbose("WEFT_ENABLE_TRACING is false: nothing is recorded");
        atomic_store_explicit(state, WEFT_STATE_DISABLED, memory_order_relaxed);
        return;
    }
    weft__filter_load(config->filtering_file);
    weft__metrics_configure(config);
    weft_clock_init(config->timer);
    weft__program_start();
    /* Locations of ended threads are reused, except when metrics count per
     * thread (location.h). */
    weft__loc_configure(config->buffer_size, config->total_memory, !weft__metrics_enabled());
    weft__sink_configure(config);
    weft__otf2_quiet();
    weft__archive_prepare_name(config);
    pthread_atfork(weft__fork_before, weft__fork_after_in_parent, weft__fork_after_in_child);
    at_quick_exit(finalize_at_quick_exit);
    weft__writer_start();
    weft__signals_install(config->signals);
    weft_log_verbose("recording with the %s clock, %llu bytes of buffer per thread",
                     weft_clock_name(), (unsigned long long)config->buffer_size);
    atomic_store_explicit(state, WEFT_STATE_RUNNING, memory_order_relaxed);
    /* Release: the configuration above is complete before any thread sees
     * recording on (pairs with the acquire in weft__gate_slow). */
    atomic_store_explicit(&weft__recording, true, memory_order_release);
}

void weft_init(void)
{
    int saved_errno = errno; /* starting reads files: the program's errno is its own */
    pthread_once(&init_once, init_once_fn);
    errno = saved_errno;
}

/* Recording normally starts with the first event. A run that asked for a
 * trace even without events (WEFT_WRITE_EMPTY_TRACE) must be initialised
 * anyway, so that its exit handler writes that trace. */
__attribute__((constructor)) static void init_if_empty_trace_wanted(void)
{
    bool wanted = false;
    const char *text = getenv("WEFT_WRITE_EMPTY_TRACE");
    if (text && weft_config_parse_bool(text, &wanted) == WEFT_OK && wanted)
        weft_init();
}

/* An event after the trace was written (an exit handler or destructor that
 * runs after libweft's): not in the trace, said once under WEFT_VERBOSE. */
static void event_after_the_end(void)
{
    static atomic_bool said;
    /* Every later event comes here: the flag first, not a system call. */
    if (atomic_load_explicit(&said, memory_order_relaxed))
        return;
    if (getpid() == weft__traced_pid && !atomic_exchange(&said, true))
        weft_log_verbose("an event recorded after the trace was written (in an exit handler "
                         "or destructor that ran after weft's) is not in the trace");
}

bool weft__gate_slow(bool *paused)
{
    int now = atomic_load_explicit(state, memory_order_relaxed);
    if (now == WEFT_STATE_UNINITIALISED)
        weft_init();
    else if (now == WEFT_STATE_FORKED_CHILD)
        weft__fork_child_start();
    else if (now == WEFT_STATE_FINALISED)
        event_after_the_end();
    *paused = atomic_load_explicit(&weft__paused, memory_order_relaxed);
    return atomic_load_explicit(&weft__recording, memory_order_acquire);
}

bool weft__recording_unpaused(void)
{
    return atomic_load(&weft__recording) && !atomic_load(&weft__paused);
}

/* Recording stops for good: every location's next event takes the slow
 * path, which now records nothing. */
static void stop_recording(void)
{
    atomic_store(&weft__recording, false);
    weft__loc_clear_fast_all();
}

void weft__recording_stop_on_error(void)
{
    stop_recording();
}

static void report(const weft_sink_totals *totals, uint32_t locations)
{
    const char *dir = weft__archive_directory();
    /* Without a directory the one line saying why no trace exists was
     * already printed; a second line would add nothing. */
    if (totals->events_lost > 0 && dir)
        weft_log_error("%llu events were recorded but could not be written%s%s",
                       (unsigned long long)totals->events_lost, "; the trace is incomplete: ", dir);
    if (dir && !totals->failed)
        weft_log_verbose("trace written to '%s': %llu events on %u locations", dir,
                         (unsigned long long)totals->events_written, locations);
    weft__loc_report_failures();
}

/* Stops recording and writes every event still buffered, the events after
 * cut_time left out; false when the recording had ended already (or never
 * ran) in this process. */
static bool finish_recording(uint64_t cut_time, uint64_t exit_status, uint32_t signal)
{
    int expected = WEFT_STATE_RUNNING;
    if (getpid() != weft__traced_pid ||
        !atomic_compare_exchange_strong(state, &expected, WEFT_STATE_FINALISED))
        return false;
    weft__sink_set_end(cut_time, exit_status, signal);
    stop_recording();
    /* The throttling report takes a lock recording threads take; a thread
     * a signal interrupted may hold it, so a rescue skips the report. */
    if (signal == 0)
        weft__openmp_control_report();

    /* After the freeze no location hands over another chunk, so once the
     * writer has drained its queue only the chunks being filled remain. */
    weft__loc_freeze_all();
    weft__writer_stop();
    weft__loc_for_each_unwritten(weft__sink_write);
    return true;
}

bool weft__finalize_begin(void)
{
    return finish_recording(UINT64_MAX, WEFT_EXIT_STATUS_UNKNOWN, 0);
}

void weft__finalize_report(const weft_sink_totals *totals)
{
    report(totals, weft__loc_count());
}

/* Closes the archive of a single process; the journal goes once the
 * archive is closed (a trace that lost events says so itself: the
 * locations' weft::events_lost). */
static void close_single(const weft_sink_totals *totals)
{
    if (totals->archive_open && totals->broken) {
        weft__archive_forget();
        const char *dir = weft__archive_directory();
        weft_log_error("the trace in '%s' cannot be closed after that error; 'weft recover %s' "
                       "makes a trace of what reached the disk",
                       dir, dir);
    } else if (totals->archive_open) {
        weft_clock_properties clock;
        weft_clock_describe(totals->first_time, totals->last_time, &clock);
        if (weft__archive_close(weft_defs_global(), weft_defs_global(), &clock, NULL) == WEFT_OK)
            weft__journal_remove();
    } else if (totals->events_written == 0 && totals->events_lost == 0) {
        weft_log_verbose("no events were recorded; no trace written");
    }
}

/* Ends the recording of a single process (see finish_recording) and writes
 * and closes its trace; false when the recording had ended already. */
static bool finish_single(uint64_t cut_time, uint64_t exit_status, uint32_t signal,
                          weft_sink_totals *totals)
{
    if (!finish_recording(cut_time, exit_status, signal))
        return false;
    *totals = weft__sink_finish(config->write_empty_trace);
    close_single(totals);
    return true;
}

void weft_finalize(void)
{
    int saved_errno = errno;
    weft_sink_totals totals;
    if (weft__job_attached()) {
        /* An MPI job's trace is written collectively, in MPI_Finalize. */
        weft_log_verbose("weft_finalize: the trace is written in MPI_Finalize");
    } else if (finish_single(UINT64_MAX, WEFT_EXIT_STATUS_UNKNOWN, 0, &totals)) {
        report(&totals, weft__loc_count());
    }
    errno = saved_errno;
}

void weft__finalize_part(weft_journal_state how, uint64_t exit_status, uint32_t signal)
{
    weft__finalize_part_at(how, UINT64_MAX, exit_status, signal);
}

void weft__finalize_part_at(weft_journal_state how, uint64_t cut_time, uint64_t exit_status,
                            uint32_t signal)
{
    uint32_t rank = 0;
    if (!weft__job_detach(&rank) || !finish_recording(cut_time, exit_status, signal))
        return;
    weft_sink_totals totals = weft__sink_finish(false);
    uint64_t end = cut_time != UINT64_MAX ? cut_time : totals.last_time;
    weft__journal_end(how, signal, end, !totals.failed);
    /* Closing the archive takes every rank; the others are not there. */
    weft__archive_forget();
    const char *dir = weft__archive_directory();
    weft__part_written(dir, rank);
    char why[64];
    if (how == WEFT_JOURNAL_SIGNALLED)
        snprintf(why, sizeof(why), "was ended by signal %u", signal);
    else
        snprintf(why, sizeof(why), "%s",
                 how == WEFT_JOURNAL_ABORTED ? "called MPI_Abort" : "ended without MPI_Finalize");
    weft_log_error("rank %u %s: its part of the trace (%llu events) is in '%s'; once the job has "
                   "ended, 'weft recover %s' makes a trace of every rank's part",
                   rank, why, (unsigned long long)totals.events_written, dir ? dir : "?",
                   dir ? dir : "DIR");
    weft__loc_report_failures();
}

void weft__finalize_on_signal(int signo, uint64_t time)
{
    uint64_t status = (uint64_t)(int64_t)(128 + signo);
    if (weft__job_attached()) {
        /* The other ranks of the node are ended at the same moment: none
         * dies before all have written (part_gate.h), for up to this long
         * after the signal, within the second mpirun gives them. */
        uint64_t deadline = weft__monotonic_ns() + PARTS_WAIT_NS;
        weft__finalize_part_at(WEFT_JOURNAL_SIGNALLED, time, status, (uint32_t)signo);
        weft__parts_wait(weft__archive_directory(), deadline);
        return;
    }
    weft_sink_totals totals;
    if (!finish_single(time, status, (uint32_t)signo, &totals))
        return;
    const char *dir = weft__archive_directory();
    if (dir)
        weft_log_error("the program was ended by signal %d (%s); the trace of everything it "
                       "recorded until then is in '%s'",
                       signo, strsignal(signo), dir);
    report(&totals, weft__loc_count());
}

void weft_flush_thread(void)
{
    int saved_errno = errno;
    weft_loc *loc = weft__tls_loc;
    if (loc && weft__lifecycle_running()) {
        weft_signals_held before;
        weft__signals_hold(&before); /* it takes the location's lock */
        weft__loc_flush(loc);
        weft__signals_release(&before);
    }
    errno = saved_errno;
}

bool weft_recording_is_on(void)
{
    return atomic_load_explicit(&weft__recording, memory_order_relaxed) &&
           !atomic_load_explicit(&weft__paused, memory_order_relaxed);
}
