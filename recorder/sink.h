/* SPDX-License-Identifier: BSD-3-Clause */
/* Where chunks end up: decoded and written as OTF2 events.
 *
 * The sink opens the archive on the first chunk (so a program that records
 * nothing leaves no directory), keeps one OTF2 event writer per location,
 * and counts what it writes. If the output fails, it says so once, stops
 * recording, and from then on counts events as lost instead of writing them.
 * Calls are serialised by the sink's own mutex: the writer thread is the
 * usual caller, a recording thread only when the writer could not start. */
#ifndef WEFT_RECORDER_SINK_H
#define WEFT_RECORDER_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "location.h"
#include "weft/config.h"

/* Remembers the configuration the archive is opened with. */
void weft__sink_configure(const weft_config *cfg);

/* An MPI job opened the archive (ok) or failed to: the sink must not open
 * one of its own; after a failure events count as lost. */
void weft__sink_archive_opened(bool ok);

/* How the recording ends, before the last events are written: events
 * after cut_time (UINT64_MAX: none) are left out, what is still open is
 * closed at cut_time, the master's ProgramEnd carries exit_status
 * (WEFT_EXIT_STATUS_UNKNOWN, or 128 + the signal), and with a signal every
 * location gets the property weft::ended_by_signal. */
void weft__sink_set_end(uint64_t cut_time, uint64_t exit_status, uint32_t signal);

/* For a fork()ed child: the parent's output state is not the child's. */
void weft__sink_forget(void);

/* Writes `count` slots of events recorded on loc. */
void weft__sink_write(weft_loc *loc, const weft_slot *slots, size_t count);

/* Writes a handed-over chunk; after the last chunk of a thread (see
 * location.h) also closes, at the thread's last event, the regions and
 * teams it left open, so that the location's next thread starts with none. */
void weft__sink_write_chunk(const weft_chunk *chunk);

/* Totals over all locations, for the finalisation report. */
typedef struct weft_sink_totals {
    uint64_t events_written;
    uint64_t events_lost;
    uint64_t first_time, last_time;
    bool archive_open;
    bool failed;
    bool broken; /* OTF2 failed a write: the archive must not be closed (OTF2 crashes in
                    its close then); what reached the disk is left for weft recover */
} weft_sink_totals;

/* Closes every location's event writer (creating empty ones for locations
 * that wrote nothing), stores event counts and buffer statistics in the
 * registry as location properties, and returns the totals. Only after the
 * writer has stopped. With `force_archive`, opens the archive even when
 * nothing was written (WEFT_WRITE_EMPTY_TRACE). */
weft_sink_totals weft__sink_finish(bool force_archive);

#endif /* WEFT_RECORDER_SINK_H */
