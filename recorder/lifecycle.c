/* weft_init, weft_finalize, recording on/off, and fork safety; see
 * lifecycle.h and weft/recorder.h. */
#include "lifecycle.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "archive.h"
#include "clock.h"
#include "location.h"
#include "metrics.h"
#include "program.h"
#include "weft/log.h"
#include "sink.h"
#include "weft/recorder.h"
#include "writer.h"
#include "job_internal.h"

atomic_bool weft__recording;
atomic_bool weft__paused;

enum state {
    STATE_UNINITIALISED, /* before the first event */
    STATE_RUNNING,       /* recording, or paused by the user */
    STATE_FINALISED,     /* the trace is written (or finalisation began) */
    STATE_DISABLED,      /* WEFT_ENABLE_TRACING=false, or a failure */
    STATE_FORKED_CHILD,  /* this process is a fork() of a traced one */
};
static _Atomic int state = STATE_UNINITIALISED;

static weft_config config;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pid_t traced_pid;

/* In a fork()ed child only the forking thread exists, and the parent's
 * trace is not ours: never record or write anything here. */
static void in_forked_child(void)
{
    atomic_store_explicit(&weft__recording, false, memory_order_relaxed);
    atomic_store_explicit(&state, STATE_FORKED_CHILD, memory_order_relaxed);
    weft__loc_clear_fast_all();
}

const weft_config *weft_config_current(void)
{
    weft_init(); /* loads the configuration once */
    return &config;
}

static void finalize_at_exit(void)
{
    if (weft__job_attached()) {
        /* A job that missed MPI_Finalize: its archive can only be closed
         * collectively, and the other ranks are not listening. */
        weft__job_abandon();
        return;
    }
    weft_finalize();
}

bool weft__lifecycle_running(void)
{
    return atomic_load_explicit(&state, memory_order_relaxed) == STATE_RUNNING;
}

static void init_once_fn(void)
{
    weft_config_load(&config);
    weft_log_set_verbose(config.verbose);
    traced_pid = getpid();
    if (!config.enable_tracing) {
        weft_log_verbose("WEFT_ENABLE_TRACING is false: nothing is recorded");
        atomic_store_explicit(&state, STATE_DISABLED, memory_order_relaxed);
        return;
    }
    weft__filter_load(config.filtering_file);
    weft__metrics_configure(&config);
    weft_clock_init(config.timer);
    weft__program_start();
    weft__loc_configure(config.buffer_size, config.total_memory, !weft__metrics_enabled());
    weft__sink_configure(&config);
    pthread_atfork(NULL, NULL, in_forked_child);
    atexit(finalize_at_exit);
    weft__writer_start();
    weft_log_verbose("recording with the %s clock, %llu bytes of buffer per thread",
                     weft_clock_name(), (unsigned long long)config.buffer_size);
    atomic_store_explicit(&state, STATE_RUNNING, memory_order_relaxed);
    /* Release: the configuration above is complete before any thread sees
     * recording on (pairs with the acquire in weft__gate_slow). */
    atomic_store_explicit(&weft__recording, true, memory_order_release);
}

void weft_init(void)
{
    pthread_once(&init_once, init_once_fn);
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

bool weft__gate_slow(bool *paused)
{
    if (atomic_load_explicit(&state, memory_order_relaxed) == STATE_UNINITIALISED)
        weft_init();
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
}

bool weft__finalize_begin(void)
{
    int expected = STATE_RUNNING;
    if (getpid() != traced_pid ||
        !atomic_compare_exchange_strong(&state, &expected, STATE_FINALISED))
        return false;
    stop_recording();
    weft__openmp_control_report();

    /* After the freeze no location hands over another chunk, so once the
     * writer has drained its queue only the chunks being filled remain. */
    weft__loc_freeze_all();
    weft__writer_stop();
    weft__loc_for_each_unwritten(weft__sink_write);
    return true;
}

void weft__finalize_report(const weft_sink_totals *totals)
{
    report(totals, weft__loc_count());
}

void weft_finalize(void)
{
    if (weft__job_attached()) {
        /* An MPI job's trace is written collectively, in MPI_Finalize. */
        weft_log_verbose("weft_finalize: the trace is written in MPI_Finalize");
        return;
    }
    if (!weft__finalize_begin())
        return;
    weft_sink_totals totals = weft__sink_finish(config.write_empty_trace);
    if (totals.archive_open) {
        weft_clock_properties clock;
        weft_clock_describe(totals.first_time, totals.last_time, &clock);
        weft__archive_close(weft_defs_global(), weft_defs_global(), &clock, NULL);
    } else if (totals.events_written == 0 && totals.events_lost == 0) {
        weft_log_verbose("no events were recorded; no trace written");
    }
    report(&totals, weft__loc_count());
}

void weft_recording_set(bool on)
{
    static pthread_mutex_t switch_mutex = PTHREAD_MUTEX_INITIALIZER;
    bool paused;
    weft__gate_slow(&paused); /* initialises on first use */
    if (atomic_load_explicit(&state, memory_order_relaxed) != STATE_RUNNING)
        return;
    pthread_mutex_lock(&switch_mutex);
    if (atomic_load(&weft__paused) == !on) {
        pthread_mutex_unlock(&switch_mutex);
        return;
    }
    /* The switch is itself an event, so it is written while recording is
     * on: after switching on, before switching off. Every location then
     * re-checks on its slow path (see pause.h for what it does there). */
    if (on)
        atomic_store(&weft__paused, false);
    weft__measurement_on_off(on);
    if (!on)
        atomic_store(&weft__paused, true);
    weft__loc_clear_fast_all();
    pthread_mutex_unlock(&switch_mutex);
}

void weft_flush_thread(void)
{
    weft_loc *loc = weft__tls_loc;
    if (loc && weft__lifecycle_running())
        weft__loc_flush(loc);
}

bool weft_recording_is_on(void)
{
    return atomic_load_explicit(&weft__recording, memory_order_relaxed) &&
           !atomic_load_explicit(&weft__paused, memory_order_relaxed);
}
