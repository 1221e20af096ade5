/* SPDX-License-Identifier: BSD-3-Clause */
/* The spill file: chunks of locations that may not open their event file
 * yet (otf2_memory.h), parked on disk until the end of the run.
 *
 * One file for the whole process, in the experiment directory and unlinked
 * as soon as it is open (nothing is left behind, whatever happens). Parked
 * chunks are weft's own slots, as they came from the buffer, appended in
 * the order the sink got them; at finalisation each location's are read
 * back, in order, and written to OTF2 like any other chunk. So the
 * descriptors weft holds stay a few whatever the number of threads, and
 * the memory a location uses stays bounded while it waits. Only the sink
 * calls these (under its mutex). */
#ifndef WEFT_RECORDER_SPILL_H
#define WEFT_RECORDER_SPILL_H

#include <stdbool.h>
#include <stddef.h>

#include "location.h"

/* From now on loc's chunks are parked (weft__spill_park) instead of
 * written; false when that cannot be (out of memory). */
bool weft__spill_begin(weft_loc *loc);

/* True while loc's chunks are being parked. */
bool weft__spill_active(const weft_loc *loc);

/* Appends a chunk of loc, `count` slots holding `events` events, and
 * whether it is the last of its thread (see weft_chunk), to the spill file;
 * false when the file cannot be created or written (the caller writes it to
 * OTF2 then, and loc's parking ends). */
bool weft__spill_park(weft_loc *loc, const weft_slot *slots, size_t count, uint64_t events,
                      bool ends_thread);

/* How the sink writes a chunk read back. */
typedef void (*weft_spill_writer)(weft_loc *loc, const weft_slot *slots, size_t count,
                                  bool ends_thread);

/* Ends loc's parking and calls write with each parked chunk, in order,
 * then forgets them. Returns the events of chunks that could not be read
 * back (an I/O error): lost. */
uint64_t weft__spill_replay(weft_loc *loc, weft_spill_writer write);

/* Closes the spill file (at the end of finalisation). */
void weft__spill_close(void);

/* For a fork()ed child: the spill file is the parent's (the same open file:
 * writing to it would overwrite the parent's parked events). */
void weft__spill_forget(void);

#endif /* WEFT_RECORDER_SPILL_H */
