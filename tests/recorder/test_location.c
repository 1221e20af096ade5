/* The per-thread locations and their chunk buffers (recorder/location.c),
 * on their own: location.c is built into this test with a fake writer (the
 * test's main thread holds the chunks handed over and gives them back when
 * it chooses), a fake clock (fake_clock/clock_arch.h; every read is
 * counted, so the test knows when a thread starts to wait) and no metrics.
 * Each test records on threads of its own, which end before it does, and
 * checks that every chunk's memory went back. Locations are not reused
 * here (weft__loc_configure's `reuse` is false, as when metrics are
 * recorded).
 *
 * Checked: a new location (its definition, first chunk, fast path);
 * chunks handed over full and in order, the last one when the thread ends,
 * even empty, marked as the thread's last;
 * an event too big for a chunk; a flush; waiting for a free chunk once all
 * eight are queued, recorded as a BUFFER_FLUSH event with the wait's start
 * and end; a writer that wrote synchronously; growing while the writer is
 * held (before MPI_Init); WEFT_TOTAL_MEMORY; running out of memory while
 * creating a location; freezing at finalisation (a waiting thread stops,
 * the unwritten events are found). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "clock.h"
#include "lifecycle.h"
#include "location.h"
#include "metrics.h"
#include "weft/alloc.h"
#include "writer.h"

enum { CAPACITY = 32, CHUNKS = 8, MAX_QUEUED = 64 };

static uint64_t chunk_size(void)
{
    return sizeof(weft_chunk) + CAPACITY * sizeof(weft_slot);
}

/* ---- fakes of what location.c calls ------------------------------------ */

static pthread_mutex_t fake_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fake_cond = PTHREAD_COND_INITIALIZER;
static weft_chunk *queued[MAX_QUEUED]; /* handed over, not yet given back */
static size_t queued_count;
static size_t submitted; /* chunks handed over, also those written at once */
static size_t submitted_used[MAX_QUEUED];
static bool write_at_once;        /* as when the writer thread could not start */
static bool held;                 /* as before MPI_Init */
static atomic_uint_least64_t now; /* the clock */
static unsigned clock_reads;

bool weft__writer_submit(weft_chunk *chunk)
{
    pthread_mutex_lock(&fake_mutex);
    if (submitted < MAX_QUEUED)
        submitted_used[submitted] = chunk->used;
    submitted++;
    bool keep = !write_at_once && queued_count < MAX_QUEUED;
    if (keep)
        queued[queued_count++] = chunk;
    pthread_cond_broadcast(&fake_cond);
    pthread_mutex_unlock(&fake_mutex);
    return keep;
}

