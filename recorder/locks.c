/* SPDX-License-Identifier: BSD-3-Clause */
/* Lock ids and acquisition orders shared by all adapters (weft/recorder.h).
 *
 * A lock object's address maps to a dense id, registered once under a
 * mutex. Acquisition orders are per-lock counters in a two-level table of
 * fixed pages, so a counter never moves while another thread bumps it. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "location.h"
#include "weft/log.h"
#include "weft/alloc.h"
#include "weft/recorder.h"

#define PAGE_LOCKS 1024u
#define MAX_PAGES 1024u /* at most 1,048,576 distinct locks */

typedef struct lock_entry {
    const void *object;
    uint32_t id;
} lock_entry;

/* Registration state, guarded by registry_mutex. */
static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;
static lock_entry *entries; /* open addressing on the address */
static uint32_t entry_capacity, lock_count;

/* Order counters: pages are published with release (after zeroing) in
 * register_locked and read with acquire in counter_of. */
static _Atomic(atomic_uint *) pages[MAX_PAGES];

/* For runtimes that report a release only after the lock is free (OMPT):
 * the times of each lock's last ACQUISITIONS_KEPT acquisitions, by order
 * modulo that, in pages allocated on first use like the counters. See
 * weft_lock_acquired_time for the protocol. */
#define ACQUISITIONS_KEPT 8u
#define TIME_PENDING UINT64_MAX
typedef struct acquisition {
    atomic_uint_least64_t time; /* TIME_PENDING while being published */
    atomic_uint order;          /* 0: none yet */
} acquisition;
typedef struct acquisition_ring {
    acquisition slot[ACQUISITIONS_KEPT];
} acquisition_ring;
static _Atomic(acquisition_ring *) ring_pages[MAX_PAGES];
static pthread_mutex_t ring_mutex = PTHREAD_MUTEX_INITIALIZER;

static uint32_t slot_of(const void *object, uint32_t capacity)
{
    uintptr_t key = (uintptr_t)object;
    key ^= key >> 17;
    key *= UINT64_C(0xed5ad4bb);
    return (uint32_t)key & (capacity - 1);
}

static int grow_entries(void)
{
    uint32_t capacity = entry_capacity ? entry_capacity * 2 : 256;
    lock_entry *bigger = weft_calloc(capacity, sizeof(*bigger));
    if (!bigger)
        return -1;
    for (uint32_t i = 0; i < entry_capacity; i++) {
        if (!entries[i].object)
            continue;
        uint32_t at = slot_of(entries[i].object, capacity);
        while (bigger[at].object)
            at = (at + 1) & (capacity - 1);
        bigger[at] = entries[i];
    }
    weft_free(entries);
    entries = bigger;
    entry_capacity = capacity;
    return 0;
}

static uint32_t register_locked(const void *object)
{
    if ((lock_count + 1) * 2 > entry_capacity && grow_entries() != 0)
        return UINT32_MAX;
    uint32_t at = slot_of(object, entry_capacity);
    while (entries[at].object && entries[at].object != object)
        at = (at + 1) & (entry_capacity - 1);
    if (entries[at].object)
        return entries[at].id;
    uint32_t id = lock_count;
    uint32_t page = id / PAGE_LOCKS;
    if (page >= MAX_PAGES)
        return UINT32_MAX;
    if (!atomic_load_explicit(&pages[page], memory_order_relaxed)) {
        atomic_uint *counters = weft_calloc(PAGE_LOCKS, sizeof(*counters));
        if (!counters)
            return UINT32_MAX;
        atomic_store_explicit(&pages[page], counters, memory_order_release);
    }
    entries[at].object = object;
    entries[at].id = id;
    lock_count++;
    return id;
}

/* Ids never change once given, so each thread remembers the last few it
 * looked up: a lock used in a loop costs no trip through registry_mutex. */
#define LOCK_CACHE_SIZE 16u
typedef struct cached_lock {
    const void *object;
    uint32_t id;
} cached_lock;
static __thread cached_lock lock_cache[LOCK_CACHE_SIZE] __attribute__((tls_model("initial-exec")));

uint32_t weft_lock_id(const void *lock_object)
{
    cached_lock *cached = &lock_cache[((uintptr_t)lock_object >> 3) % LOCK_CACHE_SIZE];
    if (lock_object && cached->object == lock_object)
        return cached->id;
    pthread_mutex_lock(&registry_mutex);
    uint32_t id = register_locked(lock_object);
    pthread_mutex_unlock(&registry_mutex);
    if (id == UINT32_MAX)
        weft_log_error("cannot number more locks (out of memory or over a million)");
    else
        *cached = (cached_lock){lock_object, id};
    return id;
}

