/* SPDX-License-Identifier: BSD-3-Clause */
/* Disk space for the end of a trace, set aside before it is needed.
 *
 * OTF2 does not survive a write that fails for lack of space: its files are
 * then left empty or cut in the middle of a chunk, and the whole trace is
 * unreadable. The sink's check of the free space before each chunk of
 * events (sink.c) stops recording in time when weft itself fills the disk,
 * but another process may take the space between that check and OTF2's
 * write, or while the program runs on. So:
 *
 *   - a reserve file (DIR/journal/reserve) holds, from the moment the
 *     archive opens, what closing the archive writes: the definitions and
 *     the anchor (a fixed margin) and the events OTF2 holds in memory for
 *     every location whose event file is open (its chunks and its file
 *     buffer, otf2_memory.h; grown as event files open); closing releases
 *     it first;
 *   - before OTF2 writes a chunk of events, the space of the next write to
 *     the location's event file (up to OTF2's file buffer and the chunks)
 *     is allocated in that file itself (fallocate, keeping the file's
 *     size), where no other process can take it; when that fails, the
 *     reserve gives up that much for it and recording stops.
 *
 * On a file system without fallocate only the sink's check is left. */
#ifndef WEFT_RECORDER_DISK_RESERVE_H
#define WEFT_RECORDER_DISK_RESERVE_H

#include <stdbool.h>
#include <stdint.h>

/* The archive in DIR is open: sets the reserve aside. */
void weft__disk_reserve_open(const char *dir);

/* This many event writers are open: the reserve grows to hold the events
 * OTF2 may hold for each. False when the space is not there any more (the
 * disk is full). */
bool weft__disk_reserve_grow(uint32_t event_writers);

/* OTF2 is about to write a chunk of the event file of LOCATION (its OTF2
 * id): its space is allocated first. False when even the reserve could not
 * make room (the write may fail). */
bool weft__disk_reserve_before_flush(uint64_t location);

/* True while the reserve is set aside (false where fallocate is missing). */
bool weft__disk_reserve_held(void);

/* True once the disk was found full here: recording must stop. */
bool weft__disk_reserve_exhausted(void);

/* Closing begins: the reserve is given back for what closing writes. */
void weft__disk_reserve_release(void);

/* For a fork()ed child: the parent's reserve is not its own. */
void weft__disk_reserve_forget(void);

#endif /* WEFT_RECORDER_DISK_RESERVE_H */
