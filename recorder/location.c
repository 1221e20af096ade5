/* SPDX-License-Identifier: BSD-3-Clause */
/* Locations and their chunk buffers; see location.h for the design. Every
 * function here except weft__loc_commit is off the hot path and may lock. */
#include "location.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "lifecycle.h"
#include "main_exit.h"
#include "metrics.h"
#include "pages.h"
#include "signals.h"
#include "weft/log.h"
#include "weft/alloc.h"
#include "writer.h"

__thread weft_loc *weft__tls_loc __attribute__((tls_model("initial-exec")));

/* A location's memory is split into this many chunks: the thread can fill
 * the others while the writer drains one. */
#define CHUNKS_PER_LOCATION 8u

/* Chunk geometry, set once by weft__loc_configure before any location. */
static size_t chunk_capacity;
static bool reuse_locations;

/* WEFT_TOTAL_MEMORY: chunks of all locations together stay within
 * `memory_bound` bytes (0: no bound), except each location's first. */
static uint64_t memory_bound;
static _Atomic uint64_t memory_in_chunks;

/* All locations, in creation order; guarded by list_mutex. */
static pthread_mutex_t list_mutex = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(weft_loc *) list_head; /* also walked without the mutex */
static weft_loc *list_tail;
static uint32_t list_count;
static uint32_t next_thread_number = 1; /* 0 is the main thread's */
static weft_loc *idle_head;             /* idle locations, last idled first */

/* Runs weft__loc_thread_exit when a recording thread ends. */
static pthread_key_t exit_key;

/* Threads whose location could not be made (out of memory). */
static atomic_uint_fast64_t create_failures;

static void thread_exit(void *arg);

static size_t chunk_bytes(void)
{
    return sizeof(weft_chunk) + chunk_capacity * sizeof(weft_slot);
}

void weft__loc_configure(uint64_t buffer_bytes, uint64_t total_bytes, bool reuse)
{
    uint64_t chunk_bytes = buffer_bytes / CHUNKS_PER_LOCATION;
    chunk_capacity = (size_t)((chunk_bytes - sizeof(weft_chunk)) / sizeof(weft_slot));
    memory_bound = total_bytes;
    reuse_locations = reuse;
    pthread_key_create(&exit_key, thread_exit);
}

static void chunk_free(weft_chunk *chunk);

/* A new chunk. `populate` faults its pages in now, in one go (pages.h),
 * for a chunk that is likely to be filled: one made because the thread
 * filled the one before, and the main thread's first (it records the
 * program's begin and end, and most programs record most on it). A
 * thread's first chunk, also on a reused location, faults its pages in as
 * it fills, so that many threads that record little stay small. */
static weft_chunk *chunk_create(weft_loc *owner, bool populate)
{
    weft_chunk *chunk = weft__pages_map(chunk_bytes(), populate);
    if (!chunk)
        return NULL;
    atomic_fetch_add(&memory_in_chunks, chunk_bytes());
    chunk->next = NULL;
    chunk->owner = owner;
    chunk->used = 0;
    chunk->capacity = chunk_capacity;
    chunk->ends_thread = false;
    return chunk;
}

/* Makes `chunk` the one being filled. Caller holds loc->mutex. */
static void install(weft_loc *loc, weft_chunk *chunk)
{
    loc->chunk = chunk;
    loc->limit = chunk ? chunk->slots + chunk->capacity : NULL;
    atomic_store_explicit(&loc->cursor, chunk ? chunk->slots : NULL, memory_order_relaxed);
}

static bool is_main_thread(void)
{
    return gettid() == getpid();
}

/* Whether a new thread on this idle location could start at once: it has a
 * free chunk, or may take one more. When threads end faster than the writer
 * writes their last chunks, a location can have all its chunks queued; its
 * next thread would wait for the writer. */
static bool has_chunk_to_give(weft_loc *loc)
{
    pthread_mutex_lock(&loc->mutex);
    bool ok = loc->free_chunks || loc->chunks_allocated < CHUNKS_PER_LOCATION;
    pthread_mutex_unlock(&loc->mutex);
    return ok;
}

