/* The in-process job of job_threads.h.
 *
 * One mutex guards the whole job (every mailbox, every rank's state): the
 * jobs are small (a few dozen ranks) and only tests run them. Each rank
 * waits on a condition variable of its own, signalled when a message is
 * queued for it, or when the job is found deadlocked.
 *
 * Deadlock detection: a rank that must wait marks itself WAITING with what
 * it waits for; a rank that returns marks itself DONE. After each such step
 * the job is deadlocked when no rank is RUNNING and no waiting rank has its
 * message in its mailbox: nobody can send anything any more. */
#include "job_threads.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct message {
    struct message *next;
    uint32_t from;
    bool collective;
    uint32_t seq;   /* collectives: the sender's collective number (from 1) */
    test_job_op op; /* collectives: TEST_JOB_BCAST or TEST_JOB_ALLREDUCE */
    uint32_t root;  /* broadcast: its root */
    bool max;       /* all-reduce: maximum (true) or minimum */
    uint64_t bytes; /* of payload */
    unsigned char payload[];
} message;

enum rank_phase { RUNNING, WAITING, DONE };

struct job;

typedef struct rank_state {
    struct job *job;
    uint32_t rank;
    weft_job_ops ops;
    void *context;
    pthread_t thread;
    pthread_cond_t arrived; /* a message was queued, or the job deadlocked */
    message *head, *tail;   /* the mailbox, oldest first */
    enum rank_phase phase;
    /* While WAITING: what for. */
    uint32_t want_from;
    bool want_collective;
    uint32_t want_seq;
    uint32_t collectives;                   /* collective calls so far */
    uint32_t calls[TEST_JOB_ALLREDUCE + 1]; /* calls of each operation so far */
} rank_state;

typedef struct job {
    pthread_mutex_t mutex;
    uint32_t size;
    rank_state *ranks;
    test_job_body body;
    test_job_fault fault;
    test_job_report *report;
    size_t message_capacity;
} job;

static const char *op_name(test_job_op op)
{
    switch (op) {
    case TEST_JOB_BCAST:
        return "broadcast";
    case TEST_JOB_SEND:
        return "send";
    case TEST_JOB_RECV:
        return "receive";
    case TEST_JOB_ALLREDUCE:
        return "all-reduce";
    default:
        return "none";
    }
}

/* Notes the first problem of the run. Caller holds the mutex. */
static void problem(job *j, const char *format, ...)
{
    if (j->report->problem[0] != '\0')
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(j->report->problem, sizeof(j->report->problem), format, args);
    va_end(args);
}

static bool matches(const message *m, const rank_state *r)
{
    return m->from == r->want_from && m->collective == r->want_collective &&
           (!m->collective || m->seq == r->want_seq);
}

/* Unlinks and returns the oldest message of r's mailbox that r waits for,
 * or NULL. Caller holds the mutex. */
static message *take(rank_state *r, bool remove)
{
    message *prev = NULL;
    for (message *m = r->head; m; prev = m, m = m->next) {
        if (!matches(m, r))
            continue;
        if (remove) {
            if (prev)
                prev->next = m->next;
            else
                r->head = m->next;
            if (r->tail == m)
                r->tail = prev;
            m->next = NULL;
        }
        return m;
    }
    return NULL;
}

/* Caller holds the mutex; see the top of the file. */
static void check_deadlock(job *j)
{
    for (uint32_t i = 0; i < j->size; i++) {
        rank_state *r = &j->ranks[i];
        if (r->phase == RUNNING || (r->phase == WAITING && take(r, false)))
            return;
    }
    bool anyone_waits = false;
    for (uint32_t i = 0; i < j->size; i++)
        anyone_waits |= j->ranks[i].phase == WAITING;
    if (anyone_waits && !j->report->deadlock) {
        j->report->deadlock = true;
        for (uint32_t i = 0; i < j->size; i++)
            pthread_cond_signal(&j->ranks[i].arrived);
    }
}

