/* The in-process job (job_threads.h) that the unification tests run on:
 * its operations do what weft/job.h says at every size from 1 to 9 ranks
 * and at 64, and it reports what would hang or go wrong under MPI (a
 * deadlock, collectives that do not match, messages nobody received)
 * instead of hanging. The unification tests rely on both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job_threads.h"

enum { MAX_RANKS = 64 };

/* What one rank saw; checked on the main thread after the run. */
typedef struct seen {
    uint64_t from_root[MAX_RANKS]; /* the value broadcast by each root */
    uint64_t min, max;             /* all-reduce results */
    int bcast_rc, reduce_rc, send_rc, recv_rc;
    uint64_t received_bytes;
    unsigned char received[8];
    int extra_rc; /* the scenario tests' last call */
} seen;

static void run(uint32_t size, test_job_body body, seen *ranks, const test_job_fault *fault,
                test_job_report *report, bool want_clean)
{
    void *contexts[MAX_RANKS];
    for (uint32_t r = 0; r < size; r++) {
        memset(&ranks[r], 0, sizeof(ranks[r]));
        contexts[r] = &ranks[r];
    }
    bool clean = test_job_run(size, body, contexts, fault, report);
    if (clean != want_clean)
        fail_msg("job of %u ranks: clean %d, deadlock %d, problem '%s'", size, clean,
                 report->deadlock, report->problem);
}

/* Every root broadcasts, then a min and a max all-reduce, then a ring of
 * messages (rank r sends r + 1 bytes to the next rank, at most 8). */
static void everything(const weft_job_ops *ops, void *context)
{
    seen *s = context;
    for (uint32_t root = 0; root < ops->size; root++) {
        uint64_t value = ops->rank == root ? 1000 + root : 0;
        if (ops->bcast(&value, sizeof(value), root, ops->data) != 0)
            s->bcast_rc = -1;
        s->from_root[root] = value;
    }
    uint64_t values[2] = {10 + ops->rank, 50 - ops->rank};
    s->reduce_rc = ops->allreduce_u64(values, 2, false, ops->data);
    s->min = values[0];
    uint64_t high = 7 * ops->rank;
    s->reduce_rc |= ops->allreduce_u64(&high, 1, true, ops->data);
    s->max = high;
    if (ops->size == 1)
        return;
    unsigned char out[8];
    uint64_t len = ops->rank + 1 < 8 ? ops->rank + 1 : 8;
    memset(out, (int)ops->rank, sizeof(out));
    s->send_rc = ops->send(out, len, (ops->rank + 1) % ops->size, ops->data);
    void *in = NULL;
    s->recv_rc =
        ops->recv(&in, &s->received_bytes, (ops->rank + ops->size - 1) % ops->size, ops->data);
    if (in && s->received_bytes <= sizeof(s->received))
        memcpy(s->received, in, (size_t)s->received_bytes);
    free(in);
}

static void check_everything(uint32_t size)
{
    seen ranks[MAX_RANKS];
    test_job_report report;
    run(size, everything, ranks, NULL, &report, true);
    for (uint32_t r = 0; r < size; r++) {
        const seen *s = &ranks[r];
        assert_int_equal(s->bcast_rc, 0);
        assert_int_equal(s->reduce_rc, 0);
        for (uint32_t root = 0; root < size; root++)
            assert_int_equal(s->from_root[root], 1000 + root);
        assert_int_equal(s->min, 10);
        assert_int_equal(s->max, 7 * (size - 1));
        if (size == 1)
            continue;
        uint32_t prev = (r + size - 1) % size;
        assert_int_equal(s->send_rc, 0);
        assert_int_equal(s->recv_rc, 0);
        assert_int_equal(s->received_bytes, prev + 1 < 8 ? prev + 1 : 8);
        for (uint64_t i = 0; i < s->received_bytes; i++)
            assert_int_equal(s->received[i], prev);
    }
    assert_int_equal(report.collectives, size + 2);
    assert_int_equal(report.message_count, size > 1 ? size : 0);
    for (size_t i = 0; i < report.message_count; i++)
        assert_int_equal(report.messages[i].to, (report.messages[i].from + 1) % size);
    assert_false(report.fault_fired);
    test_job_report_free(&report);
}

static void test_operations_at_every_size(void **state)
{
    (void)state;
    for (uint32_t size = 1; size <= 9; size++)
        check_everything(size);
    check_everything(64);
}

/* Each rank first waits for the next one: nobody sends. */
static void wait_in_a_circle(const weft_job_ops *ops, void *context)
{
    seen *s = context;
    void *in = NULL;
    uint64_t len = 0;
    s->recv_rc = ops->recv(&in, &len, (ops->rank + 1) % ops->size, ops->data);
    free(in);
    /* Later calls after a deadlock fail at once instead of waiting. */
    uint64_t value = 1;
    s->extra_rc = ops->allreduce_u64(&value, 1, false, ops->data);
}

/* Rank 1 waits for a message rank 0 never sends, while rank 2 still works
 * and then returns: found once nobody is left running. */
static void wait_for_a_returned_rank(const weft_job_ops *ops, void *context)
{
    seen *s = context;
    if (ops->rank == 1) {
        void *in = NULL;
        uint64_t len = 0;
        s->recv_rc = ops->recv(&in, &len, 0, ops->data);
        free(in);
    } else if (ops->rank == 2) {
        unsigned char byte = 2;
        s->send_rc = ops->send(&byte, 1, 0, ops->data);
    } else {
        void *in = NULL;
        uint64_t len = 0;
        s->recv_rc = ops->recv(&in, &len, 2, ops->data);
        free(in);
    }
}