bool weft__writer_held(void)
{
    return held;
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

uint64_t test_clock_ticks(void);
uint64_t test_clock_ticks(void)
{
    uint64_t tick = atomic_fetch_add(&now, 10) + 10;
    pthread_mutex_lock(&fake_mutex);
    clock_reads++;
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

/* Waits until location.c has read the clock `want` times. It does so when
 * a thread starts and ends a wait for a chunk, and when a thread ends (the
 * time its location became idle); in the tests that wait here the thread
 * waits before it can end, so the first read is the wait's start. */
static void wait_for_clock_reads(unsigned want)
{
    struct timespec until = deadline();
    pthread_mutex_lock(&fake_mutex);
    int rc = 0;
    while (clock_reads < want && rc == 0)
        rc = pthread_cond_timedwait(&fake_cond, &fake_mutex, &until);
    unsigned reads = clock_reads;
    pthread_mutex_unlock(&fake_mutex);
    if (reads < want)
        fail_msg("the recording thread never waited for a chunk");
}

/* The writer gives the oldest queued chunk back. */
static weft_chunk *give_back_one(void)
{
    pthread_mutex_lock(&fake_mutex);
    assert_true(queued_count > 0);
    weft_chunk *chunk = queued[0];
    for (size_t i = 1; i < queued_count; i++)
        queued[i - 1] = queued[i];
    queued_count--;
    pthread_mutex_unlock(&fake_mutex);
    weft__loc_return_chunk(chunk);
    return chunk;
}

static void give_back_all(void)
{
    while (queued_count > 0)
        give_back_one();
}

static int setup(void **state)
{
    (void)state;
    weft__clock_uses_tsc = true; /* the fake clock's ticks */
    weft__loc_configure(CHUNKS * chunk_size(), 0, false);
    return 0;
}

static int reset(void **state)
{
    (void)state;
    queued_count = submitted = 0;
    write_at_once = held = false;
    clock_reads = 0;
    return 0;
}

/* A test that changes the configuration says so, and `tidy` restores it. */
static bool reconfigured;

static void configure(uint64_t total_bytes, bool reuse)
{
    weft__loc_configure(CHUNKS * chunk_size(), total_bytes, reuse);
    reconfigured = true;
}

/* After each test, and above all after one that failed halfway: gives back
 * the chunks it left queued (their locations are idle, so their memory is
 * freed) and restores the configuration, so that the next tests start from
 * no memory in chunks and no bound. Without this, one failure made the
 * later tests fail too, at a memory bound they did not set. */
static int tidy(void **state)
{
    (void)state;
    give_back_all();
    if (reconfigured)
        weft__loc_configure(CHUNKS * chunk_size(), 0, false);
    reconfigured = false;
    return 0;
}

/* ---- recording threads -------------------------------------------------- */

/* Records one ENTER at time t as the hot path does: in the current chunk
 * if it has room, else through the slow path's refill. */
static bool record(weft_loc *loc, uint64_t t)
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

typedef struct worker {
    pthread_t thread;
    void (*script)(struct worker *w);
    weft_loc *loc;
    uint64_t events;   /* to record */
    uint64_t recorded; /* recorded */
    bool stopped;      /* a refill said stop */
    bool joined;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    w->loc = weft__loc_create();
    if (w->loc)
        w->script(w);
    return NULL;
}

static void record_all(worker *w)
{
    for (uint64_t t = 1; t <= w->events; t++) {
        if (!record(w->loc, t)) {
            w->stopped = true;
            return;
        }
        w->recorded++;
    }
}

static void start(worker *w, void (*script)(worker *w), uint64_t events)
{
    w->script = script;
    w->events = events;
    w->recorded = 0;
    w->stopped = false;
    w->joined = false;
    w->loc = NULL;
    assert_int_equal(pthread_create(&w->thread, NULL, worker_main, w), 0);
}

static void join(worker *w)
{
    if (w->joined)
        return;
    w->joined = true;
    struct timespec until = deadline();
    int rc = pthread_timedjoin_np(w->thread, NULL, &until);
    if (rc != 0)
        fail_msg("the recording thread did not end: it waits for a chunk (%d)", rc);
}

/* Joins the thread, takes back every chunk, and checks that the location
 * kept no memory. */
static void finish(worker *w)
{
    join(w);
    give_back_all();
    assert_non_null(w->loc);
    assert_true(w->loc->idle);
    assert_int_equal(w->loc->chunks_allocated, 0);
    assert_null(w->loc->free_chunks);
}

/* The times of the ENTER events in chunk, which must be 1 + first, ... */
static void assert_events(const weft_chunk *chunk, size_t from, size_t count, uint64_t first)
{
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(chunk->slots[from + i].head.kind, WEFT_EVENT_ENTER);
        assert_int_equal(chunk->slots[from + i].head.time, first + i);
    }
}

/* ---- tests -------------------------------------------------------------- */

static void check_new_location(worker *w)
{
    weft_loc *loc = w->loc;
    assert_ptr_equal(weft__tls_loc, loc);
    assert_true(loc->thread_number > 0); /* not the main thread */
    weft_location_def def;
    assert_int_equal(weft_registry_location_get(weft_defs_global(), loc->def, &def), WEFT_OK);
    assert_int_equal(def.thread_number, loc->thread_number);
    assert_non_null(loc->chunk);
    assert_ptr_equal(atomic_load(&loc->cursor), loc->chunk->slots);
    assert_int_equal(loc->limit - loc->chunk->slots, CAPACITY);
    assert_int_equal(loc->chunks_allocated, 1);
    assert_true(atomic_load(&loc->fast));
    /* An event that can never fit a chunk: refused, nothing handed over. */
    assert_null(weft__loc_refill(loc, CAPACITY - 1));
    assert_int_equal(submitted, 0);
    /* A flush of nothing hands nothing over. */
    assert_true(weft__loc_flush(loc));
    assert_int_equal(submitted, 0);
    record_all(w);
    /* A flush hands over the partial chunk (a mid-run hand-over). */
    assert_true(weft__loc_flush(loc));
}

/* 2.5 chunks of events, a flush: three chunks handed over in order, full,
 * full and half, none marked as the thread's last. The thread then ends
 * with an empty chunk, which goes to the writer all the same, as the
 * thread's last: after it the writer closes what the thread left open,
 * before another thread may continue the location. Then a thread that ends
 * with events hands its last chunk over with them. */
static void test_chunks_handed_over_in_order(void **state)
{
    (void)state;
    uint32_t before = weft__loc_count();
    worker w;
    start(&w, check_new_location, 2 * CAPACITY + CAPACITY / 2);
    join(&w);
    assert_int_equal(weft__loc_count(), before + 1);
    assert_int_equal(w.recorded, w.events);
    /* Four, not three: the empty fourth is the thread's end (see above). */
    assert_int_equal(submitted, 4);
    assert_int_equal(queued_count, 4);
    for (size_t i = 0; i < 3; i++) {
        assert_ptr_equal(queued[i]->owner, w.loc);
        assert_int_equal(queued[i]->used, i < 2 ? CAPACITY : CAPACITY / 2);
        assert_false(queued[i]->ends_thread);
        assert_events(queued[i], 0, queued[i]->used, 1 + i * CAPACITY);
    }
    assert_ptr_equal(queued[3]->owner, w.loc);
    assert_int_equal(queued[3]->used, 0);
    assert_true(queued[3]->ends_thread);
    assert_int_equal(w.loc->chunks_handed_over, 3); /* the empty last is not mid-run */
    finish(&w);

    reset(NULL);
    start(&w, record_all, CAPACITY + 3);
    join(&w);
    assert_int_equal(submitted, 2);
    assert_false(queued[0]->ends_thread);
    assert_int_equal(queued[1]->used, 3); /* handed over as the thread ended */
    assert_true(queued[1]->ends_thread);
    assert_int_equal(w.loc->chunks_handed_over, 1); /* the last is not mid-run */
    finish(&w);
}

/* With all eight chunks queued, the thread waits for one to come back; the
 * wait becomes a BUFFER_FLUSH event (start, end) at the head of the chunk
 * it then fills. */
static void test_waits_for_a_free_chunk(void **state)
{
    (void)state;
    worker w;
    start(&w, record_all, CHUNKS * CAPACITY + 5);
    wait_for_clock_reads(1); /* the wait's start: all eight are queued */
    assert_int_equal(queued_count, CHUNKS);
    uint64_t wait_start = atomic_load(&now);
    weft_chunk *back = give_back_one();
    join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(w.loc->waits, 1);
    assert_int_equal(w.loc->wait_ticks, 10);
    assert_int_equal(w.loc->chunks_allocated, CHUNKS);
    /* The chunk given back came back filled: the flush event, 5 events. */
    assert_int_equal(queued_count, CHUNKS);
    weft_chunk *last = queued[CHUNKS - 1];
    assert_ptr_equal(last, back);
    assert_int_equal(last->used, weft__event_slots(WEFT_EVENT_BUFFER_FLUSH, 0) + 5);
    assert_int_equal(last->slots[0].head.kind, WEFT_EVENT_BUFFER_FLUSH);
    assert_int_equal(last->slots[0].head.time, wait_start);
    assert_int_equal(last->slots[1].word[0], wait_start + 10);
    assert_events(last, weft__event_slots(WEFT_EVENT_BUFFER_FLUSH, 0), 5, CHUNKS * CAPACITY + 1);
    finish(&w);
}

/* A writer that wrote a chunk at once leaves it to the thread: no new
 * memory, no wait. */
static void test_chunk_written_at_once_is_reused(void **state)
{
    (void)state;
    write_at_once = true;
    uint64_t before = atomic_load(&now);
    worker w;
    start(&w, record_all, 3 * CHUNKS * CAPACITY);
    join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(submitted, 3 * CHUNKS);
    assert_int_equal(w.loc->chunks_allocated, 0); /* freed at the end */
    assert_int_equal(w.loc->waits, 0);
    /* One clock read, not none: the thread's end is timed (idle_since,
     * which a later owner's explicit-time events start from). A wait would
     * have read the clock twice before it. */
    assert_int_equal(clock_reads, 1);
    assert_int_equal(w.loc->idle_since, before + 10);
    for (size_t i = 0; i + 1 < submitted; i++)
        assert_int_equal(submitted_used[i], CAPACITY);
    finish(&w);
}

/* While the writer is held (an MPI program before MPI_Init), nothing comes
 * back: the buffer grows past its eight chunks instead of waiting. */
static void test_held_writer_grows_the_buffer(void **state)
{
    (void)state;
    held = true;
    worker w;
    start(&w, record_all, 12 * CAPACITY);
    join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(w.loc->waits, 0);
    assert_int_equal(submitted, 12);
    assert_int_equal(w.loc->chunks_allocated, 12);
    held = false;
    finish(&w);
}

/* WEFT_TOTAL_MEMORY of three chunks: the thread waits after its third,
 * although a location may have eight. (Every earlier test's chunks were
 * given back and freed, by `tidy` if not by the test: no other memory is
 * counted.) */
static void test_total_memory_bound(void **state)
{
    (void)state;
    configure(3 * chunk_size(), false);
    worker w;
    start(&w, record_all, 3 * CAPACITY + 1);
    wait_for_clock_reads(1);
    assert_int_equal(queued_count, 3);
    give_back_one();
    join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(w.loc->waits, 1);
    assert_int_equal(w.loc->chunks_allocated, 3);
    finish(&w);
}

static void create_only(worker *w)
{
    (void)w;
}

/* Each allocation of a location's creation failing in turn: no location,
 * nothing listed, one line on stderr; the thread records nothing. */
static void test_out_of_memory_creating_a_location(void **state)
{
    (void)state;
    for (long fail_at = 0;; fail_at++) {
        uint32_t before = weft__loc_count();
        uint32_t defined = weft_registry_location_count(weft_defs_global());
        weft_alloc_fail_after(fail_at);
        worker w;
        start(&w, create_only, 0);
        join(&w);
        weft_alloc_fail_after(-1);
        if (w.loc) {
            assert_int_equal(weft__loc_count(), before + 1);
            finish(&w);
            break;
        }
        assert_int_equal(weft__loc_count(), before);
        /* Nor a definition: the trace would have a location without events. */
        if (weft_registry_location_count(weft_defs_global()) != defined)
            fail_msg("allocation %ld failing left a location defined", fail_at);
        assert_true(fail_at < 100);
    }
}

static size_t unwritten_events;
static uint64_t unwritten_first_time;
static void count_unwritten(weft_loc *loc, const weft_slot *slots, size_t count)
{
    (void)loc;
    if (unwritten_events == 0)
        unwritten_first_time = slots[0].head.time;
    unwritten_events += count;
}

static pthread_barrier_t frozen_step;

/* Records 5 events, lets the test freeze, then finds it can hand nothing
 * over (a flush fails), records what still fits and ends. */
static void record_around_freeze(worker *w)
{
    for (uint64_t t = 1; t <= 5; t++)
        w->recorded += record(w->loc, t);
    pthread_barrier_wait(&frozen_step); /* 1: recorded */
    pthread_barrier_wait(&frozen_step); /* 2: frozen */
    w->stopped = !weft__loc_flush(w->loc);
    for (uint64_t t = 6; t <= 2 * CAPACITY && record(w->loc, t); t++)
        w->recorded++;
}

/* Finalisation freezes every location: a thread waiting for a chunk stops
 * (its refill fails), a thread in mid-chunk hands nothing more over and
 * fills its chunk to the end, and the events left in current chunks are
 * found. Last: freezing is for good. */
static void test_freeze(void **state)
{
    (void)state;
    pthread_barrier_init(&frozen_step, NULL, 2);
    worker waiting, mid_chunk;
    start(&waiting, record_all, CHUNKS * CAPACITY + 1);
    wait_for_clock_reads(1);
    start(&mid_chunk, record_around_freeze, 0);
    pthread_barrier_wait(&frozen_step); /* 1 */
    weft__loc_freeze_all();
    pthread_barrier_wait(&frozen_step); /* 2 */
    join(&waiting);
    join(&mid_chunk);
    pthread_barrier_destroy(&frozen_step);

    assert_true(waiting.stopped);
    assert_int_equal(waiting.recorded, CHUNKS * CAPACITY);
    assert_true(mid_chunk.stopped);
    assert_int_equal(mid_chunk.recorded, CAPACITY);
    assert_int_equal(submitted, CHUNKS); /* the waiting thread's, before the freeze */
    assert_null(weft__loc_refill(waiting.loc, 1));

    /* Only the mid-chunk thread's current chunk holds events. */
    unwritten_events = 0;
    weft__loc_for_each_unwritten(count_unwritten);
    assert_int_equal(unwritten_events, CAPACITY);
    assert_int_equal(unwritten_first_time, 1);
    const weft_slot *slots;
    assert_int_equal(weft__loc_snapshot(mid_chunk.loc, &slots), CAPACITY);
    assert_int_equal(slots[CAPACITY - 1].head.time, CAPACITY);
    assert_int_equal(weft__loc_snapshot(waiting.loc, &slots), 0);
    finish(&waiting);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_chunks_handed_over_in_order, reset, tidy),
        cmocka_unit_test_setup_teardown(test_waits_for_a_free_chunk, reset, tidy),
        cmocka_unit_test_setup_teardown(test_chunk_written_at_once_is_reused, reset, tidy),
        cmocka_unit_test_setup_teardown(test_held_writer_grows_the_buffer, reset, tidy),
        cmocka_unit_test_setup_teardown(test_total_memory_bound, reset, tidy),
        cmocka_unit_test_setup_teardown(test_out_of_memory_creating_a_location, reset, tidy),
        cmocka_unit_test_setup_teardown(test_freeze, reset, tidy),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