/* Waits for the oldest message to r from `from` on the given channel;
 * NULL once the job is deadlocked (also for a message that ranks sent after
 * the deadlock: the job is broken, and a run must not depend on which
 * rank's later calls happened to meet). */
static message *wait_for(rank_state *r, uint32_t from, bool collective, uint32_t seq)
{
    job *j = r->job;
    pthread_mutex_lock(&j->mutex);
    r->want_from = from;
    r->want_collective = collective;
    r->want_seq = seq;
    message *m = NULL;
    while (!j->report->deadlock && !(m = take(r, true))) {
        r->phase = WAITING;
        check_deadlock(j);
        if (!j->report->deadlock)
            pthread_cond_wait(&r->arrived, &j->mutex);
        r->phase = RUNNING;
    }
    pthread_mutex_unlock(&j->mutex);
    return m;
}

static message *message_new(uint32_t from, const void *payload, uint64_t bytes)
{
    message *m = calloc(1, sizeof(*m) + (size_t)bytes);
    if (!m)
        abort(); /* a test without memory cannot go on */
    m->from = from;
    m->bytes = bytes;
    if (bytes)
        memcpy(m->payload, payload, (size_t)bytes);
    return m;
}

/* Queues m for rank `to`. Caller holds the mutex. */
static void post(job *j, uint32_t to, message *m)
{
    rank_state *r = &j->ranks[to];
    if (r->tail)
        r->tail->next = m;
    else
        r->head = m;
    r->tail = m;
    pthread_cond_signal(&r->arrived);
}

/* Counts the call and says whether it is the one to fail. */
static bool injected(rank_state *r, test_job_op op)
{
    job *j = r->job;
    uint32_t nth = r->calls[op]++;
    if (j->fault.op != op || j->fault.rank != r->rank || j->fault.nth != nth)
        return false;
    pthread_mutex_lock(&j->mutex);
    j->report->fault_fired = true;
    pthread_mutex_unlock(&j->mutex);
    return true;
}

static bool peer_ok(rank_state *r, uint32_t peer, const char *what)
{
    if (peer < r->job->size && peer != r->rank)
        return true;
    pthread_mutex_lock(&r->job->mutex);
    problem(r->job, "rank %u: %s with rank %u in a job of %u", r->rank, what, peer, r->job->size);
    pthread_mutex_unlock(&r->job->mutex);
    return false;
}

/* A received collective message that is not what this rank's call expects. */
static bool collective_matches(rank_state *r, const message *m, test_job_op op, uint32_t root,
                               uint64_t bytes, bool max)
{
    if (m->op == op && m->root == root && m->bytes == bytes && m->max == max)
        return true;
    pthread_mutex_lock(&r->job->mutex);
    problem(r->job,
            "collective #%u: rank %u called %s (root %u, %llu bytes) but rank %u called %s "
            "(root %u, %llu bytes)",
            m->seq, r->rank, op_name(op), root, (unsigned long long)bytes, m->from, op_name(m->op),
            m->root, (unsigned long long)m->bytes);
    pthread_mutex_unlock(&r->job->mutex);
    return false;
}

static int job_bcast(void *buf, uint64_t bytes, uint32_t root, void *data)
{
    rank_state *r = data;
    job *j = r->job;
    uint32_t seq = ++r->collectives;
    bool fail = injected(r, TEST_JOB_BCAST);
    if (root >= j->size) {
        peer_ok(r, root, "broadcast from root");
        return -1;
    }
    if (r->rank == root) {
        pthread_mutex_lock(&j->mutex);
        for (uint32_t to = 0; to < j->size; to++) {
            if (to == root)
                continue;
            message *m = message_new(root, buf, bytes);
            m->collective = true;
            m->seq = seq;
            m->op = TEST_JOB_BCAST;
            m->root = root;
            post(j, to, m);
        }
        pthread_mutex_unlock(&j->mutex);
        return fail ? -1 : 0;
    }
    message *m = wait_for(r, root, true, seq);
    if (!m)
        return -1;
    bool ok = collective_matches(r, m, TEST_JOB_BCAST, root, bytes, false);
    if (ok && bytes)
        memcpy(buf, m->payload, (size_t)bytes);
    free(m);
    return ok && !fail ? 0 : -1;
}

