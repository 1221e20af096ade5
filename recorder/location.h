/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-thread locations and their chunked event buffers.
 *
 * Each OS thread that records gets a location on its first event, found
 * through an initial-exec thread-local pointer. Its memory
 * (WEFT_BUFFER_SIZE) is split into chunks; the thread fills one chunk with
 * no lock and no atomic read-modify-write, then hands it to the background
 * writer and continues in a free one. It waits only when every chunk is
 * still queued for writing; that wait becomes a BUFFER_FLUSH event.
 *
 *   location ── chunk (being filled) ──> writer queue ──> OTF2 ──┐
 *       ^                                                        │
 *       └───────────── free chunks <─────────────────────────────┘
 *
 * When a thread ends, its last chunk goes to the writer marked as the
 * thread's last (the writer then closes whatever the thread left open), the
 * location keeps at most one free chunk and waits, idle, for a new thread:
 * the next thread that records (other than the main thread) takes the most
 * recently idled location instead of a new one. So a location is a
 * sequence of threads, one at a time, each starting after the previous one
 * ended, and memory and locations grow with the threads alive at once, not
 * with the threads ever created. Without reuse (metrics are recorded, see
 * weft__loc_configure) an ended thread's location keeps no chunk at all. */
#ifndef WEFT_RECORDER_LOCATION_H
#define WEFT_RECORDER_LOCATION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_codec.h"
#include "open_scopes.h"
#include "pause.h"
#include "weft/definitions.h"

typedef struct weft_loc weft_loc;

typedef struct weft_chunk {
    struct weft_chunk *next; /* link in the writer queue or a free list */
    weft_loc *owner;
    size_t used;      /* slots holding events; set when handed over */
    size_t capacity;  /* slots */
    bool ends_thread; /* the last chunk of the location's current thread */
    weft_slot slots[];
} weft_chunk;

struct weft_loc {
    /* Hot: the owner thread's fill state. `cursor` is the next free slot;
     * the owner stores it with release after each event (weft__loc_commit)
     * so that finalisation can read a live thread's events with acquire
     * (weft__loc_snapshot). `limit` and `chunk` change only under `mutex`.
     * `fast` says the event path may skip every check but the bounds: it is
     * set only by the owner (weft__loc_update_fast) and cleared by anyone
     * who switches recording (weft__loc_clear_fast_all). */
    _Atomic(weft_slot *) cursor;
    weft_slot *limit;
    weft_chunk *chunk;
    atomic_bool fast;

    /* The owner's slow-path state: scopes opened or closed around a pause
     * (pause.c), and the metrics read at every enter and leave (metrics.c). */
    weft_pause_stack pause;
    struct weft_thread_metrics *metrics;

    /* Cold, guarded by `mutex`: free chunks, counts, lifecycle flags. */
    pthread_mutex_t mutex;
    pthread_cond_t chunk_returned; /* signalled by weft__loc_return_chunk */
    weft_chunk *free_chunks;
    uint32_t chunks_allocated;
    bool idle;                   /* no thread owns it now: its thread ended */
    bool frozen;                 /* finalisation has begun: hand nothing more over */
    uint32_t threads;            /* threads that have owned it */
    uint64_t idle_since;         /* when the last owner ended: a new owner's
                                    explicit-time events start no earlier */
    uint64_t chunks_handed_over; /* full chunks, mid-run */
    uint64_t waits;
    uint64_t wait_ticks;

    /* Constant after creation. */
    weft_location def;
    uint32_t thread_number;
    _Atomic(weft_loc *) next_in_list; /* all locations, oldest first */
    weft_loc *next_idle;              /* idle locations, guarded by the list's mutex */

    /* Owned by whoever writes OTF2 (the writer thread; at finalisation the
     * finalising thread after the writer has stopped). */
    void *evt_writer;
    uint64_t events_written;
    uint64_t events_lost; /* recorded but not written: the output failed */
    uint64_t first_time, last_time;
    weft_open_scopes open; /* regions and teams not yet closed */
    uint32_t teams_open;   /* team scopes among them: only a leave inside a team is looked
                              at for a barrier (team_barriers.h) */
    uint32_t outer_team;   /* the outermost team last begun */
    uint32_t *team_runs;   /* begins of each team (by id) as the outermost one, ever:
                              threads of a team join each of its runs, but each
                              thread also joins other teams (team_barriers.h) */
    uint32_t team_runs_size;
    uint64_t scopes_closed; /* closed by the sink at thread ends and the end */
    bool cut;               /* events past the signal that ended the program were left out */
    bool program_begun;     /* its ProgramBegin was written: the program region encloses it */
    struct {
        uint32_t team, thread, generation;
    } task;                /* the task running, as the last task switch written names it
                              (generation 0: the implicit task); see open_scopes.h */
    uint32_t last_team;    /* the thread team this location last joined, or
                              WEFT_INVALID_ID: spares the registry a call per
                              team begin (see sink.c) */
    struct weft_spilled *spilled; /* chunks parked in the spill file (spill.h) */
};

