/* Locations of ended threads reused (recorder/location.c with `reuse`, see
 * location.h and docs/dev/RECORDER-MEMORY.md), built into this test like
 * test_location.c (location_harness.h: fake writer, fake clock).
 *
 * Checked: a thread that ends hands its last chunk over, marked as the
 * thread's last, keeps one free chunk (the others are unmapped at once or
 * when the writer gives them back) and leaves its location idle since the
 * time it ended; the next new thread takes that location (the same
 * definition and thread number, its second thread, the kept chunk filled
 * first, handed over after the first thread's last); without reuse an ended
 * thread's location keeps no chunk and the next thread gets a new one; an
 * idle location whose chunks are all still queued is skipped (the new
 * thread would wait for the writer) but stays idle, and is taken once its
 * chunks are back; the main thread never takes an idle location, and its
 * location 0 never becomes one (run in a child process, whose main thread
 * can end with pthread_exit while another thread looks on).
 *
 * Every test starts with no idle location to take (reuse_setup), so that
 * "the next thread takes the most recently idled one" names a location the
 * test made. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "location.h"
#include "location_harness.h"

static void nothing(test_loc_worker *w)
{
    (void)w;
}

/* Takes every idle location that has a chunk to give (threads that each
 * take one and wait), until a thread gets a new location; then lets them
 * all end with reuse off, so that none becomes idle again. Idle locations
 * with every chunk queued are first given their chunks back. */
static void drain_idle(void)
{
    enum { MAX_TAKERS = 64 };
    static test_loc_worker takers[MAX_TAKERS];
    test_loc_give_back_all();
    test_loc_configure(0, true);
    size_t count = 0;
    do {
        assert_true(count < MAX_TAKERS);
        test_loc_start_held(&takers[count], nothing, 0);
    } while (takers[count++].created.threads > 1);
    test_loc_configure(0, false);
    for (size_t i = 0; i < count; i++) {
        test_loc_release(&takers[i]);
        test_loc_finish(&takers[i]);
    }
}

static int reuse_setup(void **state)
{
    drain_idle();
    return test_loc_reset(state);
}

static size_t free_chunks(const weft_loc *loc)
{
    size_t count = 0;
    for (const weft_chunk *chunk = loc->free_chunks; chunk; chunk = chunk->next)
        count++;
    return count;
}

/* A thread records 2 chunks and 3 events and waits; the writer gives the
 * two full chunks back (they are the owner's free chunks now); the thread
 * ends. Returns its location. */
static weft_loc *end_with_two_free_chunks(test_loc_worker *w)
{
    test_loc_start_held(w, test_loc_record_all, 2 * CAPACITY + 3);
    assert_int_equal(fake.queued_count, 2);
    test_loc_give_back_one();
    test_loc_give_back_one();
    weft_loc *loc = w->loc;
    assert_int_equal(free_chunks(loc), 2);
    assert_int_equal(loc->chunks_allocated, 3);
    unsigned reads = fake.clock_reads;
    test_loc_release(w);
    test_loc_join(w);
    /* Its end: the chunk with the 3 events goes to the writer, marked as
     * the thread's last; the location is idle since the clock read at the
     * end, and takes the slow path. */
    assert_true(loc->idle);
    assert_false(atomic_load(&loc->fast));
    assert_null(loc->chunk);
    assert_int_equal(fake.queued_count, 1);
    assert_true(fake.queued[0]->ends_thread);
    assert_int_equal(fake.queued[0]->used, 3);
    test_loc_assert_events(fake.queued[0], 0, 3, 2 * CAPACITY + 1);
    assert_int_equal(fake.clock_reads, reads + 1);
    assert_int_equal(loc->idle_since, atomic_load(&fake.now));
    return loc;
}

