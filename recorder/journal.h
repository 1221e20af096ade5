/* SPDX-License-Identifier: BSD-3-Clause */
/* The recorder's side of the recovery journal (weft/journal.h): the file
 * DIR/journal/<rank>.journal of this process, kept up to date while the
 * archive is open and removed once the trace is complete. Every function
 * is safe to call when no journal is open (it does nothing), and none
 * stops the program: a journal that cannot be written is said once under
 * WEFT_VERBOSE. */
#ifndef WEFT_RECORDER_JOURNAL_PRIVATE_H
#define WEFT_RECORDER_JOURNAL_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/journal.h"

/* Starts the journal of this process (rank: its location group) in the
 * experiment directory DIR, whose archive is open, and writes its first
 * version. */
void weft__journal_open(const char *dir, uint32_t rank);

/* OTF2 is about to write a chunk of events: brings the journal up to date
 * when definitions were added since its last version (or a second passed,
 * for the clock). Also counts progress (weft__journal_progress). */
void weft__journal_before_flush(void);

/* The last version: how the process ended (weft_journal_state), the
 * signal, the time its events end at, and whether every event up to then
 * is on disk with its scopes closed. */
void weft__journal_end(weft_journal_state state, uint32_t signal, uint64_t end_time, bool flushed);

/* The trace is complete: the journal is not needed any more. */
void weft__journal_remove(void);

/* For a fork()ed child: the parent's journal is not the child's. */
void weft__journal_forget(void);

/* Grows while the recorder writes (OTF2 flushes, journal versions): the
 * signal handler waits for a final write as long as this moves. */
uint64_t weft__journal_progress(void);

#endif /* WEFT_RECORDER_JOURNAL_PRIVATE_H */
