/* What the unit tests of recorder/location.c share (test_location.c,
 * test_location_reuse.c; see docs/dev/UNIT-TESTS.md).
 *
 * location.c is compiled into each test with the fake clock
 * (fake_clock/clock_arch.h) and its mmap renamed to test_loc_mmap; this
 * harness defines everything else location.c calls outside itself: a fake
 * writer (the test's main thread holds the chunks handed over and gives
 * them back when it chooses, oldest first), a held writer and recording
 * switch, metrics and signal handling that do nothing, and the clock's
 * ticks (each read adds 10 and is counted, so the test knows when a thread
 * begins to wait). Chunks
 * are mapped as in the recorder, but each mapping also counts as an
 * allocation of weft/alloc.h, so that an out-of-memory sweep with
 * weft_alloc_fail_after reaches a chunk that cannot be had.
 *
 * Workers are threads that take a location (weft__loc_create) and run a
 * script on it; the test joins them with a deadline, so a thread that
 * waits for a chunk that never comes fails the test instead of hanging. */
#ifndef WEFT_TESTS_RECORDER_LOCATION_HARNESS_H
#define WEFT_TESTS_RECORDER_LOCATION_HARNESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "location.h"

/* Slots per chunk and chunks per location (location.c's own constant). */
enum { CAPACITY = 32, CHUNKS = 8, MAX_QUEUED = 64 };

/* What the fakes saw and do; the test sets the switches, reads the rest. */
typedef struct test_loc_fakes {
    weft_chunk *queued[MAX_QUEUED]; /* handed over, not yet given back */
    size_t queued_count;
    size_t submitted; /* chunks handed over, also those written at once */
    size_t submitted_used[MAX_QUEUED];
    bool write_at_once;        /* as when the writer thread could not start */
    bool held;                 /* as before MPI_Init */
    atomic_uint_least64_t now; /* the clock: the last tick read */
    unsigned clock_reads;
} test_loc_fakes;

extern test_loc_fakes fake;

/* The size of one chunk, and of a location's WEFT_BUFFER_SIZE (CHUNKS). */
uint64_t test_loc_chunk_size(void);

/* location.c's mmap (see above): fails where weft_alloc would. */
void *test_loc_mmap(void *addr, size_t bytes, int prot, int flags, int fd, off_t offset);

/* Waits until location.c has read the clock `want` times (since the last
 * test_loc_reset). It does so when a thread starts and ends a wait for a
 * chunk, and when a thread ends (the time its location became idle). */
void test_loc_wait_for_clock_reads(unsigned want);

/* The writer gives the oldest queued chunk back; returns it. */
weft_chunk *test_loc_give_back_one(void);
void test_loc_give_back_all(void);

/* cmocka group setup: the fake clock, and locations of 8 chunks of
 * CAPACITY slots, no WEFT_TOTAL_MEMORY, not reused. */
int test_loc_setup(void **state);

/* cmocka test setup: clears what the fakes saw and their switches. */
int test_loc_reset(void **state);

/* Configures locations of 8 chunks with this bound and reuse, for one
 * test: test_loc_tidy restores the group's configuration. */
void test_loc_configure(uint64_t total_bytes, bool reuse);

/* cmocka test teardown, for a test that passed and above all one that
 * failed halfway: ends the workers it left (releases them, gives chunks
 * back until they end), gives back what it left queued (the chunks of idle
 * locations are freed then) and restores the configuration, so that the
 * next test starts with no thread, no bound it did not set and no chunk
 * memory left over. Without it one failure failed the tests after it as
 * well. A worker that does not end within 30 s ends the run. */
int test_loc_tidy(void **state);

/* A test run with the two above. */
#define TEST_LOC_CASE(test) cmocka_unit_test_setup_teardown(test, test_loc_reset, test_loc_tidy)

/* ---- workers ------------------------------------------------------------ */

typedef struct test_loc_worker test_loc_worker;

struct test_loc_worker {
    pthread_t thread;
    void (*script)(test_loc_worker *w);
    weft_loc *loc;
    uint64_t events;   /* to record */
    uint64_t recorded; /* recorded */
    bool stopped;      /* a refill said stop */
    bool joined;
    /* The location as weft__loc_create left it, before the script ran. */
    struct {
        weft_chunk *chunk;
        weft_slot *cursor;
        bool fast;
        bool idle;
        uint32_t threads;
        uint32_t chunks_allocated;
    } created;
    /* test_loc_start_held: after its script the thread waits until
     * released, so that it still owns its location while the test looks. */
    bool hold, holding, released;
};

/* Records one ENTER at time t as the hot path does: in the current chunk if
 * it has room, else through the slow path's refill. */
bool test_loc_record(weft_loc *loc, uint64_t t);

/* A script: records w->events ENTERs at times 1, 2, ... */
void test_loc_record_all(test_loc_worker *w);

/* Starts a worker that takes a location and runs `script` on it. The
 * worker must be static (checked): after a failed test, test_loc_tidy
 * still uses it. */
void test_loc_start(test_loc_worker *w, void (*script)(test_loc_worker *w), uint64_t events);

/* The same, and the worker then waits (see `hold`) until released; returns
 * once it waits. */
void test_loc_start_held(test_loc_worker *w, void (*script)(test_loc_worker *w), uint64_t events);
void test_loc_release(test_loc_worker *w);

void test_loc_join(test_loc_worker *w);

/* Joins the thread, takes back every chunk, and checks that the location
 * is idle and kept no memory (as without reuse). */
void test_loc_finish(test_loc_worker *w);

/* The times of the ENTER events in chunk, which must be first, first + 1,
 * ... */
void test_loc_assert_events(const weft_chunk *chunk, size_t from, size_t count, uint64_t first);

#endif /* WEFT_TESTS_RECORDER_LOCATION_HARNESS_H */
/* SPDX-License-Identifier: BSD-3-Clause */