static void test_ended_thread_leaves_its_location_to_the_next(void **state)
{
    (void)state;
    test_loc_configure(0, true);
    uint32_t locations = weft__loc_count();
    uint32_t defined = weft_registry_location_count(weft_defs_global());
    static test_loc_worker first, next;
    weft_loc *loc = end_with_two_free_chunks(&first);
    uint32_t number = loc->thread_number;
    assert_true(number > 0);

    /* Of its two free chunks it kept one and unmapped the other. */
    assert_int_equal(free_chunks(loc), 1);
    assert_int_equal(loc->chunks_allocated, 2);
    /* The last chunk, written and back: still one kept (of the two, one is
     * unmapped). */
    test_loc_give_back_one();
    weft_chunk *kept = loc->free_chunks;
    assert_int_equal(free_chunks(loc), 1);
    assert_int_equal(loc->chunks_allocated, 1);
    assert_int_equal(loc->threads, 1);

    /* The next new thread takes it, with the kept chunk installed: no new
     * location listed or defined, the same thread number, its 2nd thread. */
    test_loc_start_held(&next, test_loc_record_all, CAPACITY + 1);
    assert_ptr_equal(next.loc, loc);
    assert_int_equal(next.created.threads, 2);
    assert_false(next.created.idle);
    assert_true(next.created.fast);
    assert_ptr_equal(next.created.chunk, kept);
    assert_ptr_equal(next.created.cursor, kept->slots);
    assert_int_equal(next.created.chunks_allocated, 1);
    assert_int_equal(weft__loc_count(), locations + 1);
    assert_int_equal(weft_registry_location_count(weft_defs_global()), defined + 1);
    assert_int_equal(loc->thread_number, number);
    weft_location_def def;
    assert_int_equal(weft_registry_location_get(weft_defs_global(), loc->def, &def), WEFT_OK);
    assert_int_equal(def.thread_number, number);
    /* Its events start in the kept chunk, which goes to the writer after
     * the first thread's last one; one more chunk was needed. */
    assert_int_equal(next.recorded, CAPACITY + 1);
    assert_int_equal(fake.submitted, 3 + 1);
    assert_int_equal(fake.queued_count, 1);
    assert_ptr_equal(fake.queued[0], kept);
    assert_false(kept->ends_thread);
    test_loc_assert_events(kept, 0, CAPACITY, 1);
    assert_int_equal(loc->chunks_allocated, 2);

    /* And it ends as the first did: idle, one chunk kept once all are back. */
    test_loc_release(&next);
    test_loc_join(&next);
    assert_true(loc->idle);
    assert_int_equal(fake.queued_count, 2);
    assert_true(fake.queued[1]->ends_thread);
    test_loc_give_back_all();
    assert_int_equal(free_chunks(loc), 1);
    assert_int_equal(loc->chunks_allocated, 1);
    assert_int_equal(loc->threads, 2);
}

/* Without reuse (metrics recorded) the same thread leaves its location with
 * no chunk, and the next thread gets a location of its own. */
static void test_without_reuse_an_ended_thread_keeps_no_chunk(void **state)
{
    (void)state;
    test_loc_configure(0, false);
    static test_loc_worker first, next;
    weft_loc *loc = end_with_two_free_chunks(&first);
    /* Both free chunks unmapped at its end; only the queued one is left. */
    assert_null(loc->free_chunks);
    assert_int_equal(loc->chunks_allocated, 1);
    test_loc_give_back_one();
    assert_null(loc->free_chunks);
    assert_int_equal(loc->chunks_allocated, 0);

    uint32_t locations = weft__loc_count();
    test_loc_start_held(&next, test_loc_record_all, 1);
    assert_ptr_not_equal(next.loc, loc);
    assert_int_equal(next.created.threads, 1);
    assert_int_not_equal(next.loc->thread_number, loc->thread_number);
    assert_int_equal(weft__loc_count(), locations + 1);
    assert_true(loc->idle);
    assert_int_equal(loc->threads, 1);
    test_loc_release(&next);
    test_loc_finish(&next);
}

/* A thread ends with all eight chunks queued: its location has none to give,
 * and a thread taking it would wait for the writer. The next thread gets a
 * new location; the skipped one stays idle, and once its chunks are back
 * (one kept), the thread after takes it. */
static void test_idle_location_with_every_chunk_queued_is_skipped(void **state)
{
    (void)state;
    test_loc_configure(0, true);
    static test_loc_worker first, second, third;
    test_loc_start(&first, test_loc_record_all, (CHUNKS - 1) * CAPACITY + 1);
    test_loc_join(&first);
    weft_loc *loc = first.loc;
    assert_true(loc->idle);
    assert_int_equal(fake.queued_count, CHUNKS);
    assert_true(fake.queued[CHUNKS - 1]->ends_thread);
    assert_int_equal(loc->chunks_allocated, CHUNKS);
    assert_null(loc->free_chunks);

    uint32_t locations = weft__loc_count();
    test_loc_start_held(&second, test_loc_record_all, 1);
    assert_ptr_not_equal(second.loc, loc);
    assert_int_equal(second.created.threads, 1);
    assert_int_equal(second.loc->waits, 0);
    assert_int_equal(weft__loc_count(), locations + 1);
    assert_true(loc->idle);
    assert_int_equal(loc->threads, 1);

    test_loc_give_back_all();
    assert_int_equal(free_chunks(loc), 1);
    assert_int_equal(loc->chunks_allocated, 1);
    weft_chunk *kept = loc->free_chunks;
    test_loc_start_held(&third, test_loc_record_all, 1);
    assert_ptr_equal(third.loc, loc);
    assert_int_equal(third.created.threads, 2);
    assert_ptr_equal(third.created.chunk, kept);
    assert_int_equal(weft__loc_count(), locations + 1);

    test_loc_release(&second);
    test_loc_release(&third);
    test_loc_join(&second);
    test_loc_join(&third);
}