static int job_allreduce(uint64_t *values, uint32_t count, bool max, void *data)
{
    rank_state *r = data;
    job *j = r->job;
    uint32_t seq = ++r->collectives;
    bool fail = injected(r, TEST_JOB_ALLREDUCE);
    uint64_t bytes = (uint64_t)count * sizeof(uint64_t);
    bool ok = true;
    if (r->rank != 0) {
        message *mine = message_new(r->rank, values, bytes);
        mine->collective = true;
        mine->seq = seq;
        mine->op = TEST_JOB_ALLREDUCE;
        mine->max = max;
        pthread_mutex_lock(&j->mutex);
        post(j, 0, mine);
        pthread_mutex_unlock(&j->mutex);
        message *result = wait_for(r, 0, true, seq);
        if (!result)
            return -1;
        ok = collective_matches(r, result, TEST_JOB_ALLREDUCE, 0, bytes, max);
        if (ok && bytes)
            memcpy(values, result->payload, (size_t)bytes);
        free(result);
        return ok && !fail ? 0 : -1;
    }
    for (uint32_t from = 1; from < j->size; from++) {
        message *m = wait_for(r, from, true, seq);
        if (!m)
            return -1;
        if (collective_matches(r, m, TEST_JOB_ALLREDUCE, 0, bytes, max)) {
            const uint64_t *theirs = (const uint64_t *)(const void *)m->payload;
            for (uint32_t i = 0; i < count; i++) {
                uint64_t v;
                memcpy(&v, &theirs[i], sizeof(v));
                if (max ? v > values[i] : v < values[i])
                    values[i] = v;
            }
        } else {
            ok = false;
        }
        free(m);
    }
    pthread_mutex_lock(&j->mutex);
    for (uint32_t to = 1; to < j->size; to++) {
        message *m = message_new(0, values, bytes);
        m->collective = true;
        m->seq = seq;
        m->op = TEST_JOB_ALLREDUCE;
        m->max = max;
        post(j, to, m);
    }
    pthread_mutex_unlock(&j->mutex);
    return ok && !fail ? 0 : -1;
}

static int job_send(const void *buf, uint64_t bytes, uint32_t to, void *data)
{
    rank_state *r = data;
    job *j = r->job;
    bool fail = injected(r, TEST_JOB_SEND);
    if (!peer_ok(r, to, "send"))
        return -1;
    pthread_mutex_lock(&j->mutex);
    test_job_report *report = j->report;
    if (report->message_count == j->message_capacity) {
        size_t capacity = j->message_capacity ? 2 * j->message_capacity : 64;
        test_job_message *grown = realloc(report->messages, capacity * sizeof(*grown));
        if (!grown)
            abort();
        report->messages = grown;
        j->message_capacity = capacity;
    }
    report->messages[report->message_count++] = (test_job_message){r->rank, to, bytes};
    post(j, to, message_new(r->rank, buf, bytes));
    pthread_mutex_unlock(&j->mutex);
    return fail ? -1 : 0;
}

static int job_recv(void **buf, uint64_t *bytes, uint32_t from, void *data)
{
    rank_state *r = data;
    *buf = NULL;
    *bytes = 0;
    bool fail = injected(r, TEST_JOB_RECV);
    if (!peer_ok(r, from, "receive"))
        return -1;
    message *m = wait_for(r, from, false, 0);
    if (!m)
        return -1;
    if (fail) {
        free(m);
        return -1;
    }
    /* The caller frees the buffer with free(): a copy of its own. */
    void *copy = malloc(m->bytes ? (size_t)m->bytes : 1);
    if (!copy)
        abort();
    if (m->bytes)
        memcpy(copy, m->payload, (size_t)m->bytes);
    *buf = copy;
    *bytes = m->bytes;
    free(m);
    return 0;
}