/* The most recently idled location that has a chunk to give, or NULL. Lock
 * order: list_mutex before a location's mutex (as in freeze_all). */
static weft_loc *take_idle(void)
{
    pthread_mutex_lock(&list_mutex);
    weft_loc **link = &idle_head;
    while (*link && !has_chunk_to_give(*link))
        link = &(*link)->next_idle;
    weft_loc *loc = *link;
    if (loc) {
        *link = loc->next_idle;
        loc->next_idle = NULL;
    }
    pthread_mutex_unlock(&list_mutex);
    return loc;
}

/* The calling thread becomes the owner of an idle location. Its chunk is
 * one kept from the last owner, or comes with the first refill. */
static void adopt(weft_loc *loc)
{
    pthread_mutex_lock(&loc->mutex);
    loc->idle = false;
    loc->threads++;
    weft_chunk *chunk = loc->free_chunks;
    if (chunk) {
        loc->free_chunks = chunk->next;
        chunk->next = NULL;
    }
    install(loc, chunk);
    pthread_mutex_unlock(&loc->mutex);
}

static weft_loc *location_new(void)
{
    weft_chunk *first = NULL;
    weft_loc *loc = weft_calloc(1, sizeof(*loc));
    if (!loc)
        goto fail;
    loc->thread_number = 0;
    if (!is_main_thread()) {
        pthread_mutex_lock(&list_mutex);
        loc->thread_number = next_thread_number++;
        pthread_mutex_unlock(&list_mutex);
    }
    loc->last_team = WEFT_INVALID_ID;
    loc->threads = 1;
    /* The chunk before the definition: a location defined but never listed
     * would be in the trace without an event file, and OTF2's reader fails
     * on such a trace (otf2-print: "Create local event reader"). */
    first = chunk_create(loc, is_main_thread());
    if (!first)
        goto fail;
    if (weft_registry_location(weft_defs_global(), NULL, loc->thread_number, &loc->def) != WEFT_OK)
        goto fail;
    pthread_mutex_init(&loc->mutex, NULL);
    pthread_cond_init(&loc->chunk_returned, NULL);
    loc->chunks_allocated = 1;
    install(loc, first);

    pthread_mutex_lock(&list_mutex);
    /* Release: a walk without the mutex (weft__loc_clear_fast_all) sees the
     * location complete. */
    if (list_tail)
        atomic_store_explicit(&list_tail->next_in_list, loc, memory_order_release);
    else
        atomic_store_explicit(&list_head, loc, memory_order_release);
    list_tail = loc;
    list_count++;
    pthread_mutex_unlock(&list_mutex);
    return loc;

fail:
    /* The location stays unregistered: a partly built one is not listed,
     * so nothing else can reach it. Said once; finalisation gives the
     * count (weft__loc_report_failures). */
    if (first)
        chunk_free(first);
    weft_free(loc);
    if (atomic_fetch_add(&create_failures, 1) == 0)
        weft_log_error("out of memory creating the buffer of a thread; its events are not "
                       "recorded");
    return NULL;
}

weft_loc *weft__loc_create(void)
{
    /* The main thread always has location 0, which the program's begin and
     * end events belong to. */
    weft_loc *loc = reuse_locations && !is_main_thread() ? take_idle() : NULL;
    if (loc)
        adopt(loc);
    else if (!(loc = location_new()))
        return NULL;
    pthread_setspecific(exit_key, loc);
    weft__tls_loc = loc;
    weft__signals_thread_start();
    weft__metrics_thread_start(loc);
    weft__loc_update_fast(loc);
    return loc;
}

void weft__loc_report_failures(void)
{
    uint64_t failures = atomic_exchange(&create_failures, 0);
    if (failures > 1)
        weft_log_error("out of memory creating the buffer of a thread: %llu threads in all "
                       "recorded no events",
                       (unsigned long long)failures);
}