/* ---- the main thread, in a child process -------------------------------- */

/* What the child saw, in memory shared with the parent. Pointers are the
 * child's, compared with each other only. */
typedef struct main_report {
    bool done;
    const weft_loc *worker_loc; /* a thread's, idle when the main thread records */
    const weft_loc *main_loc;   /* the main thread's */
    uint32_t main_number, main_threads;
    bool worker_loc_still_idle; /* after the main thread took one */
    bool main_loc_idle;         /* after the main thread ended */
    const weft_loc *second_loc; /* the next thread's, after that */
    uint32_t second_threads;
    const weft_loc *third_loc; /* a thread's while the second holds its own */
    uint32_t third_threads, third_number;
} main_report;

static main_report *report;
static pthread_t main_thread;
static const weft_loc *main_loc;

/* The child's second thread: sees the main thread end, then starts two. */
static void *look_on(void *arg)
{
    (void)arg;
    pthread_join(main_thread, NULL);
    report->main_loc_idle = main_loc->idle;
    static test_loc_worker second, third;
    test_loc_start_held(&second, test_loc_record_all, 1);
    report->second_loc = second.loc;
    report->second_threads = second.created.threads;
    test_loc_start_held(&third, test_loc_record_all, 1);
    report->third_loc = third.loc;
    report->third_threads = third.created.threads;
    report->third_number = third.loc->thread_number;
    report->done = true;
    _exit(0);
}

/* A thread ends (reuse on), leaving an idle location; the main thread
 * records, then ends with pthread_exit while look_on carries on. */
static void main_thread_child(void)
{
    test_loc_configure(0, true);
    static test_loc_worker worker;
    test_loc_start(&worker, test_loc_record_all, 3);
    test_loc_join(&worker);
    report->worker_loc = worker.loc;

    weft_loc *loc = weft__loc_create();
    if (!loc)
        _exit(2);
    for (uint64_t t = 1; t <= 3; t++)
        test_loc_record(loc, t);
    main_loc = loc;
    report->main_loc = loc;
    report->main_number = loc->thread_number;
    report->main_threads = loc->threads;
    report->worker_loc_still_idle = worker.loc->idle;

    main_thread = pthread_self();
    pthread_t other;
    if (pthread_create(&other, NULL, look_on, NULL) != 0)
        _exit(2);
    pthread_exit(NULL); /* runs location.c's thread-exit handler */
}

static void test_main_thread_location_is_never_reused(void **state)
{
    (void)state;
    report = mmap(NULL, sizeof(*report), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(report != MAP_FAILED);
    *report = (main_report){0};
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        main_thread_child(); /* does not return */

    int status = 0;
    pid_t done = 0;
    for (int tenths = 0; tenths < 300 && done == 0; tenths++) {
        done = waitpid(child, &status, WNOHANG);
        if (done == 0)
            nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    }
    if (done == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        fail_msg("the child process hung: a thread waits for a chunk");
    }
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(report->done);

    /* The main thread got location 0, new, not the idle one. */
    assert_ptr_not_equal(report->main_loc, report->worker_loc);
    assert_int_equal(report->main_number, 0);
    assert_int_equal(report->main_threads, 1);
    assert_true(report->worker_loc_still_idle);
    /* Its end left location 0 idle but not to be taken: the next thread
     * takes the location idled before it, and the one after a new one. */
    assert_true(report->main_loc_idle);
    assert_ptr_equal(report->second_loc, report->worker_loc);
    assert_int_equal(report->second_threads, 2);
    assert_ptr_not_equal(report->third_loc, report->main_loc);
    assert_ptr_not_equal(report->third_loc, report->worker_loc);
    assert_int_equal(report->third_threads, 1);
    assert_int_not_equal(report->third_number, 0);
    munmap(report, sizeof(*report));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ended_thread_leaves_its_location_to_the_next,
                                        reuse_setup, test_loc_tidy),
        cmocka_unit_test_setup_teardown(test_without_reuse_an_ended_thread_keeps_no_chunk,
                                        reuse_setup, test_loc_tidy),
        cmocka_unit_test_setup_teardown(test_idle_location_with_every_chunk_queued_is_skipped,
                                        reuse_setup, test_loc_tidy),
        cmocka_unit_test_setup_teardown(test_main_thread_location_is_never_reused, reuse_setup,
                                        test_loc_tidy),
    };
    return cmocka_run_group_tests(tests, test_loc_setup, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