static int job_archive_collectives(void *archive, void *data)
{
    (void)archive;
    rank_state *r = data;
    pthread_mutex_lock(&r->job->mutex);
    problem(r->job, "rank %u: the in-process job has no OTF2 collectives", r->rank);
    pthread_mutex_unlock(&r->job->mutex);
    return -1;
}

static void *rank_main(void *arg)
{
    rank_state *r = arg;
    job *j = r->job;
    j->body(&r->ops, r->context);
    pthread_mutex_lock(&j->mutex);
    r->phase = DONE;
    check_deadlock(j);
    pthread_mutex_unlock(&j->mutex);
    return NULL;
}

/* Reports and frees the messages nobody received. */
static void drain_leftovers(job *j)
{
    for (uint32_t i = 0; i < j->size; i++) {
        rank_state *r = &j->ranks[i];
        while (r->head) {
            message *m = r->head;
            r->head = m->next;
            if (m->collective)
                problem(j, "rank %u never received rank %u's %s #%u (%llu bytes)", r->rank, m->from,
                        op_name(m->op), m->seq, (unsigned long long)m->bytes);
            else
                problem(j, "rank %u never received rank %u's message of %llu bytes", r->rank,
                        m->from, (unsigned long long)m->bytes);
            free(m);
        }
        r->tail = NULL;
    }
}

bool test_job_run(uint32_t size, test_job_body body, void *const *contexts,
                  const test_job_fault *fault, test_job_report *report)
{
    memset(report, 0, sizeof(*report));
    job j = {.size = size, .body = body, .report = report};
    if (fault)
        j.fault = *fault;
    j.ranks = calloc(size ? size : 1, sizeof(*j.ranks));
    if (!j.ranks || size == 0) {
        free(j.ranks);
        snprintf(report->problem, sizeof(report->problem), "a job needs at least one rank");
        return false;
    }
    pthread_mutex_init(&j.mutex, NULL);
    for (uint32_t i = 0; i < size; i++) {
        rank_state *r = &j.ranks[i];
        r->job = &j;
        r->rank = i;
        r->context = contexts ? contexts[i] : NULL;
        r->phase = RUNNING; /* before any thread runs: see check_deadlock */
        pthread_cond_init(&r->arrived, NULL);
        r->ops = (weft_job_ops){.rank = i,
                                .size = size,
                                .data = r,
                                .archive_collectives = job_archive_collectives,
                                .bcast = job_bcast,
                                .send = job_send,
                                .recv = job_recv,
                                .allreduce_u64 = job_allreduce};
    }
    uint32_t started = 0;
    for (; started < size; started++) {
        if (pthread_create(&j.ranks[started].thread, NULL, rank_main, &j.ranks[started]) != 0)
            break;
    }
    if (started < size) {
        /* The ranks that run would wait for the missing ones: let them
         * find the deadlock and return. */
        pthread_mutex_lock(&j.mutex);
        problem(&j, "could start only %u of %u rank threads", started, size);
        for (uint32_t i = started; i < size; i++)
            j.ranks[i].phase = DONE;
        check_deadlock(&j);
        pthread_mutex_unlock(&j.mutex);
    }
    for (uint32_t i = 0; i < started; i++)
        pthread_join(j.ranks[i].thread, NULL);
    drain_leftovers(&j);
    report->collectives = j.ranks[0].collectives;
    for (uint32_t i = 0; i < size; i++)
        pthread_cond_destroy(&j.ranks[i].arrived);
    pthread_mutex_destroy(&j.mutex);
    free(j.ranks);
    return !report->deadlock && report->problem[0] == '\0';
}

void test_job_report_free(test_job_report *report)
{
    free(report->messages);
    report->messages = NULL;
    report->message_count = 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