/* Hands the current chunk to the writer (or keeps it for reuse when it is
 * empty or was written synchronously). `mid_run` counts it as a flush of a
 * full chunk; otherwise it is the last chunk of the ending thread, which
 * goes to the writer even when empty, so that the writer closes what the
 * thread left open before another thread continues the location. Caller
 * holds loc->mutex. */
static void hand_over_current(weft_loc *loc, bool mid_run)
{
    weft_chunk *chunk = loc->chunk;
    if (!chunk)
        return;
    chunk->used = (size_t)(atomic_load_explicit(&loc->cursor, memory_order_relaxed) - chunk->slots);
    chunk->ends_thread = !mid_run;
    install(loc, NULL);
    if ((chunk->used > 0 || !mid_run) && weft__writer_submit(chunk)) {
        loc->chunks_handed_over += mid_run;
        return;
    }
    chunk->ends_thread = false;
    chunk->next = loc->free_chunks;
    loc->free_chunks = chunk;
}

static void chunk_free(weft_chunk *chunk)
{
    atomic_fetch_sub(&memory_in_chunks, chunk_bytes());
    weft__pages_unmap(chunk, chunk_bytes());
}

/* An idle location keeps one free chunk for its next thread when locations
 * are reused, none otherwise. Caller holds loc->mutex. */
static void trim_idle(weft_loc *loc)
{
    size_t keep = reuse_locations ? 1 : 0;
    weft_chunk **link = &loc->free_chunks;
    for (size_t kept = 0; *link && kept < keep; kept++)
        link = &(*link)->next;
    while (*link) {
        weft_chunk *chunk = *link;
        *link = chunk->next;
        loc->chunks_allocated--;
        chunk_free(chunk);
    }
}

/* Whether one more chunk stays within WEFT_TOTAL_MEMORY. The check and the
 * allocation are not one step, so threads racing here may pass the bound by
 * a chunk each; it is a budget, not a hard limit. */
static bool within_memory_bound(void)
{
    if (memory_bound == 0 ||
        atomic_load_explicit(&memory_in_chunks, memory_order_relaxed) + chunk_bytes() <=
            memory_bound)
        return true;
    static atomic_bool reported;
    if (!atomic_exchange(&reported, true))
        weft_log_verbose("WEFT_TOTAL_MEMORY is reached: threads now wait for their buffers to "
                         "be written instead of taking more memory");
    return false;
}

static void report_growth_once(void)
{
    static atomic_bool reported;
    if (!atomic_exchange(&reported, true))
        weft_log_verbose("the events recorded before MPI_Init fill WEFT_BUFFER_SIZE; the buffer "
                         "grows until MPI_Init tells where the trace goes");
}

/* A free chunk: reused, newly allocated within the bound (populated when
 * `populate`), or waited for. NULL when finalisation began meanwhile, or
 * when memory ran out with no chunk in flight. *wait_start is set to the
 * start of a wait, if any. Caller holds loc->mutex (released while
 * waiting). */
static weft_chunk *take_free(weft_loc *loc, bool populate, uint64_t *wait_start)
{
    for (;;) {
        if (loc->frozen)
            return NULL;
        weft_chunk *chunk = loc->free_chunks;
        if (chunk) {
            loc->free_chunks = chunk->next;
            chunk->next = NULL;
            return chunk;
        }
        /* A location's first chunk is never refused: with nothing in
         * flight, waiting would never end. */
        if (loc->chunks_allocated == 0 ||
            (loc->chunks_allocated < CHUNKS_PER_LOCATION && within_memory_bound())) {
            chunk = chunk_create(loc, populate);
            if (chunk) {
                loc->chunks_allocated++;
                return chunk;
            }
            if (loc->chunks_allocated == 0)
                return NULL;
            /* Out of memory, but chunks are in flight: wait for one. */
        }
        if (weft__writer_held()) {
            /* Before MPI_Init nothing can be written: waiting here would
             * never end, so the buffer grows instead. */
            chunk = chunk_create(loc, populate);
            if (chunk) {
                loc->chunks_allocated++;
                report_growth_once();
                return chunk;
            }
        }
        if (*wait_start == 0)
            *wait_start = weft_clock_now();
        pthread_cond_wait(&loc->chunk_returned, &loc->mutex);
    }
}

