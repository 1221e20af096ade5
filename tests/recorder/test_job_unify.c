/* The job's unification (recorder/job_unify.c, weft__job_unify) as it runs
 * at MPI_Finalize, on P ranks that are threads of this process talking
 * through the in-process job (job_threads.h), at P = 1 ... 9 and 64:
 *   - rank 0 gets the global registry, equal to merging every rank's local
 *     registry in rank order; every rank's maps lead each of its strings,
 *     regions, communicators and metrics to an equal global definition;
 *   - the messages form the binomial tree: rank r > 0 sends once, to
 *     r minus its lowest set bit, and rank 0 receives ceil(log2 P) times;
 *   - with one rank failing, at each of its allocations in turn or in its
 *     sends and receives, every rank returns an error, nothing leaks, and no
 *     rank waits for another (the job finds deadlocks and unmatched
 *     collectives exactly). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job_internal.h"
#include "job_threads.h"
#include "rank_registry.h"
#include "registry_assert.h"
#include "weft/alloc.h"

enum { MAX_RANKS = 64 };

/* One rank's part: its local registry, and what weft__job_unify gave it. */
typedef struct rank_run {
    weft_registry *local;
    long fail_alloc_at; /* its allocation to fail, or -1 */
    weft_status status;
    weft_registry *global;
    weft_id_maps maps;
    long alloc_left; /* of the countdown: >= 0 when the failure was not reached */
} rank_run;

static void unify_rank(const weft_job_ops *ops, void *context)
{
    rank_run *run = context;
    weft_alloc_fail_after_in_thread(run->fail_alloc_at);
    run->status = weft__job_unify(ops, run->local, &run->global, &run->maps);
    run->alloc_left = weft_alloc_fail_after_in_thread(-1);
}

typedef struct job_case {
    uint32_t size;
    rank_run runs[MAX_RANKS];
    weft_registry *reference; /* every local registry merged in rank order */
    test_job_report report;
    bool clean;
} job_case;

static job_case *case_create(uint32_t size, int empty_rank)
{
    job_case *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    c->size = size;
    c->reference = weft_registry_create();
    for (uint32_t r = 0; r < size; r++) {
        c->runs[r].local =
            (int)r == empty_rank ? weft_registry_create() : fixture_rank_registry(r, size);
        assert_non_null(c->runs[r].local);
        c->runs[r].fail_alloc_at = -1;
        void *buf;
        uint64_t len;
        assert_int_equal(weft_registry_pack(c->runs[r].local, r, WEFT_PACK_LOCATIONS, &buf, &len),
                         WEFT_OK);
        assert_int_equal(weft_registry_merge(c->reference, buf, len, NULL), WEFT_OK);
        free(buf);
    }
    return c;
}

static void case_run(job_case *c, const test_job_fault *fault)
{
    void *contexts[MAX_RANKS];
    for (uint32_t r = 0; r < c->size; r++) {
        rank_run *run = &c->runs[r];
        weft_registry_destroy(run->global);
        weft_id_maps_free(&run->maps);
        run->global = NULL;
        run->status = WEFT_ERR_STATE;
        contexts[r] = run;
    }
    test_job_report_free(&c->report);
    c->clean = test_job_run(c->size, unify_rank, contexts, fault, &c->report);
    if (!c->clean)
        fail_msg("%u ranks: deadlock %d, problem '%s'", c->size, c->report.deadlock,
                 c->report.problem);
}

static void case_destroy(job_case *c)
{
    for (uint32_t r = 0; r < c->size; r++) {
        weft_registry_destroy(c->runs[r].local);
        weft_registry_destroy(c->runs[r].global);
        weft_id_maps_free(&c->runs[r].maps);
    }
    weft_registry_destroy(c->reference);
    test_job_report_free(&c->report);
    free(c);
}

static const char *text(const weft_registry *reg, weft_string s)
{
    return weft_registry_string_text(reg, s);
}

/* Every local location appears in the global registry, rank after rank. */
static void check_locations(const job_case *c, const weft_registry *global)
{
    uint32_t at = 0;
    for (uint32_t r = 0; r < c->size; r++) {
        const weft_registry *local = c->runs[r].local;
        for (uint32_t i = 0; i < weft_registry_location_count(local); i++, at++) {
            weft_location_def l, g;
            assert_int_equal(weft_registry_location_get(local, (weft_location){i}, &l), WEFT_OK);
            assert_int_equal(weft_registry_location_get(global, (weft_location){at}, &g), WEFT_OK);
            assert_int_equal(g.group, r);
            assert_int_equal(g.thread_number, l.thread_number);
            assert_true(g.event_count == l.event_count);
            assert_string_equal(text(global, g.name), text(local, l.name));
        }
    }
    assert_int_equal(weft_registry_location_count(global), at);
    /* MPI_COMM_WORLD first, with every rank. */
    weft_comm_def world;
    assert_int_equal(weft_registry_comm_get(global, (weft_comm){0}, &world), WEFT_OK);
    assert_string_equal(text(global, world.name), "MPI_COMM_WORLD");
    uint32_t members[MAX_RANKS];
    assert_int_equal(weft_registry_comm_members(global, (weft_comm){0}, members, MAX_RANKS),
                     c->size);
    for (uint32_t r = 0; r < c->size; r++)
        assert_int_equal(members[r], r);
}

static uint32_t ceil_log2(uint32_t n)
{
    uint32_t rounds = 0;
    while ((UINT32_C(1) << rounds) < n)
        rounds++;
    return rounds;
}

