/* The fakes and workers of the location tests; see location_harness.h. */
#include "location_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "lifecycle.h"
#include "metrics.h"
#include "signals.h"
#include "weft/alloc.h"
#include "writer.h"

test_loc_fakes fake;

uint64_t test_loc_chunk_size(void)
{
    return sizeof(weft_chunk) + CAPACITY * sizeof(weft_slot);
}

/* ---- fakes of what location.c calls ------------------------------------ */

static pthread_mutex_t fake_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fake_cond = PTHREAD_COND_INITIALIZER;

bool weft__writer_submit(weft_chunk *chunk)
{
    pthread_mutex_lock(&fake_mutex);
    if (fake.submitted < MAX_QUEUED)
        fake.submitted_used[fake.submitted] = chunk->used;
    fake.submitted++;
    bool keep = !fake.write_at_once && fake.queued_count < MAX_QUEUED;
    if (keep)
        fake.queued[fake.queued_count++] = chunk;
    pthread_cond_broadcast(&fake_cond);
    pthread_mutex_unlock(&fake_mutex);
    return keep;
}

bool weft__writer_held(void)
{
    return fake.held;
}

bool weft__recording_unpaused(void)
{
    return true;
}

void weft__metrics_thread_start(weft_loc *loc)
{
    (void)loc;
}

void weft__metrics_thread_end(weft_loc *loc)
{
    (void)loc;
}

/* No signal handling (signals.c would bring in the lifecycle): a location's
 * locked parts hold signals back in the recorder, here they need not. */
void weft__signals_thread_start(void)
{
}

void weft__signals_thread_end(void)
{
}

void weft__signals_hold(weft_signals_held *held)
{
    held->blocked = false;
}

void weft__signals_release(const weft_signals_held *held)
{
    (void)held;
}

void *test_loc_mmap(void *addr, size_t bytes, int prot, int flags, int fd, off_t offset)
{
    void *probe = weft_alloc(1);
    if (!probe)
        return MAP_FAILED;
    weft_free(probe);
    return mmap(addr, bytes, prot, flags, fd, offset);
}

uint64_t test_clock_ticks(void)
{
    uint64_t tick = atomic_fetch_add(&fake.now, 10) + 10;
    pthread_mutex_lock(&fake_mutex);
    fake.clock_reads++;
    pthread_cond_broadcast(&fake_cond);
    pthread_mutex_unlock(&fake_mutex);
    return tick;
}

/* A thread that should have stopped for good within this has hung. */
enum { PATIENCE_S = 30 };

static struct timespec deadline(void)
{
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_sec += PATIENCE_S;
    return at;
}

void test_loc_wait_for_clock_reads(unsigned want)
{
    struct timespec until = deadline();
    pthread_mutex_lock(&fake_mutex);
    int rc = 0;
    while (fake.clock_reads < want && rc == 0)
        rc = pthread_cond_timedwait(&fake_cond, &fake_mutex, &until);
    unsigned reads = fake.clock_reads;
    pthread_mutex_unlock(&fake_mutex);
    if (reads < want)
        fail_msg("the recording thread never waited for a chunk");
}

weft_chunk *test_loc_give_back_one(void)
{
    pthread_mutex_lock(&fake_mutex);
    assert_true(fake.queued_count > 0);
    weft_chunk *chunk = fake.queued[0];
    for (size_t i = 1; i < fake.queued_count; i++)
        fake.queued[i - 1] = fake.queued[i];
    fake.queued_count--;
    pthread_mutex_unlock(&fake_mutex);
    weft__loc_return_chunk(chunk);
    return chunk;
}

void test_loc_give_back_all(void)
{
    while (fake.queued_count > 0)
        test_loc_give_back_one();
}

int test_loc_setup(void **state)
{
    (void)state;
    weft__clock_uses_tsc = true; /* the fake clock's ticks */
    weft__loc_configure(CHUNKS * test_loc_chunk_size(), 0, false);
    return 0;
}

int test_loc_reset(void **state)
{
    (void)state;
    fake.queued_count = fake.submitted = 0;
    fake.write_at_once = fake.held = false;
    fake.clock_reads = 0;
    return 0;
}

/* A test that changed the configuration; test_loc_tidy restores it. */
static bool reconfigured;

void test_loc_configure(uint64_t total_bytes, bool reuse)
{
    weft__loc_configure(CHUNKS * test_loc_chunk_size(), total_bytes, reuse);
    reconfigured = true;
}

/* Workers started and not joined yet, by the test's main thread. */
enum { MAX_RUNNING = 80 };
static test_loc_worker *running[MAX_RUNNING];
static size_t running_count;

static void forget(test_loc_worker *w)
{
    for (size_t i = 0; i < running_count; i++)
        if (running[i] == w) {
            running[i] = running[--running_count];
            return;
        }
}

/* Ends the workers a failed test left: releases the held ones and gives
 * chunks back until every one has ended (a waiting one then goes on). */
