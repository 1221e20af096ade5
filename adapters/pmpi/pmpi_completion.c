/* SPDX-License-Identifier: BSD-3-Clause */
/* The Wait and Test family: which remembered requests a call completed and
 * what that records; see pmpi_hooks.h.
 *
 * MPI sets a completed request's handle to MPI_REQUEST_NULL (persistent
 * ones stay) and may hand the freed handle to another thread's next
 * request at once, so each request's entry is claimed BEFORE the call and
 * matched by position after it: completed (dropped by its id) or unclaimed
 * (pmpi_requests.c).
 *
 * A completed receive is recorded from its status (source, tag, size), so
 * the call must fill statuses even when the program passed
 * MPI_STATUS(ES)_IGNORE: then weft passes its own (on the stack for up to
 * WEFT_PMPI_INLINE_REQUESTS, else malloc'ed with the notes on the
 * requests) and never writes the program's. Without that memory the call
 * still runs with the program's arguments but records no completion; its
 * entries stay behind (and are matched by the next users of the handles). */
#include <stdlib.h>

#include "pmpi_hooks.h"

/* Space for count pending requests and, if statuses, their statuses (or
 * one status). False when out of memory (then nothing is tracked). */
static bool reserve(weft_pmpi_completion *c, int count, size_t status_bytes)
{
    if (count <= WEFT_PMPI_INLINE_REQUESTS) {
        c->pending = c->inline_pending;
        return true;
    }
    size_t pending_bytes = (size_t)count * sizeof(weft_pmpi_pending);
    c->heap = malloc(pending_bytes + status_bytes);
    c->pending = c->heap;
    return c->heap != NULL;
}

/* Claims the entry of request i; true when its completion needs its status
 * (a receive, or anything being cancelled). */
static bool look_up(weft_pmpi_completion *c, int i, MPI_Request handle)
{
    weft_pmpi_pending *p = &c->pending[i];
    p->handle = handle;
    p->done = false;
    p->failed = false;
    p->status_index = c->one_status ? 0 : i;
    p->tracked = handle != MPI_REQUEST_NULL && weft__pmpi_request_claim(handle, &p->req);
    if (!p->tracked)
        return false;
    c->tracked = true;
    return p->req.kind == WEFT_PMPI_REQUEST_RECV || p->req.kind == WEFT_PMPI_REQUEST_IO ||
           (p->req.flags & WEFT_PMPI_REQUEST_CANCELLING);
}

static void start(weft_pmpi_completion *c, int count, bool one_status)
{
    c->count = count > 0 ? count : 0;
    c->tracked = false;
    c->one_status = one_status;
    c->have_statuses = false;
    c->pending = NULL;
    c->statuses = NULL;
    c->f_statuses = NULL;
    c->heap = NULL;
}

MPI_Status *weft__pmpi_completion_begin(weft_pmpi_completion *c, int count,
                                        const MPI_Request *requests, MPI_Status *statuses,
                                        bool one_status)
{
    start(c, count, one_status);
    int status_count = one_status ? 1 : c->count;
    if (!reserve(c, c->count, (size_t)status_count * sizeof(MPI_Status)))
        return statuses;
    bool need_statuses = false;
    for (int i = 0; i < c->count; i++)
        need_statuses |= look_up(c, i, requests[i]);
    bool ignored = statuses == (one_status ? MPI_STATUS_IGNORE : MPI_STATUSES_IGNORE);
    if (!ignored) {
        c->statuses = statuses;
        c->have_statuses = true;
    } else if (need_statuses) {
        c->statuses = status_count <= WEFT_PMPI_INLINE_REQUESTS
                          ? c->inline_statuses
                          : (MPI_Status *)(void *)(c->pending + c->count);
        c->have_statuses = true;
        return c->statuses;
    }
    return statuses;
}

MPI_Fint *weft__pmpi_completion_begin_f(weft_pmpi_completion *c, int count,
                                        const MPI_Fint *requests, MPI_Fint *statuses,
                                        bool one_status)
{
    start(c, count, one_status);
    int status_count = one_status ? 1 : c->count;
    size_t status_ints = (size_t)status_count * WEFT_PMPI_F_STATUS_SIZE;
    if (!reserve(c, c->count, status_ints * sizeof(MPI_Fint)))
        return statuses;
    bool need_statuses = false;
    for (int i = 0; i < c->count; i++)
        need_statuses |= look_up(c, i, PMPI_Request_f2c(requests[i]));
    bool ignored = statuses == (one_status ? MPI_F_STATUS_IGNORE : MPI_F_STATUSES_IGNORE);
    if (!ignored) {
        c->f_statuses = statuses;
        c->have_statuses = true;
    } else if (need_statuses) {
        c->f_statuses = status_count <= WEFT_PMPI_INLINE_REQUESTS
                            ? c->inline_f_statuses
                            : (MPI_Fint *)(void *)(c->pending + c->count);
        c->have_statuses = true;
        return c->f_statuses;
    }
    return statuses;
}

/* The status at index at (of the statuses MPI filled) after the call (in
 * *scratch for Fortran), or NULL when there is none. */
static const MPI_Status *status_at(const weft_pmpi_completion *c, int at, MPI_Status *scratch)
{
    if (!c->have_statuses)
        return NULL;
    if (c->f_statuses) {
        if (PMPI_Status_f2c(c->f_statuses + (size_t)at * WEFT_PMPI_F_STATUS_SIZE, scratch) !=
            MPI_SUCCESS)
            return NULL;
        return scratch;
    }
    return &c->statuses[at];
}

