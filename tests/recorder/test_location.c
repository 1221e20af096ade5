/* The per-thread locations and their chunk buffers (recorder/location.c),
 * on their own: location.c is built into this test with a fake writer (the
 * test's main thread holds the chunks handed over and gives them back when
 * it chooses), a fake clock (fake_clock/clock_arch.h; every read is
 * counted, so the test knows when a thread starts to wait) and no metrics
 * (location_harness.h).
 * Each test records on threads of its own, which end before it does, and
 * checks that every chunk's memory went back. Locations are not reused
 * here (weft__loc_configure's `reuse` is false, as when metrics are
 * recorded); test_location_reuse.c tests reuse.
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

#include <cmocka.h>

#include "location.h"
#include "location_harness.h"
#include "weft/alloc.h"

/* ---- tests -------------------------------------------------------------- */

static void check_new_location(test_loc_worker *w)
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
    assert_int_equal(fake.submitted, 0);
    /* A flush of nothing hands nothing over. */
    assert_true(weft__loc_flush(loc));
    assert_int_equal(fake.submitted, 0);
    test_loc_record_all(w);
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
    static test_loc_worker w;
    test_loc_start(&w, check_new_location, 2 * CAPACITY + CAPACITY / 2);
    test_loc_join(&w);
    assert_int_equal(weft__loc_count(), before + 1);
    assert_int_equal(w.recorded, w.events);
    /* Four, not three: the empty fourth is the thread's end (see above). */
    assert_int_equal(fake.submitted, 4);
    assert_int_equal(fake.queued_count, 4);
    for (size_t i = 0; i < 3; i++) {
        assert_ptr_equal(fake.queued[i]->owner, w.loc);
        assert_int_equal(fake.queued[i]->used, i < 2 ? CAPACITY : CAPACITY / 2);
        assert_false(fake.queued[i]->ends_thread);
        test_loc_assert_events(fake.queued[i], 0, fake.queued[i]->used, 1 + i * CAPACITY);
    }
    assert_ptr_equal(fake.queued[3]->owner, w.loc);
    assert_int_equal(fake.queued[3]->used, 0);
    assert_true(fake.queued[3]->ends_thread);
    assert_int_equal(w.loc->chunks_handed_over, 3); /* the empty last is not mid-run */
    test_loc_finish(&w);

    test_loc_reset(NULL);
    test_loc_start(&w, test_loc_record_all, CAPACITY + 3);
    test_loc_join(&w);
    assert_int_equal(fake.submitted, 2);
    assert_false(fake.queued[0]->ends_thread);
    assert_int_equal(fake.queued[1]->used, 3); /* handed over as the thread ended */
    assert_true(fake.queued[1]->ends_thread);
    assert_int_equal(w.loc->chunks_handed_over, 1); /* the last is not mid-run */
    test_loc_finish(&w);
}

/* With all eight chunks queued, the thread waits for one to come back; the
 * wait becomes a BUFFER_FLUSH event (start, end) at the head of the chunk
 * it then fills. */
static void test_waits_for_a_free_chunk(void **state)
{
    (void)state;
    static test_loc_worker w;
    test_loc_start(&w, test_loc_record_all, CHUNKS * CAPACITY + 5);
    test_loc_wait_for_clock_reads(1); /* the wait's start: all eight are queued */
    assert_int_equal(fake.queued_count, CHUNKS);
    uint64_t wait_start = atomic_load(&fake.now);
    weft_chunk *back = test_loc_give_back_one();
    test_loc_join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(w.loc->waits, 1);
    assert_int_equal(w.loc->wait_ticks, 10);
    assert_int_equal(w.loc->chunks_allocated, CHUNKS);
    /* The chunk given back came back filled: the flush event, 5 events. */
    assert_int_equal(fake.queued_count, CHUNKS);
    weft_chunk *last = fake.queued[CHUNKS - 1];
    assert_ptr_equal(last, back);
    assert_int_equal(last->used, weft__event_slots(WEFT_EVENT_BUFFER_FLUSH, 0) + 5);
    assert_int_equal(last->slots[0].head.kind, WEFT_EVENT_BUFFER_FLUSH);
    assert_int_equal(last->slots[0].head.time, wait_start);
    assert_int_equal(last->slots[1].word[0], wait_start + 10);
    test_loc_assert_events(last, weft__event_slots(WEFT_EVENT_BUFFER_FLUSH, 0), 5,
                           CHUNKS * CAPACITY + 1);
    test_loc_finish(&w);
}

/* A writer that wrote a chunk at once leaves it to the thread: no new
 * memory, no wait. */