/* The binomial tree: rank r > 0 sends once, to r - (r & -r). */
static void check_tree(const job_case *c)
{
    uint32_t sent[MAX_RANKS] = {0}, received[MAX_RANKS] = {0};
    for (size_t i = 0; i < c->report.message_count; i++) {
        const test_job_message *m = &c->report.messages[i];
        assert_true(m->from > 0);
        assert_int_equal(m->to, m->from - (m->from & (~m->from + 1)));
        assert_true(m->bytes > 0);
        sent[m->from]++;
        received[m->to]++;
    }
    for (uint32_t r = 1; r < c->size; r++)
        assert_int_equal(sent[r], 1);
    assert_int_equal(received[0], ceil_log2(c->size));
    /* Broadcast of the size, of the definitions, and the final agreement. */
    assert_int_equal(c->report.collectives, 3);
}

static void check_success(const job_case *c)
{
    for (uint32_t r = 0; r < c->size; r++) {
        const rank_run *run = &c->runs[r];
        assert_int_equal(run->status, WEFT_OK);
        if (r == 0)
            assert_non_null(run->global);
        else
            assert_null(run->global);
    }
    const weft_registry *global = c->runs[0].global;
    registry_assert_same(c->reference, global);
    check_locations(c, global);
    for (uint32_t r = 0; r < c->size; r++)
        registry_assert_maps(global, c->runs[r].local, r, &c->runs[r].maps);
    check_tree(c);
}

/* Every rank failed, and was left nothing to free. */
static void check_failure(const job_case *c)
{
    for (uint32_t r = 0; r < c->size; r++) {
        const rank_run *run = &c->runs[r];
        if (run->status == WEFT_OK)
            fail_msg("%u ranks: rank %u succeeded while another failed", c->size, r);
        assert_null(run->global);
        assert_null(run->maps.strings);
        assert_null(run->maps.regions);
        assert_null(run->maps.comms);
        assert_null(run->maps.metrics);
        assert_int_equal(run->maps.string_count, 0);
    }
}

static void test_every_size(void **state)
{
    (void)state;
    const uint32_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 64};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        job_case *c = case_create(sizes[i], -1);
        case_run(c, NULL);
        check_success(c);
        case_destroy(c);
    }
}

/* A rank that defined nothing (its registry is empty) takes part too. */
static void test_rank_without_definitions(void **state)
{
    (void)state;
    for (uint32_t empty = 0; empty < 5; empty++) {
        job_case *c = case_create(5, (int)empty);
        case_run(c, NULL);
        check_success(c);
        assert_int_equal(c->runs[empty].maps.region_count, 0);
        case_destroy(c);
    }
}

/* Rank `rank` fails at its allocation 0, step, 2 step, ... until it makes
 * none that fails. Every run ends alike on all ranks: all fail, or (when the
 * failure was absorbed) all succeed with the right result. Returns the
 * number of runs that failed. */
static unsigned sweep_rank(job_case *c, uint32_t rank, long step)
{
    unsigned failed = 0;
    for (long at = 0;; at += step) {
        c->runs[rank].fail_alloc_at = at;
        case_run(c, NULL);
        c->runs[rank].fail_alloc_at = -1;
        if (c->runs[rank].alloc_left >= 0) { /* not reached: a clean run */
            check_success(c);
            break;
        }
        if (c->runs[0].status == WEFT_OK) {
            check_success(c);
        } else {
            check_failure(c);
            failed++;
        }
        if (at > 100000)
            fail_msg("rank %u of %u makes no end of allocations", rank, c->size);
    }
    return failed;
}

static void test_failing_rank_out_of_memory(void **state)
{
    (void)state;
    const uint32_t sizes[] = {1, 2, 3, 5, 9};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        job_case *c = case_create(sizes[i], -1);
        for (uint32_t rank = 0; rank < sizes[i]; rank++)
            assert_true(sweep_rank(c, rank, 1) > 0);
        case_destroy(c);
    }
    /* At 64 ranks: the root, a leaf, the last subtree's root and the last
     * rank, at every third allocation (a run takes some milliseconds). */
    job_case *c = case_create(64, -1);
    const uint32_t ranks[] = {0, 1, 32, 63};
    for (size_t i = 0; i < sizeof(ranks) / sizeof(ranks[0]); i++)
        assert_true(sweep_rank(c, ranks[i], 3) > 0);
    case_destroy(c);
}

/* A rank whose send or receive fails (after taking part: the data went, or
 * came and was dropped) makes every rank fail, and nobody waits. Failed
 * broadcasts and all-reduces are not injected: a rank that did not get the
 * broadcast size cannot take part in the broadcast that follows, and no
 * protocol can agree on the outcome of its own last agreement. */
static void test_failing_rank_send_or_receive(void **state)
{
    (void)state;
    const uint32_t sizes[] = {2, 3, 4, 5, 8, 9, 64};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        job_case *c = case_create(sizes[i], -1);
        for (uint32_t rank = 0; rank < sizes[i]; rank++) {
            if (sizes[i] == 64 && rank % 7 != 0 && rank != 63)
                continue; /* a sample of the big job */
            test_job_fault send = {TEST_JOB_SEND, rank, 0};
            case_run(c, &send);
            assert_true(c->report.fault_fired == (rank != 0));
            if (rank == 0)
                check_success(c); /* rank 0 sends nothing */
            else
                check_failure(c);
            for (uint32_t nth = 0;; nth++) {
                test_job_fault recv = {TEST_JOB_RECV, rank, nth};
                case_run(c, &recv);
                if (!c->report.fault_fired) {
                    /* Rank r receives once per zero bit below its lowest set bit. */
                    assert_true(nth <= ceil_log2(sizes[i]));
                    check_success(c);
                    break;
                }
                check_failure(c);
            }
        }
        case_destroy(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_size),
        cmocka_unit_test(test_rank_without_definitions),
        cmocka_unit_test(test_failing_rank_out_of_memory),
        cmocka_unit_test(test_failing_rank_send_or_receive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
