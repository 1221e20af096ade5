/* Recorder lifecycle: start on the first event, finalise at exit or on
 * request, stay out of fork()ed children, stop cleanly on output failure. */
#ifndef WEFT_RECORDER_LIFECYCLE_H
#define WEFT_RECORDER_LIFECYCLE_H

#include <stdatomic.h>
#include <stdbool.h>

/* The hot path's only check: true while events are recorded. Written with
 * release by the lifecycle functions, read relaxed by the hot path (a thread
 * that sees the switch late records or skips one more event; the event data
 * itself is ordered by the location's cursor). */
extern atomic_bool weft__recording;

/* Out-of-line part of the check: initialises on the very first event and
 * returns whether recording is on now. */
bool weft__gate_slow(void);

/* Writes a MeasurementOnOff event on the calling thread (events.c). */
void weft__measurement_on_off(bool on);

/* The output failed (sink): stop recording for good. */
void weft__recording_stop_on_error(void);

#endif /* WEFT_RECORDER_LIFECYCLE_H */
