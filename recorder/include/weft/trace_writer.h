/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing an OTF2 trace from events this process did not record: `weft
 * convert` builds the definitions of an old trace in a registry and hands
 * its events over one by one; they are written with the recorder's own OTF2
 * code (definitions, event records, archive layout, chunk allocator), so a
 * converted trace looks like a recorded one.
 *
 * One writer per process at a time; not to be used while the process
 * records a trace of its own. */
#ifndef WEFT_RECORDER_TRACE_WRITER_H
#define WEFT_RECORDER_TRACE_WRITER_H

#include "weft/compiler.h"
#include "weft/definitions.h"
#include "weft/event.h"
#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weft_trace_writer weft_trace_writer;

/* Creates the directory DIR, which must not exist (WEFT_ERR_EXISTS), and
 * an OTF2 archive in it (traces.otf2, traces.def, traces/). Failures are
 * reported in one line naming DIR. */
WEFT_EXPORT weft_status weft_trace_writer_open(const char *dir, weft_trace_writer **out);

/* The registry the trace's definitions go into: regions, strings,
 * locations (weft_registry_location_in_group), processes, communicators
 * and their members, metrics. */
WEFT_EXPORT weft_registry *weft_trace_writer_registry(weft_trace_writer *w);

/* Names the program the trace is of, as started with argv[0..argc-1]
 * (strings copied; weft/program.h): the master thread (thread 0) of every
 * process then gets a ProgramBegin just before its first event and a
 * ProgramEnd after its last, so that the program region roots its call
 * tree as Scalasca's analyzer needs. Call before the first event. */
WEFT_EXPORT weft_status weft_trace_writer_program(weft_trace_writer *w, uint32_t argc,
                                                  const char *const *argv);

/* Writes one event of the location LOC, which must be in the registry; a
 * location's events must come in time order (time in the trace's ticks).
 * Events of different locations may interleave. Every id is the registry's
 * (MPI-IO handles and RMA windows: its objects; a group sync: the
 * communicator whose group synchronises); the registry must hold every
 * object before the first MPI-IO or RMA event. WEFT_ERR_OTF2 (reported)
 * when OTF2 refuses it. */
WEFT_EXPORT weft_status weft_trace_writer_event(weft_trace_writer *w, weft_location loc,
                                                const weft_event *e);

/* Closes every event file, writes the definitions with the clock
 * properties given and closes the archive; frees w. */
WEFT_EXPORT weft_status weft_trace_writer_close(weft_trace_writer *w,
                                                const weft_clock_properties *clock);

/* Abandons the trace: closes what is open and removes DIR with everything
 * in it; frees w. */
WEFT_EXPORT void weft_trace_writer_discard(weft_trace_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECORDER_TRACE_WRITER_H */