static void test_chunk_written_at_once_is_reused(void **state)
{
    (void)state;
    fake.write_at_once = true;
    uint64_t before = atomic_load(&fake.now);
    static test_loc_worker w;
    test_loc_start(&w, test_loc_record_all, 3 * CHUNKS * CAPACITY);
    test_loc_join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(fake.submitted, 3 * CHUNKS);
    assert_int_equal(w.loc->chunks_allocated, 0); /* freed at the end */
    assert_int_equal(w.loc->waits, 0);
    /* One clock read, not none: the thread's end is timed (idle_since,
     * which a later owner's explicit-time events start from). A wait would
     * have read the clock twice before it. */
    assert_int_equal(fake.clock_reads, 1);
    assert_int_equal(w.loc->idle_since, before + 10);
    for (size_t i = 0; i + 1 < fake.submitted; i++)
        assert_int_equal(fake.submitted_used[i], CAPACITY);
    test_loc_finish(&w);
}

/* While the writer is held (an MPI program before MPI_Init), nothing comes
 * back: the buffer grows past its eight chunks instead of waiting. */
static void test_held_writer_grows_the_buffer(void **state)
{
    (void)state;
    fake.held = true;
    static test_loc_worker w;
    test_loc_start(&w, test_loc_record_all, 12 * CAPACITY);
    test_loc_join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(w.loc->waits, 0);
    assert_int_equal(fake.submitted, 12);
    assert_int_equal(w.loc->chunks_allocated, 12);
    fake.held = false;
    test_loc_finish(&w);
}

/* WEFT_TOTAL_MEMORY of three chunks: the thread waits after its third,
 * although a location may have eight. (Every earlier test's chunks were
 * given back and freed, by test_loc_tidy if not by the test: no other
 * memory is counted.) */
static void test_total_memory_bound(void **state)
{
    (void)state;
    test_loc_configure(3 * test_loc_chunk_size(), false);
    static test_loc_worker w;
    test_loc_start(&w, test_loc_record_all, 3 * CAPACITY + 1);
    test_loc_wait_for_clock_reads(1);
    assert_int_equal(fake.queued_count, 3);
    test_loc_give_back_one();
    test_loc_join(&w);
    assert_int_equal(w.recorded, w.events);
    assert_int_equal(w.loc->waits, 1);
    assert_int_equal(w.loc->chunks_allocated, 3);
    test_loc_finish(&w);
}

static void create_only(test_loc_worker *w)
{
    (void)w;
}

/* Each allocation of a location's creation failing in turn, the mapping of
 * its first chunk included (location_harness.h): no location, nothing
 * listed or defined, one line on stderr; the thread records nothing. */
static void test_out_of_memory_creating_a_location(void **state)
{
    (void)state;
    for (long fail_at = 0;; fail_at++) {
        uint32_t before = weft__loc_count();
        uint32_t defined = weft_registry_location_count(weft_defs_global());
        weft_alloc_fail_after(fail_at);
        static test_loc_worker w;
        test_loc_start(&w, create_only, 0);
        test_loc_join(&w);
        weft_alloc_fail_after(-1);
        if (w.loc) {
            assert_int_equal(weft__loc_count(), before + 1);
            test_loc_finish(&w);
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
static void record_around_freeze(test_loc_worker *w)
{
    for (uint64_t t = 1; t <= 5; t++)
        w->recorded += test_loc_record(w->loc, t);
    pthread_barrier_wait(&frozen_step); /* 1: recorded */
    pthread_barrier_wait(&frozen_step); /* 2: frozen */
    w->stopped = !weft__loc_flush(w->loc);
    for (uint64_t t = 6; t <= 2 * CAPACITY && test_loc_record(w->loc, t); t++)
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
    static test_loc_worker waiting, mid_chunk;
    test_loc_start(&waiting, test_loc_record_all, CHUNKS * CAPACITY + 1);
    test_loc_wait_for_clock_reads(1);
    test_loc_start(&mid_chunk, record_around_freeze, 0);
    pthread_barrier_wait(&frozen_step); /* 1 */
    weft__loc_freeze_all();
    pthread_barrier_wait(&frozen_step); /* 2 */
    test_loc_join(&waiting);
    test_loc_join(&mid_chunk);
    pthread_barrier_destroy(&frozen_step);

    assert_true(waiting.stopped);
    assert_int_equal(waiting.recorded, CHUNKS * CAPACITY);
    assert_true(mid_chunk.stopped);
    assert_int_equal(mid_chunk.recorded, CAPACITY);
    assert_int_equal(fake.submitted, CHUNKS); /* the waiting thread's, before the freeze */
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
    test_loc_finish(&waiting);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST_LOC_CASE(test_chunks_handed_over_in_order),
        TEST_LOC_CASE(test_waits_for_a_free_chunk),
        TEST_LOC_CASE(test_chunk_written_at_once_is_reused),
        TEST_LOC_CASE(test_held_writer_grows_the_buffer),
        TEST_LOC_CASE(test_total_memory_bound),
        TEST_LOC_CASE(test_out_of_memory_creating_a_location),
        TEST_LOC_CASE(test_freeze),
    };
    return cmocka_run_group_tests(tests, test_loc_setup, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