weft_slot *weft__loc_refill(weft_loc *loc, size_t slots)
{
    weft_slot *at = NULL;
    pthread_mutex_lock(&loc->mutex);
    if (loc->frozen || loc->idle || slots + 2 > chunk_capacity)
        goto out;
    /* The thread filled a chunk: it is likely to fill the next one too. */
    bool filled = loc->chunk && slots > 0;
    hand_over_current(loc, true);
    uint64_t wait_start = 0;
    weft_chunk *fresh = take_free(loc, filled, &wait_start);
    if (!fresh)
        goto out;
    install(loc, fresh);
    at = fresh->slots;
    if (wait_start) {
        /* The thread stood still: say so in the trace, as OTF2's
         * BufferFlush record (start and stop time). */
        uint64_t now = weft_clock_now();
        weft__encode_word(at, WEFT_EVENT_BUFFER_FLUSH, wait_start, now);
        at += weft__event_slots(WEFT_EVENT_BUFFER_FLUSH, 0);
        weft__loc_commit(loc, fresh->slots, (size_t)(at - fresh->slots));
        loc->waits++;
        loc->wait_ticks += now - wait_start;
    }
out:
    pthread_mutex_unlock(&loc->mutex);
    return at;
}

bool weft__loc_flush(weft_loc *loc)
{
    if (!loc->chunk ||
        atomic_load_explicit(&loc->cursor, memory_order_relaxed) == loc->chunk->slots)
        return true; /* nothing recorded since the last hand-over */
    return weft__loc_refill(loc, 0) != NULL;
}

void weft__loc_return_chunk(weft_chunk *chunk)
{
    weft_loc *loc = chunk->owner;
    pthread_mutex_lock(&loc->mutex);
    chunk->used = 0;
    chunk->ends_thread = false;
    chunk->next = loc->free_chunks;
    loc->free_chunks = chunk;
    if (loc->idle)
        trim_idle(loc); /* nobody fills it now: give spare memory back */
    else
        pthread_cond_signal(&loc->chunk_returned);
    pthread_mutex_unlock(&loc->mutex);
}

/* The thread ends: hand over what it recorded, free its spare memory, and
 * put the location where the next new thread finds it. The location stays
 * listed either way; finalisation writes its definition. */
static void thread_exit(void *arg)
{
    weft_loc *loc = arg;
    /* Events raised later by another thread-exit handler take the slow
     * path, which finds no location and takes one (maybe this one again). */
    atomic_store_explicit(&loc->fast, false, memory_order_relaxed);
    weft__tls_loc = NULL;
    weft__metrics_thread_end(loc);
    weft__pause_free(&loc->pause);
    weft__signals_thread_end();
    weft__main_exit_thread_ends();

    /* The hand-over takes the location's lock and the list's, which the
     * rescue thread of a terminating signal needs (signals.h). */
    weft_signals_held before;
    weft__signals_hold(&before);
    pthread_mutex_lock(&loc->mutex);
    bool frozen = loc->frozen;
    if (!frozen)
        hand_over_current(loc, false);
    loc->idle = true;
    loc->idle_since = weft_clock_now();
    trim_idle(loc);
    pthread_mutex_unlock(&loc->mutex);

    /* Not after finalisation began (its chunk is still to be written), and
     * never the main thread's location 0 (see weft__loc_create). */
    if (reuse_locations && !frozen && loc->thread_number != 0) {
        pthread_mutex_lock(&list_mutex);
        loc->next_idle = idle_head;
        idle_head = loc;
        pthread_mutex_unlock(&list_mutex);
    }
    weft__signals_release(&before);
}

static weft_loc *list_first(void)
{
    return atomic_load_explicit(&list_head, memory_order_acquire);
}

static weft_loc *list_next(weft_loc *loc)
{
    return atomic_load_explicit(&loc->next_in_list, memory_order_acquire);
}