static atomic_uint *counter_of(uint32_t lock_id)
{
    if (lock_id == UINT32_MAX || lock_id / PAGE_LOCKS >= MAX_PAGES)
        return NULL;
    atomic_uint *page = atomic_load_explicit(&pages[lock_id / PAGE_LOCKS], memory_order_acquire);
    return page ? &page[lock_id % PAGE_LOCKS] : NULL;
}

uint32_t weft_lock_next_order(uint32_t lock_id)
{
    atomic_uint *counter = counter_of(lock_id);
    if (!counter)
        return 0;
    /* Only the holder of the lock bumps its counter, and taking the lock
     * orders the holders: a relaxed load and store suffice (no locked
     * read-modify-write on this path). */
    unsigned order = atomic_load_explicit(counter, memory_order_relaxed) + 1;
    atomic_store_explicit(counter, order, memory_order_relaxed);
    return order;
}

uint32_t weft_lock_current_order(uint32_t lock_id)
{
    atomic_uint *counter = counter_of(lock_id);
    return counter ? atomic_load_explicit(counter, memory_order_relaxed) : 0;
}

static acquisition_ring *ring_of(uint32_t lock_id, bool create)
{
    if (lock_id == UINT32_MAX || lock_id / PAGE_LOCKS >= MAX_PAGES)
        return NULL;
    _Atomic(acquisition_ring *) *page_at = &ring_pages[lock_id / PAGE_LOCKS];
    acquisition_ring *page = atomic_load_explicit(page_at, memory_order_acquire);
    if (!page && create) {
        pthread_mutex_lock(&ring_mutex);
        page = atomic_load_explicit(page_at, memory_order_relaxed);
        if (!page) {
            page = weft_calloc(PAGE_LOCKS, sizeof(*page));
            atomic_store_explicit(page_at, page, memory_order_release);
        }
        pthread_mutex_unlock(&ring_mutex);
    }
    return page ? &page[lock_id % PAGE_LOCKS] : NULL;
}

/* The acquirer marks its slot first (a sequentially consistent store: a
 * full barrier), then reads the clock, then publishes the time. A releaser
 * reads the clock, then looks at the next acquisition's slot: if the mark
 * is not there yet, the acquirer's clock read comes after the releaser's,
 * so the release time (now) precedes it; if it is, the releaser waits for
 * the time and records the release one tick before it. */
uint64_t weft_lock_acquired_time(uint32_t lock_id, uint32_t order)
{
    acquisition_ring *ring = ring_of(lock_id, true);
    if (!ring || order == 0)
        return weft_clock_now_after_prior();
    acquisition *a = &ring->slot[order % ACQUISITIONS_KEPT];
    atomic_store_explicit(&a->time, TIME_PENDING, memory_order_relaxed);
    atomic_store_explicit(&a->order, order, memory_order_seq_cst);
    uint64_t now = weft_clock_now_after_prior();
    atomic_store_explicit(&a->time, now, memory_order_release);
    return now;
}

/* Spins this many rounds at most (yielding the CPU) for an acquirer that
 * was preempted between marking its slot and publishing its time. */
enum { PENDING_ROUNDS = 10000 };

/* When the next acquisition's time is not to be had (its slot was reused
 * by eight more, or it never published): the releasing thread's latest
 * event. That came before the thread let the lock go, so before the next
 * acquisition, and keeps the thread's events in time order. Now when that
 * event is not at hand (the thread's buffer was just handed over). */
static uint64_t release_before_unknown(uint64_t now)
{
    uint64_t last = weft__loc_last_time();
    return last != 0 && last < now ? last : now;
}

uint64_t weft_lock_release_time(uint32_t lock_id, uint32_t order)
{
    uint64_t now = weft_clock_now_before_later();
    acquisition_ring *ring = ring_of(lock_id, false);
    if (!ring || order == 0 || order == UINT32_MAX)
        return now;
    acquisition *a = &ring->slot[(order + 1) % ACQUISITIONS_KEPT];
    /* A slot's order only grows: past order + 1, the next acquisition's
     * time was overwritten. */
    unsigned seen = atomic_load_explicit(&a->order, memory_order_seq_cst);
    if (seen != order + 1)
        return seen > order + 1 ? release_before_unknown(now) : now;
    uint64_t next = atomic_load_explicit(&a->time, memory_order_acquire);
    for (int round = 0; next == TIME_PENDING && round < PENDING_ROUNDS; round++) {
        sched_yield();
        next = atomic_load_explicit(&a->time, memory_order_acquire);
    }
    if (atomic_load_explicit(&a->order, memory_order_acquire) != order + 1 ||
        next == TIME_PENDING || next == 0)
        return release_before_unknown(now);
    return next > now ? now : next - 1;
}