/* Records the completion of pending request p from its status (NULL:
 * none) and drops its entry. */
static void complete(const weft_pmpi_pending *p, const MPI_Status *status)
{
    int cancelled = 0;
    if (status && (p->req.flags & WEFT_PMPI_REQUEST_CANCELLING) &&
        PMPI_Test_cancelled(status, &cancelled) != MPI_SUCCESS)
        cancelled = 0;
    if (cancelled)
        weft_mpi_request_cancelled(p->req.id);
    else if (p->req.kind == WEFT_PMPI_REQUEST_SEND)
        weft_mpi_isend_complete(p->req.id);
    else if (p->req.kind == WEFT_PMPI_REQUEST_RECV && status && status->MPI_SOURCE >= 0)
        weft_mpi_irecv((uint32_t)status->MPI_SOURCE, p->req.comm, (uint32_t)status->MPI_TAG,
                       weft__pmpi_status_bytes(status), p->req.id);
    else if (p->req.kind == WEFT_PMPI_REQUEST_COMM)
        weft__pmpi_comm_idup_done(&p->req);
    else if (p->req.kind == WEFT_PMPI_REQUEST_IO)
        weft_io_operation_complete((weft_object){p->req.peer},
                                   status ? weft__pmpi_status_bytes(status) : 0, p->req.id);
    weft__pmpi_request_completed(p->handle, p->req.id);
}

/* Settles every claimed entry: a completed request is recorded and
 * dropped, a failed one dropped silently; the others are unclaimed, after
 * a RequestTest event if the call was a test. Then frees the heap space. */
static void finish(weft_pmpi_completion *c, bool test)
{
    for (int i = 0; c->tracked && i < c->count; i++) {
        const weft_pmpi_pending *p = &c->pending[i];
        if (!p->tracked)
            continue;
        if (p->done) {
            MPI_Status scratch;
            complete(p, status_at(c, p->status_index, &scratch));
        } else if (p->failed) {
            weft__pmpi_request_completed(p->handle, p->req.id);
        } else {
            if (test && p->req.kind != WEFT_PMPI_REQUEST_COLLECTIVE &&
                p->req.kind != WEFT_PMPI_REQUEST_IO && p->req.kind != WEFT_PMPI_REQUEST_COMM)
                weft_mpi_request_test(p->req.id);
            weft__pmpi_request_unclaim(p->handle, p->req.id);
        }
    }
    free(c->heap);
    c->heap = NULL;
}

/* MPI_ERR_IN_STATUS (Waitall, Testall): each request's status says whether
 * it completed, failed (MPI freed it) or is still pending. Without
 * statuses nothing is known and every request stays pending. */
static void mark_from_statuses(weft_pmpi_completion *c)
{
    for (int i = 0; i < c->count; i++) {
        MPI_Status scratch;
        const MPI_Status *status = status_at(c, c->pending[i].status_index, &scratch);
        if (!status || status->MPI_ERROR == MPI_ERR_PENDING)
            continue;
        if (status->MPI_ERROR == MPI_SUCCESS)
            c->pending[i].done = true;
        else
            c->pending[i].failed = true;
    }
}

static void mark_all(weft_pmpi_completion *c)
{
    for (int i = 0; i < c->count; i++)
        c->pending[i].done = true;
}

void weft__pmpi_completion_all(weft_pmpi_completion *c, int ret)
{
    if (ret == MPI_SUCCESS)
        mark_all(c);
    else if (ret == MPI_ERR_IN_STATUS && !c->one_status)
        mark_from_statuses(c);
    finish(c, false);
}

void weft__pmpi_completion_test(weft_pmpi_completion *c, int ret, int flag)
{
    if (ret == MPI_SUCCESS && flag)
        mark_all(c);
    else if (ret == MPI_ERR_IN_STATUS && !c->one_status)
        mark_from_statuses(c);
    finish(c, ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS);
}

/* Waitany/Testany: request `index` (counted from index_base; MPI_UNDEFINED:
 * none) completed if flag. */
static void mark_one(weft_pmpi_completion *c, int ret, int index, int index_base, int flag)
{
    int done = ret == MPI_SUCCESS && flag && index != MPI_UNDEFINED ? index - index_base : -1;
    if (done >= 0 && done < c->count)
        c->pending[done].done = true;
}

void weft__pmpi_completion_waitany(weft_pmpi_completion *c, int ret, int index, int index_base)
{
    mark_one(c, ret, index, index_base, 1);
    finish(c, false);
}

void weft__pmpi_completion_testany(weft_pmpi_completion *c, int ret, int index, int flag,
                                   int index_base)
{
    mark_one(c, ret, index, index_base, flag);
    /* Testany that completed one did not test the others in vain. */
    finish(c, ret == MPI_SUCCESS && !flag);
}

void weft__pmpi_completion_some(weft_pmpi_completion *c, int ret, int outcount, const int *indices,
                                int index_base, bool test)
{
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && outcount != MPI_UNDEFINED) {
        /* The statuses of Waitsome/Testsome are by completion: status k
         * belongs to request indices[k]. */
        for (int k = 0; k < outcount && k < c->count; k++) {
            int i = indices[k] - index_base;
            if (i < 0 || i >= c->count)
                continue;
            c->pending[i].status_index = k;
            MPI_Status scratch;
            const MPI_Status *status = status_at(c, k, &scratch);
            if (ret == MPI_ERR_IN_STATUS && status && status->MPI_ERROR != MPI_SUCCESS)
                c->pending[i].failed = true;
            else
                c->pending[i].done = true;
        }
    }
    finish(c, test && (ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS));
}