void weft__loc_clear_fast_all(void)
{
    /* Sequentially consistent, with the switch of the global state before
     * it and the owner's store-then-check in weft__loc_update_fast: either
     * the owner sees the new state, or this store comes after its own. */
    for (weft_loc *loc = list_first(); loc; loc = list_next(loc))
        atomic_store(&loc->fast, false);
}

void weft__loc_update_fast(weft_loc *loc)
{
    if (loc->pause.depth > 0 || loc->metrics || loc->idle) {
        atomic_store_explicit(&loc->fast, false, memory_order_relaxed);
        return;
    }
    atomic_store(&loc->fast, true);
    if (!weft__recording_unpaused())
        atomic_store(&loc->fast, false);
}

void weft__loc_freeze_all(void)
{
    pthread_mutex_lock(&list_mutex);
    for (weft_loc *loc = list_first(); loc; loc = list_next(loc)) {
        pthread_mutex_lock(&loc->mutex);
        loc->frozen = true;
        pthread_cond_broadcast(&loc->chunk_returned);
        pthread_mutex_unlock(&loc->mutex);
    }
    pthread_mutex_unlock(&list_mutex);
}

size_t weft__loc_snapshot(weft_loc *loc, const weft_slot **slots)
{
    pthread_mutex_lock(&loc->mutex);
    size_t count = 0;
    *slots = NULL;
    if (loc->chunk) {
        /* Acquire: pairs with the release in weft__loc_commit, so every
         * slot below the cursor is completely written. */
        weft_slot *end = atomic_load_explicit(&loc->cursor, memory_order_acquire);
        *slots = loc->chunk->slots;
        count = (size_t)(end - loc->chunk->slots);
    }
    pthread_mutex_unlock(&loc->mutex);
    return count;
}

/* The two walks below call into the sink, which takes its own mutex; the
 * sink's finalisation calls weft__loc_for_each with that mutex held. So
 * they walk without list_mutex (the list only grows, and every link is
 * published with release, as weft__loc_clear_fast_all relies on), which
 * leaves no order between list_mutex and the sink's mutex to get wrong. */
void weft__loc_for_each(void (*fn)(weft_loc *loc, void *context), void *context)
{
    for (weft_loc *loc = list_first(); loc; loc = list_next(loc))
        fn(loc, context);
}

void weft__loc_for_each_unwritten(void (*fn)(weft_loc *loc, const weft_slot *slots, size_t count))
{
    for (weft_loc *loc = list_first(); loc; loc = list_next(loc)) {
        const weft_slot *slots;
        size_t count = weft__loc_snapshot(loc, &slots);
        if (count > 0)
            fn(loc, slots, count);
    }
}

uint64_t weft__loc_last_time(void)
{
    weft_loc *loc = weft__tls_loc;
    if (!loc)
        return 0;
    /* Only the owner moves its cursor and chunk mid-run: no lock needed. */
    uint64_t last = 0;
    const weft_slot *at = loc->chunk ? loc->chunk->slots : NULL;
    const weft_slot *end = atomic_load_explicit(&loc->cursor, memory_order_relaxed);
    while (at && at < end) {
        uint8_t kind = at->head.kind;
        if (kind == WEFT_EVENT_NONE || kind >= WEFT_EVENT_KIND_COUNT)
            break;
        last = at->head.time;
        at += weft__event_slots(kind, at->head.count);
    }
    return last;
}

uint32_t weft__loc_count(void)
{
    pthread_mutex_lock(&list_mutex);
    uint32_t count = list_count;
    pthread_mutex_unlock(&list_mutex);
    return count;
}

void weft__loc_forget_all(void)
{
    /* Not freed: the memory may be in any state another (vanished) thread
     * left it in. Its pages are the parent's, shared until written. */
    pthread_mutex_init(&list_mutex, NULL);
    atomic_store(&list_head, NULL);
    list_tail = NULL;
    list_count = 0;
    next_thread_number = 1;
    idle_head = NULL;
    atomic_store(&memory_in_chunks, 0);
    pthread_setspecific(exit_key, NULL);
    weft__tls_loc = NULL;
}
