/* Recorder lifecycle: start on the first event, finalise at exit or on
 * request, stay out of fork()ed children, stop cleanly on output failure. */
#ifndef WEFT_RECORDER_LIFECYCLE_H
#define WEFT_RECORDER_LIFECYCLE_H

#include <stdatomic.h>
#include <stdbool.h>

/* True while the recorder records or is paused: initialised, tracing
 * enabled, not finalised, no output failure. The hot path does not read it:
 * it reads its location's `fast` flag, which every switch clears (see
 * location.h); the slow path reads this. */
extern atomic_bool weft__recording;

/* True while the user has paused recording (weft_recording_set(false)). */
extern atomic_bool weft__paused;

/* The slow path's check: initialises on the very first event, returns
 * whether the recorder runs (weft__recording) and puts the pause state in
 * *paused. */
bool weft__gate_slow(bool *paused);

/* Recording runs and is not paused (sequentially consistent loads; see
 * weft__loc_update_fast). */
bool weft__recording_unpaused(void);

/* Writes a MeasurementOnOff event on the calling thread (events.c). */
void weft__measurement_on_off(bool on);

/* The output failed (sink): stop recording for good. */
void weft__recording_stop_on_error(void);

/* True while the recorder runs (initialised, tracing enabled, not yet
 * finalised), whether or not recording is paused. */
bool weft__lifecycle_running(void);

/* The first half of finalisation, shared by weft_finalize and the job's:
 * stops recording and writes every event still buffered. False when
 * finalisation already happened (or recording never ran) in this process. */
bool weft__finalize_begin(void);

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

#endif /* WEFT_RECORDER_LIFECYCLE_H */
