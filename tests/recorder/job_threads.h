/* Test support: a job of P ranks inside one process, each rank a thread,
 * talking through mailboxes with the job operations of weft/job.h. It lets
 * unit tests run the recorder's real collective code (the unification tree
 * of recorder/job_unify.c) at any number of ranks, without MPI.
 *
 * The operations have MPI's weakest legal behaviour: a send, and a root's
 * broadcast, never wait (the message is queued in the receiver's mailbox);
 * a receive waits for the oldest message from its source; an all-reduce
 * gathers on rank 0, which answers everyone. On top of that the job checks
 * what MPI would leave undefined or hang on, and reports it instead:
 *   - a deadlock: every rank that has not returned waits for a message that
 *     no rank can send any more (found exactly, not by a timeout; the
 *     waiting operations then fail, so the bodies return);
 *   - collectives that do not match: rank r's n-th collective differs from
 *     the root's n-th (another operation, root, size or count);
 *   - messages nobody received by the end.
 * Every point-to-point message is logged (sender, receiver, bytes) for the
 * test to check the communication pattern.
 *
 * Failures can be injected into one rank: its n-th call of one operation
 * does its part of the communication (sends, or consumes what it
 * receives), then returns -1, as when the receiver has no memory for the
 * data. That is the kind of failure a collective protocol can survive; an
 * operation that fails without taking part leaves the others waiting and
 * shows up as a deadlock. */
#ifndef WEFT_TESTS_RECORDER_JOB_THREADS_H
#define WEFT_TESTS_RECORDER_JOB_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/job.h"

/* What rank `ops->rank` does, on its own thread; `context` is that rank's
 * entry of the contexts passed to test_job_run. */
typedef void (*test_job_body)(const weft_job_ops *ops, void *context);

typedef enum test_job_op {
    TEST_JOB_NONE,
    TEST_JOB_BCAST,
    TEST_JOB_SEND,
    TEST_JOB_RECV,
    TEST_JOB_ALLREDUCE,
} test_job_op;

/* Rank `rank`'s call number `nth` (0: its first) of operation `op` fails
 * after taking part. */
typedef struct test_job_fault {
    test_job_op op;
    uint32_t rank;
    uint32_t nth;
} test_job_fault;

typedef struct test_job_message {
    uint32_t from, to;
    uint64_t bytes;
} test_job_message;

typedef struct test_job_report {
    bool deadlock;
    char problem[512]; /* the first mismatch or leftover message; "" if none */
    /* Point-to-point messages in the order they were sent (malloc'd; free
     * with test_job_report_free). */
    test_job_message *messages;
    size_t message_count;
    uint32_t collectives; /* collective calls of rank 0 */
    bool fault_fired;     /* the injected failure happened */
} test_job_report;

/* Runs body on `size` threads, rank r with contexts[r] (contexts may be
 * NULL), and waits for all. Returns true when the job ran cleanly: no
 * deadlock, no mismatch, no message left over; *report says what happened
 * in any case. `fault` may be NULL. */
bool test_job_run(uint32_t size, test_job_body body, void *const *contexts,
                  const test_job_fault *fault, test_job_report *report);

void test_job_report_free(test_job_report *report);

#endif /* WEFT_TESTS_RECORDER_JOB_THREADS_H */
/* SPDX-License-Identifier: BSD-3-Clause */