static void test_deadlocks_are_found(void **state)
{
    (void)state;
    seen ranks[MAX_RANKS];
    test_job_report report;
    run(3, wait_in_a_circle, ranks, NULL, &report, false);
    assert_true(report.deadlock);
    for (uint32_t r = 0; r < 3; r++) {
        assert_int_equal(ranks[r].recv_rc, -1);
        assert_int_equal(ranks[r].extra_rc, -1);
    }
    test_job_report_free(&report);

    run(3, wait_for_a_returned_rank, ranks, NULL, &report, false);
    assert_true(report.deadlock);
    assert_int_equal(ranks[0].recv_rc, 0);
    assert_int_equal(ranks[1].recv_rc, -1);
    assert_int_equal(report.message_count, 1);
    test_job_report_free(&report);
}

/* Rank 0 broadcasts 8 bytes; rank 1 expects 4, rank 2 an all-reduce. */
static void mismatched_collectives(const weft_job_ops *ops, void *context)
{
    seen *s = context;
    uint64_t value = 5;
    if (ops->rank == 2)
        s->extra_rc = ops->allreduce_u64(&value, 1, false, ops->data);
    else
        s->extra_rc = ops->bcast(&value, ops->rank == 0 ? 8 : 4, 0, ops->data);
}

/* Rank 0 sends to rank 1, which never receives; rank 1 broadcasts once
 * more than the others take part in. */
static void unreceived(const weft_job_ops *ops, void *context)
{
    seen *s = context;
    unsigned char byte = 9;
    if (ops->rank == 0)
        s->send_rc = ops->send(&byte, 1, 1, ops->data);
    if (ops->rank == 1)
        s->bcast_rc = ops->bcast(&byte, 1, 1, ops->data);
}

static void test_mismatches_and_leftovers_are_reported(void **state)
{
    (void)state;
    seen ranks[MAX_RANKS];
    test_job_report report;
    run(3, mismatched_collectives, ranks, NULL, &report, false);
    assert_false(report.deadlock);
    assert_non_null(strstr(report.problem, "collective #1"));
    assert_int_equal(ranks[1].extra_rc, -1);
    test_job_report_free(&report);

    run(2, unreceived, ranks, NULL, &report, false);
    assert_false(report.deadlock);
    assert_non_null(strstr(report.problem, "never received"));
    test_job_report_free(&report);
}

/* An injected failure: the call takes part, then fails; nothing is left
 * over and nobody waits. */
static void test_injected_failures_take_part(void **state)
{
    (void)state;
    seen ranks[MAX_RANKS];
    test_job_report report;
    /* clang-format off */
    const test_job_fault faults[] = {
        {TEST_JOB_RECV, 2, 0},
        {TEST_JOB_SEND, 1, 0},
        {TEST_JOB_ALLREDUCE, 3, 1},
        {TEST_JOB_ALLREDUCE, 0, 0},
        {TEST_JOB_BCAST, 2, 3},
        {TEST_JOB_BCAST, 3, 3}, /* as the root */
    };
    /* clang-format on */
    for (size_t f = 0; f < sizeof(faults) / sizeof(faults[0]); f++) {
        run(4, everything, ranks, &faults[f], &report, true);
        assert_true(report.fault_fired);
        const seen *s = &ranks[faults[f].rank];
        int rc = faults[f].op == TEST_JOB_RECV    ? s->recv_rc
                 : faults[f].op == TEST_JOB_SEND  ? s->send_rc
                 : faults[f].op == TEST_JOB_BCAST ? s->bcast_rc
                                                  : s->reduce_rc;
        assert_int_equal(rc, -1);
        /* Everyone else got everything. */
        uint32_t other = (faults[f].rank + 2) % 4;
        assert_int_equal(ranks[other].min, 10);
        assert_int_equal(ranks[other].from_root[3], 1003);
        test_job_report_free(&report);
    }
    /* A call number that is never reached does not fire. */
    test_job_fault never = {TEST_JOB_SEND, 1, 5};
    run(4, everything, ranks, &never, &report, true);
    assert_false(report.fault_fired);
    test_job_report_free(&report);
}

static void talk_to_self(const weft_job_ops *ops, void *context)
{
    seen *s = context;
    unsigned char byte = 0;
    s->send_rc = ops->send(&byte, 1, ops->rank, ops->data);
    s->extra_rc = ops->send(&byte, 1, ops->size, ops->data);
}

static void test_bad_peers(void **state)
{
    (void)state;
    seen ranks[MAX_RANKS];
    test_job_report report;
    run(2, talk_to_self, ranks, NULL, &report, false);
    assert_int_equal(ranks[0].send_rc, -1);
    assert_int_equal(ranks[1].extra_rc, -1);
    assert_int_equal(report.message_count, 0);
    assert_non_null(strstr(report.problem, "send with rank"));
    test_job_report_free(&report);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operations_at_every_size),
        cmocka_unit_test(test_deadlocks_are_found),
        cmocka_unit_test(test_mismatches_and_leftovers_are_reported),
        cmocka_unit_test(test_injected_failures_take_part),
        cmocka_unit_test(test_bad_peers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
