/* SPDX-License-Identifier: BSD-3-Clause */
/* The recovery journal: what a recording process keeps on disk, next to
 * the OTF2 event files it writes, so that a trace it could not finish
 * (killed with SIGKILL, out of memory, a node that failed, an MPI rank that
 * ended without MPI_Finalize) can be rebuilt from what reached the disk
 * (`weft recover`, docs/FAULTS.md).
 *
 * Every process of a trace keeps one file, DIR/journal/<rank>.journal: its
 * definitions (the registry, packed as for unifying an MPI job's ranks,
 * weft/unify.h), its host, its clock (two readings of its tick counter
 * against CLOCK_MONOTONIC and the wall clock, from which the tick rate
 * follows), its clock offsets to rank 0 (MPI), the size of OTF2's chunks,
 * and how the process ended. The recorder rewrites the file (a new file
 * renamed over the old one, so it is always whole) before OTF2 writes any
 * chunk of events to disk whenever definitions were added since the last
 * version, so every event on disk has its definitions in the journal; and
 * removes it once the process wrote a complete trace. */
#ifndef WEFT_RECORDER_JOURNAL_H
#define WEFT_RECORDER_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/definitions.h"
#include "weft/status.h"
#include "weft/unify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The journal's directory inside an experiment directory. */
#define WEFT_JOURNAL_DIR "journal"

/* How far the process got. */
typedef enum weft_journal_state {
    WEFT_JOURNAL_RECORDING = 0,   /* still recording (or killed while it did) */
    WEFT_JOURNAL_SIGNALLED = 1,   /* ended by a signal; its events were written */
    WEFT_JOURNAL_NO_FINALIZE = 2, /* an MPI rank that ended without MPI_Finalize */
    WEFT_JOURNAL_ABORTED = 3,     /* an MPI rank that called MPI_Abort */
    WEFT_JOURNAL_STATE_COUNT
} weft_journal_state;

/* A measured offset of a process's clock to rank 0's (MPI). */
typedef struct weft_journal_offset {
    uint64_t time;  /* local timestamp */
    int64_t offset; /* rank 0's clock minus the local one, in ticks */
    double stddev;
} weft_journal_offset;

/* One process's journal, as read back. */
typedef struct weft_journal_part {
    uint32_t rank; /* its location group: the MPI rank, 0 for a single process */
    uint32_t pid;
    weft_journal_state state;
    uint32_t signal;   /* SIGNALLED: the signal's number */
    uint64_t end_time; /* SIGNALLED: the signal's time; NO_FINALIZE, ABORTED: the end */
    bool flushed;      /* every event up to end_time reached the disk, closed */
    uint64_t event_chunk_bytes, definition_chunk_bytes; /* of its OTF2 archive */
    /* The clock: ticks at two moments, with CLOCK_MONOTONIC and the wall
     * clock (nanoseconds) at the first. */
    bool ticks_are_ns;
    uint64_t first_ticks, first_mono_ns, first_real_ns, last_ticks, last_mono_ns;
    char host[256];
    weft_journal_offset *offsets;
    size_t offset_count;
    /* Its ids (strings, regions, comms, metrics) in the registry it was
     * merged into, and its locations there: first_location, first_location
     * + 1, ... */
    weft_id_maps maps;
    uint32_t first_location, location_count;
} weft_journal_part;

/* Reads every journal file in JOURNAL_DIR (DIR/journal), in the order of
 * their ranks, and merges their definitions into INTO (rank 0's first, so
 * its MPI_COMM_WORLD stays the first communicator), registering each
 * process on its host. On success *parts (weft_journal_free) holds one
 * entry per file. A file that is not a whole journal is an error: its name
 * and why go into err. */
WEFT_EXPORT weft_status weft_journal_read(const char *journal_dir, weft_registry *into,
                                          weft_journal_part **parts, size_t *count, char *err,
                                          size_t err_len);

WEFT_EXPORT void weft_journal_free(weft_journal_part *parts, size_t count);

/* The ticks per second of a part's clock (10^9 when its ticks are
 * nanoseconds), and the wall-clock time (ns since the epoch) at tick T. */
WEFT_EXPORT uint64_t weft_journal_ticks_per_second(const weft_journal_part *part);
WEFT_EXPORT uint64_t weft_journal_realtime_at(const weft_journal_part *part, uint64_t ticks);

/* A state's words for a report ("ended by a signal"). */
WEFT_EXPORT const char *weft_journal_state_text(weft_journal_state state);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECORDER_JOURNAL_H */