static void end_left_workers(void)
{
    for (size_t i = 0; i < running_count; i++)
        test_loc_release(running[i]);
    struct timespec until = deadline();
    while (running_count > 0) {
        test_loc_give_back_all();
        for (size_t i = running_count; i-- > 0;) {
            test_loc_worker *w = running[i];
            if (pthread_tryjoin_np(w->thread, NULL) == 0) {
                w->joined = true;
                forget(w);
            }
        }
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        if (running_count > 0 && now.tv_sec >= until.tv_sec) {
            /* (A thread stopped elsewhere than for a chunk or its release.) */
            fprintf(stderr, "the failed test left %zu recording thread(s) that do not end\n",
                    running_count);
            fflush(NULL);
            _exit(1);
        }
        nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
    }
}

int test_loc_tidy(void **state)
{
    (void)state;
    end_left_workers();
    test_loc_give_back_all();
    if (reconfigured)
        weft__loc_configure(CHUNKS * test_loc_chunk_size(), 0, false);
    reconfigured = false;
    return 0;
}

/* ---- workers ------------------------------------------------------------ */

bool test_loc_record(weft_loc *loc, uint64_t t)
{
    weft_slot *at = atomic_load_explicit(&loc->cursor, memory_order_relaxed);
    if (!at || loc->limit - at < 1) {
        at = weft__loc_refill(loc, 1);
        if (!at)
            return false;
    }
    weft__encode_head(at, WEFT_EVENT_ENTER, t, 0, 1);
    weft__loc_commit(loc, at, 1);
    return true;
}

void test_loc_record_all(test_loc_worker *w)
{
    for (uint64_t t = 1; t <= w->events; t++) {
        if (!test_loc_record(w->loc, t)) {
            w->stopped = true;
            return;
        }
        w->recorded++;
    }
}

static void *worker_main(void *arg)
{
    test_loc_worker *w = arg;
    weft_loc *loc = weft__loc_create();
    if (loc) {
        pthread_mutex_lock(&loc->mutex);
        w->created.chunk = loc->chunk;
        w->created.cursor = atomic_load(&loc->cursor);
        w->created.fast = atomic_load(&loc->fast);
        w->created.idle = loc->idle;
        w->created.threads = loc->threads;
        w->created.chunks_allocated = loc->chunks_allocated;
        pthread_mutex_unlock(&loc->mutex);
        w->loc = loc;
        w->script(w);
    }
    if (w->hold) {
        pthread_mutex_lock(&fake_mutex);
        w->holding = true;
        pthread_cond_broadcast(&fake_cond);
        while (!w->released)
            pthread_cond_wait(&fake_cond, &fake_mutex);
        pthread_mutex_unlock(&fake_mutex);
    }
    return NULL;
}

static bool on_this_stack(const void *p)
{
    pthread_attr_t attr;
    void *low;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return false;
    int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    return rc == 0 && (const char *)p >= (const char *)low && (const char *)p < (char *)low + size;
}

static void start(test_loc_worker *w, void (*script)(test_loc_worker *w), uint64_t events,
                  bool hold)
{
    w->script = script;
    w->events = events;
    w->recorded = 0;
    w->stopped = false;
    w->joined = false;
    w->loc = NULL;
    w->hold = hold;
    w->holding = w->released = false;
    if (on_this_stack(w))
        fail_msg("a worker must be static: the teardown of a failed test still uses it");
    assert_true(running_count < MAX_RUNNING);
    assert_int_equal(pthread_create(&w->thread, NULL, worker_main, w), 0);
    running[running_count++] = w;
}

void test_loc_start(test_loc_worker *w, void (*script)(test_loc_worker *w), uint64_t events)
{
    start(w, script, events, false);
}

void test_loc_start_held(test_loc_worker *w, void (*script)(test_loc_worker *w), uint64_t events)
{
    start(w, script, events, true);
    struct timespec until = deadline();
    pthread_mutex_lock(&fake_mutex);
    int rc = 0;
    while (!w->holding && rc == 0)
        rc = pthread_cond_timedwait(&fake_cond, &fake_mutex, &until);
    bool holding = w->holding;
    pthread_mutex_unlock(&fake_mutex);
    if (!holding)
        fail_msg("the recording thread never finished its script: it waits for a chunk");
}

void test_loc_release(test_loc_worker *w)
{
    pthread_mutex_lock(&fake_mutex);
    w->released = true;
    pthread_cond_broadcast(&fake_cond);
    pthread_mutex_unlock(&fake_mutex);
}

void test_loc_join(test_loc_worker *w)
{
    if (w->joined)
        return;
    w->joined = true;
    struct timespec until = deadline();
    int rc = pthread_timedjoin_np(w->thread, NULL, &until);
    if (rc != 0)
        fail_msg("the recording thread did not end: it waits for a chunk (%d)", rc);
    forget(w);
}

void test_loc_finish(test_loc_worker *w)
{
    test_loc_join(w);
    test_loc_give_back_all();
    assert_non_null(w->loc);
    assert_true(w->loc->idle);
    assert_int_equal(w->loc->chunks_allocated, 0);
    assert_null(w->loc->free_chunks);
}

void test_loc_assert_events(const weft_chunk *chunk, size_t from, size_t count, uint64_t first)
{
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(chunk->slots[from + i].head.kind, WEFT_EVENT_ENTER);
        assert_int_equal(chunk->slots[from + i].head.time, first + i);
    }
}
/* SPDX-License-Identifier: BSD-3-Clause */
