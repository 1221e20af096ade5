/* SPDX-License-Identifier: BSD-3-Clause */
/* The background writer: a thread that turns handed-over chunks into OTF2.
 *
 * Recording threads never write OTF2 themselves while the writer runs; they
 * queue full chunks (weft__writer_submit) and carry on. Chunks are written
 * in the order they were queued, so each location's events stay in order.
 * If the thread cannot be started, chunks are written synchronously by the
 * submitting thread instead (slower, never lost). */
#ifndef WEFT_RECORDER_WRITER_H
#define WEFT_RECORDER_WRITER_H

#include <stdbool.h>

#include "location.h"

/* Starts the writer thread (all signals blocked in it, so the program's
 * signal handlers keep running on its own threads). */
void weft__writer_start(void);

/* Queues a chunk for writing and returns true; the writer later gives it
 * back with weft__loc_return_chunk. Returns false when the chunk was written
 * synchronously instead; it then still belongs to the caller. May be called
 * with the chunk owner's mutex held. */
bool weft__writer_submit(weft_chunk *chunk);

/* While held, queued chunks stay queued: an MPI job has not yet told where
 * the trace goes (weft/job.h). Releasing the hold writes them in order. */
void weft__writer_hold(bool hold);

/* True while the writer holds its queue (and runs): locations then grow
 * beyond their memory bound rather than wait for a chunk that cannot come
 * back before MPI_Init. */
bool weft__writer_held(void);

/* Writes every queued chunk, then ends the writer thread. After this,
 * submissions are written synchronously. */
void weft__writer_stop(void);

/* In a fork()ed child: the writer thread and its queue are the parent's;
 * weft__writer_start starts the child's. */
void weft__writer_forget(void);

#endif /* WEFT_RECORDER_WRITER_H */