/* The calling thread's location, NULL before its first event. Initial-exec:
 * the OMPT tool library may be dlopen'ed, and glibc keeps spare static TLS
 * for exactly this case (one pointer). */
extern __thread weft_loc *weft__tls_loc __attribute__((tls_model("initial-exec")));

/* Sets the chunk geometry from the buffer size per location and the bound
 * on all locations' chunks together (0: none), and whether locations of
 * ended threads are reused (not when metrics accumulate per thread: a
 * reused location's counters would start again from zero); call once at
 * init. */
void weft__loc_configure(uint64_t buffer_bytes, uint64_t total_bytes, bool reuse);

/* Gives the calling thread a location, an idle one when there is one (see
 * above), and stores it in weft__tls_loc. A new location comes with its
 * first chunk installed; an idle one with the chunk it kept, if any (else
 * the first weft__loc_refill installs one). NULL (reported once) when out
 * of memory. */
weft_loc *weft__loc_create(void);

/* Slow path: the current chunk cannot take `slots` more slots. Hands it to
 * the writer and installs a free one (waiting if there is none), and returns
 * where the event goes, or NULL when recording must not continue. */
weft_slot *weft__loc_refill(weft_loc *loc, size_t slots);

/* Hands the location's current chunk to the writer now, if it holds
 * events, and installs a free one. False when recording must stop. */
bool weft__loc_flush(weft_loc *loc);

/* Publishes `slots` slots written at `at` (see `cursor` above). */
static inline void weft__loc_commit(weft_loc *loc, weft_slot *at, size_t slots)
{
    /* Release: the slots' contents become visible before the new cursor;
     * pairs with the acquire in weft__loc_snapshot. */
    atomic_store_explicit(&loc->cursor, at + slots, memory_order_release);
}

/* The time of the calling thread's latest event, or 0 when that is not in
 * its current chunk (none recorded, or the chunk was just handed over):
 * found by walking the chunk, so for rare use off the event path. */
uint64_t weft__loc_last_time(void);

/* Called by the writer when a chunk's events are written. */
void weft__loc_return_chunk(weft_chunk *chunk);

/* Finalisation: stops every location from handing over more chunks, so that
 * after this the writer queue holds every chunk ever handed over. */
void weft__loc_freeze_all(void);

/* The events a location has not handed over: its current chunk from the
 * start to the last committed slot. Only after weft__loc_freeze_all. */
size_t weft__loc_snapshot(weft_loc *loc, const weft_slot **slots);

/* Calls fn with every location's snapshot (see above) that holds events.
 * Only after weft__loc_freeze_all. */
void weft__loc_for_each_unwritten(void (*fn)(weft_loc *loc, const weft_slot *slots, size_t count));

/* Makes the location's events take the slow path until its owner
 * re-checks them (weft__loc_update_fast), on every location: called after
 * recording is switched off, on, or stopped. Takes no lock, so it is safe
 * from anywhere, including the sink and a fork()ed child. */
void weft__loc_clear_fast_all(void);

/* The owner thread decides whether its events may take the fast path:
 * recording on and not paused, no scope pending from a pause, no metrics. */
void weft__loc_update_fast(weft_loc *loc);

/* Calls fn for every location ever created, oldest first (without a lock:
 * locations created meanwhile may or may not be seen). */
void weft__loc_for_each(void (*fn)(weft_loc *loc, void *context), void *context);

/* Locations created so far. */
uint32_t weft__loc_count(void);

/* When more than one thread could not get a location (out of memory; the
 * first said so at once): one line with the count. */
void weft__loc_report_failures(void);

/* In a fork()ed child: the parent's locations are not the child's; the
 * calling thread gets a new one at its next event. */
void weft__loc_forget_all(void);

#endif /* WEFT_RECORDER_LOCATION_H */
