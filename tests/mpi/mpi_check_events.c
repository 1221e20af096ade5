/* Checks of MPI regions and the MPI records inside them, location by
 * location: region definitions (file "MPI", paradigm MPI, the role the
 * contract gives each name), enter counts against a scenario's expectation,
 * what one instance of each region may hold (one MpiSend in an MPI_Send,
 * Begin and End in a blocking collective, nothing in MPI_Init ...), no MPI
 * record outside an MPI region and no MPI region inside another, the
 * communicator of each record, and request ids: fresh at every Isend and
 * IrecvRequest, completed (or cancelled) exactly once on the same location. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What an instance of a region may hold. */
typedef enum rule {
    RULE_NOTHING,   /* no MPI record at all */
    RULE_SEND,      /* one MpiSend */
    RULE_RECV,      /* one MpiRecv */
    RULE_SENDRECV,  /* one MpiSend and one MpiRecv */
    RULE_ISEND,     /* one MpiIsend */
    RULE_IRECV,     /* one MpiIrecvRequest */
    RULE_START,     /* one MpiIsend or MpiIrecvRequest */
    RULE_STARTALL,  /* MpiIsend and MpiIrecvRequest only */
    RULE_ONE_DONE,  /* at most one completion (IsendComplete, Irecv, Cancelled) */
    RULE_ONE_TEST,  /* at most one completion or RequestTest */
    RULE_DONE,      /* completions and RequestTests only */
    RULE_COLLECTIVE /* one CollectiveBegin, then one CollectiveEnd */
} rule;

#define ROLE(r) OTF2_REGION_ROLE_##r
#define NO_ROLE ((OTF2_RegionRole)255)
#define OP(o) OTF2_COLLECTIVE_OP_##o
#define NO_OP (-1)

/* Regions the tests call; role NO_ROLE: the contract does not fix it. */
static const struct region_rule {
    const char *name;
    OTF2_RegionRole role;
    rule rule;
    int op;
} rules[] = {
    {"MPI_Send", ROLE(POINT2POINT), RULE_SEND, NO_OP},
    {"MPI_Bsend", ROLE(POINT2POINT), RULE_SEND, NO_OP},
    {"MPI_Ssend", ROLE(POINT2POINT), RULE_SEND, NO_OP},
    {"MPI_Rsend", ROLE(POINT2POINT), RULE_SEND, NO_OP},
    {"MPI_Recv", ROLE(POINT2POINT), RULE_RECV, NO_OP},
    {"MPI_Mrecv", ROLE(POINT2POINT), RULE_RECV, NO_OP},
    {"MPI_Sendrecv", ROLE(POINT2POINT), RULE_SENDRECV, NO_OP},
    {"MPI_Sendrecv_replace", ROLE(POINT2POINT), RULE_SENDRECV, NO_OP},
    {"MPI_Isend", ROLE(POINT2POINT), RULE_ISEND, NO_OP},
    {"MPI_Ibsend", ROLE(POINT2POINT), RULE_ISEND, NO_OP},
    {"MPI_Issend", ROLE(POINT2POINT), RULE_ISEND, NO_OP},
    {"MPI_Irsend", ROLE(POINT2POINT), RULE_ISEND, NO_OP},
    {"MPI_Irecv", ROLE(POINT2POINT), RULE_IRECV, NO_OP},
    {"MPI_Start", NO_ROLE, RULE_START, NO_OP},
    {"MPI_Startall", NO_ROLE, RULE_STARTALL, NO_OP},
    {"MPI_Wait", ROLE(POINT2POINT), RULE_ONE_DONE, NO_OP},
    {"MPI_Waitany", ROLE(POINT2POINT), RULE_ONE_DONE, NO_OP},
    {"MPI_Waitall", ROLE(POINT2POINT), RULE_DONE, NO_OP},
    {"MPI_Waitsome", ROLE(POINT2POINT), RULE_DONE, NO_OP},
    {"MPI_Test", ROLE(POINT2POINT), RULE_ONE_TEST, NO_OP},
    {"MPI_Testany", ROLE(POINT2POINT), RULE_DONE, NO_OP},
    {"MPI_Testall", ROLE(POINT2POINT), RULE_DONE, NO_OP},
    {"MPI_Testsome", ROLE(POINT2POINT), RULE_DONE, NO_OP},
    {"MPI_Barrier", ROLE(BARRIER), RULE_COLLECTIVE, OP(BARRIER)},
    {"MPI_Bcast", ROLE(COLL_ONE2ALL), RULE_COLLECTIVE, OP(BCAST)},
    {"MPI_Scatter", ROLE(COLL_ONE2ALL), RULE_COLLECTIVE, OP(SCATTER)},
    {"MPI_Scatterv", ROLE(COLL_ONE2ALL), RULE_COLLECTIVE, OP(SCATTERV)},
    {"MPI_Gather", ROLE(COLL_ALL2ONE), RULE_COLLECTIVE, OP(GATHER)},
    {"MPI_Gatherv", ROLE(COLL_ALL2ONE), RULE_COLLECTIVE, OP(GATHERV)},
    {"MPI_Reduce", ROLE(COLL_ALL2ONE), RULE_COLLECTIVE, OP(REDUCE)},
    {"MPI_Allgather", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(ALLGATHER)},
    {"MPI_Allgatherv", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(ALLGATHERV)},
    {"MPI_Alltoall", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(ALLTOALL)},
    {"MPI_Alltoallv", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(ALLTOALLV)},
    {"MPI_Alltoallw", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(ALLTOALLW)},
    {"MPI_Allreduce", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(ALLREDUCE)},
    {"MPI_Reduce_scatter", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(REDUCE_SCATTER)},
    {"MPI_Reduce_scatter_block", ROLE(COLL_ALL2ALL), RULE_COLLECTIVE, OP(REDUCE_SCATTER_BLOCK)},
    {"MPI_Scan", ROLE(COLL_OTHER), RULE_COLLECTIVE, OP(SCAN)},
    {"MPI_Exscan", ROLE(COLL_OTHER), RULE_COLLECTIVE, OP(EXSCAN)},
    {"MPI_Init", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
    {"MPI_Init_thread", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
    {"MPI_Finalize", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
    {"MPI_Comm_dup", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
    {"MPI_Comm_split", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
    {"MPI_Comm_create", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
    {"MPI_Comm_group", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
    {"MPI_Comm_free", ROLE(FUNCTION), RULE_NOTHING, NO_OP},
};

static const struct region_rule *rule_of(const char *name)
{
    for (size_t i = 0; name != NULL && i < sizeof rules / sizeof rules[0]; i++) {
        if (strcmp(rules[i].name, name) == 0)
            return &rules[i];
    }
    return NULL;
}

int mpi_collective_op_of(const char *region_name)
{
    const struct region_rule *r = rule_of(region_name);
    return r != NULL ? r->op : NO_OP;
}

/* ---- definitions ---------------------------------------------------------- */

static void check_region_definitions(const mpi_ctx *ctx)
{
    for (size_t i = 0; i < ctx->t->region_count; i++) {
        const trace_region *r = &ctx->t->regions[i];
        bool file_mpi = r->source_file != NULL && strcmp(r->source_file, "MPI") == 0;
        if (r->paradigm != OTF2_PARADIGM_MPI) {
            if (file_mpi)
                mpi_fail("region \"%s\" has file \"MPI\" but is not of paradigm MPI",
                         r->name ? r->name : "");
            continue;
        }
        const char *name = r->name ? r->name : "";
        if (strncmp(name, "MPI_", 4) != 0)
            mpi_fail("MPI region \"%s\" is not named MPI_*", name);
        if (!file_mpi)
            mpi_fail("MPI region \"%s\" has source file \"%s\", expected \"MPI\"", name,
                     r->source_file ? r->source_file : "(none)");
        if (r->canonical_name == NULL || strcmp(r->canonical_name, name) != 0)
            mpi_fail("MPI region \"%s\" has canonical name \"%s\"", name,
                     r->canonical_name ? r->canonical_name : "(none)");
        const struct region_rule *rr = rule_of(name);
        if (rr != NULL && rr->role != NO_ROLE)
            MPI_CHECK_EQ(r->role, rr->role, "role of %s", name);
    }
}

/* ---- expected calls ------------------------------------------------------- */

void mpi_expect(mpi_expected_calls *x, const char *name, uint64_t calls)
{
    for (size_t i = 0; i < x->count; i++) {
        if (strcmp(x->item[i].name, name) == 0) {
            x->item[i].calls += calls;
            return;
        }
    }
    if (x->count == MPI_EXPECT_MAX) {
        mpi_fail("checker bug: too many expected regions");
        return;
    }
    x->item[x->count].name = name;
    x->item[x->count++].calls = calls;
}

void mpi_check_calls(const mpi_ctx *ctx, const trace_location_stats *loc,
                     const mpi_expected_calls *x)
{
    const char *label = mpi_loc_label(loc);
    for (size_t i = 0; i < x->count; i++) {
        const trace_region *r = trace_region_by_name(ctx->t, x->item[i].name);
        if (r == NULL) {
            if (x->item[i].calls > 0)
                mpi_fail("no region \"%s\" (expected %" PRIu64 " calls on %s)", x->item[i].name,
                         x->item[i].calls, label);
            continue;
        }
        if (r->paradigm != OTF2_PARADIGM_MPI)
            mpi_fail("region \"%s\" is not of paradigm MPI", r->name);
        MPI_CHECK_EQ(trace_enter_count(loc, r->id), x->item[i].calls, "calls of %s on %s",
                     x->item[i].name, label);
    }
    for (size_t i = 0; i < ctx->t->region_count; i++) {
        const trace_region *r = &ctx->t->regions[i];
        if (r->paradigm != OTF2_PARADIGM_MPI || trace_enter_count(loc, r->id) == 0)
            continue;
        bool expected = false;
        for (size_t k = 0; k < x->count && !expected; k++)
            expected = r->name != NULL && strcmp(r->name, x->item[k].name) == 0;
        if (!expected)
            mpi_fail("%s enters %s %" PRIu64 " times; the program never calls it there", label,
                     r->name ? r->name : "(unnamed)", trace_enter_count(loc, r->id));
    }
}

/* ---- what one region instance holds ------------------------------------- */

static bool is_mpi_record(trace_event_kind kind)
{
    return kind >= TRACE_EVENT_MPI_SEND && kind <= TRACE_EVENT_MPI_COLLECTIVE_END;
}

typedef struct instance {
    uint64_t n[TRACE_EVENT_KIND_COUNT];
    bool end_before_begin;
} instance;

static uint64_t total_except(const instance *in, const trace_event_kind *allowed, size_t count)
{
    uint64_t other = 0;
    for (int k = TRACE_EVENT_MPI_SEND; k <= TRACE_EVENT_MPI_COLLECTIVE_END; k++) {
        bool ok = false;
        for (size_t a = 0; a < count && !ok; a++)
            ok = allowed[a] == (trace_event_kind)k;
        if (!ok)
            other += in->n[k];
    }
    return other;
}

/* Reports what an instance of `name` holds that its rule forbids. */
static void check_instance(const char *name, const instance *in, const char *where)
{
    const struct region_rule *rr = rule_of(name);
    rule rl = rr != NULL ? rr->rule : RULE_NOTHING;
    const uint64_t *n = in->n;
    uint64_t done = n[TRACE_EVENT_MPI_ISEND_COMPLETE] + n[TRACE_EVENT_MPI_IRECV] +
                    n[TRACE_EVENT_MPI_REQUEST_CANCELLED];
    static const trace_event_kind completions[] = {
        TRACE_EVENT_MPI_ISEND_COMPLETE, TRACE_EVENT_MPI_IRECV, TRACE_EVENT_MPI_REQUEST_CANCELLED,
        TRACE_EVENT_MPI_REQUEST_TEST};
    static const trace_event_kind starts[] = {TRACE_EVENT_MPI_ISEND, TRACE_EVENT_MPI_IRECV_REQUEST};
    static const trace_event_kind sendrecv[] = {TRACE_EVENT_MPI_SEND, TRACE_EVENT_MPI_RECV};
    static const trace_event_kind coll[] = {TRACE_EVENT_MPI_COLLECTIVE_BEGIN,
                                            TRACE_EVENT_MPI_COLLECTIVE_END};
    bool ok = true;
    switch (rl) {
    case RULE_NOTHING:
        ok = total_except(in, NULL, 0) == 0;
        break;
    case RULE_SEND:
        ok = n[TRACE_EVENT_MPI_SEND] == 1 && total_except(in, sendrecv, 1) == 0;
        break;
    case RULE_RECV:
        ok = n[TRACE_EVENT_MPI_RECV] == 1 && total_except(in, sendrecv + 1, 1) == 0;
        break;
    case RULE_SENDRECV:
        ok = n[TRACE_EVENT_MPI_SEND] == 1 && n[TRACE_EVENT_MPI_RECV] == 1 &&
             total_except(in, sendrecv, 2) == 0;
        break;
    case RULE_ISEND:
        ok = n[TRACE_EVENT_MPI_ISEND] == 1 && total_except(in, starts, 1) == 0;
        break;
    case RULE_IRECV:
        ok = n[TRACE_EVENT_MPI_IRECV_REQUEST] == 1 && total_except(in, starts + 1, 1) == 0;
        break;
    case RULE_START:
        ok = n[TRACE_EVENT_MPI_ISEND] + n[TRACE_EVENT_MPI_IRECV_REQUEST] == 1 &&
             total_except(in, starts, 2) == 0;
        break;
    case RULE_STARTALL:
        ok = n[TRACE_EVENT_MPI_ISEND] + n[TRACE_EVENT_MPI_IRECV_REQUEST] >= 1 &&
             total_except(in, starts, 2) == 0;
        break;
    case RULE_ONE_DONE:
        ok = done <= 1 && total_except(in, completions, 3) == 0;
        break;
    case RULE_ONE_TEST:
        ok = done + n[TRACE_EVENT_MPI_REQUEST_TEST] <= 1 && total_except(in, completions, 4) == 0;
        break;
    case RULE_DONE:
        ok = total_except(in, completions, 4) == 0;
        break;
    case RULE_COLLECTIVE:
        ok = n[TRACE_EVENT_MPI_COLLECTIVE_BEGIN] == 1 && n[TRACE_EVENT_MPI_COLLECTIVE_END] == 1 &&
             !in->end_before_begin && total_except(in, coll, 2) == 0;
        break;
    }
    if (ok)
        return;
    char held[512] = "";
    size_t len = 0;
    for (int k = TRACE_EVENT_MPI_SEND; k <= TRACE_EVENT_MPI_COLLECTIVE_END; k++) {
        if (n[k] && len < sizeof held)
            len += (size_t)snprintf(held + len, sizeof held - len, " %s x%" PRIu64,
                                    trace_event_kind_name((trace_event_kind)k), n[k]);
    }
    mpi_fail("%s %s holds%s%s", where, name, len ? held : " no MPI record",
             in->end_before_begin ? " (CollectiveEnd before Begin)" : "");
}

/* ---- communicators and requests ----------------------------------------- */

static void check_event_comm(const mpi_ctx *ctx, const trace_location_stats *loc,
                             const trace_event *ev, size_t e)
{
    bool p2p = ev->kind == TRACE_EVENT_MPI_SEND || ev->kind == TRACE_EVENT_MPI_RECV ||
               ev->kind == TRACE_EVENT_MPI_ISEND || ev->kind == TRACE_EVENT_MPI_IRECV;
    if (!p2p && ev->kind != TRACE_EVENT_MPI_COLLECTIVE_END)
        return;
    mpi_comm_view view;
    if (!mpi_comm_view_of(ctx, ev->comm, mpi_loc_rank(loc), &view)) {
        mpi_fail("%s event %zu (%s) names comm %" PRIu32 ", which is not a defined MPI comm",
                 mpi_loc_label(loc), e + 1, trace_event_kind_name(ev->kind), ev->comm);
        return;
    }
    if (mpi_view_rank_of(&view, mpi_loc_rank(loc)) == UINT32_MAX)
        mpi_fail("%s event %zu (%s) on comm %" PRIu32 ", which does not hold its rank",
                 mpi_loc_label(loc), e + 1, trace_event_kind_name(ev->kind), ev->comm);
    if (p2p && ev->peer >= view.count)
        mpi_fail("%s event %zu (%s): peer %" PRIu32 " is not a rank of comm %" PRIu32 " (%" PRIu32
                 " members)",
                 mpi_loc_label(loc), e + 1, trace_event_kind_name(ev->kind), ev->peer, ev->comm,
                 view.count);
}

/* Request ids of one location: every id ever started, and whether it is
 * still open (0 no, 1 send, 2 receive). */
typedef struct requests {
    uint64_t *id;
    unsigned char *open;
    size_t count, cap;
} requests;

static size_t request_find(const requests *rq, uint64_t id)
{
    for (size_t i = rq->count; i-- > 0;) {
        if (rq->id[i] == id)
            return i;
    }
    return SIZE_MAX;
}

static void request_event(requests *rq, const trace_location_stats *loc, const trace_event *ev,
                          size_t e)
{
    const char *label = mpi_loc_label(loc);
    const char *kind = trace_event_kind_name(ev->kind);
    size_t at = request_find(rq, ev->request_id);
    if (ev->kind == TRACE_EVENT_MPI_ISEND || ev->kind == TRACE_EVENT_MPI_IRECV_REQUEST) {
        if (at != SIZE_MAX) {
            mpi_fail("%s event %zu: %s reuses request id %" PRIu64 " (ids must be fresh)", label,
                     e + 1, kind, ev->request_id);
            rq->open[at] = ev->kind == TRACE_EVENT_MPI_ISEND ? 1 : 2;
            return;
        }
        if (rq->count == rq->cap) {
            rq->cap = rq->cap ? rq->cap * 2 : 64;
            rq->id = realloc(rq->id, rq->cap * sizeof *rq->id);
            rq->open = realloc(rq->open, rq->cap);
            if (rq->id == NULL || rq->open == NULL) {
                mpi_fail("out of memory");
                exit(1);
            }
        }
        rq->id[rq->count] = ev->request_id;
        rq->open[rq->count++] = ev->kind == TRACE_EVENT_MPI_ISEND ? 1 : 2;
        return;
    }
    unsigned char want = ev->kind == TRACE_EVENT_MPI_ISEND_COMPLETE ? 1
                         : ev->kind == TRACE_EVENT_MPI_IRECV        ? 2
                                                                    : 0;
    if (at == SIZE_MAX || rq->open[at] == 0 || (want && rq->open[at] != want)) {
        mpi_fail("%s event %zu: %s of request %" PRIu64 ", which is not an open %s", label, e + 1,
                 kind, ev->request_id,
                 want == 1   ? "Isend"
                 : want == 2 ? "IrecvRequest"
                             : "request");
        return;
    }
    if (ev->kind != TRACE_EVENT_MPI_REQUEST_TEST)
        rq->open[at] = 0;
}

static void check_requests_closed(const requests *rq, const trace_location_stats *loc)
{
    for (size_t i = 0; i < rq->count; i++) {
        if (rq->open[i])
            mpi_fail("%s: %s request %" PRIu64 " never completed", mpi_loc_label(loc),
                     rq->open[i] == 1 ? "Isend" : "IrecvRequest", rq->id[i]);
    }
}

/* ---- the walk over one location ----------------------------------------- */

static void check_location(const mpi_ctx *ctx, size_t index)
{
    const trace_location_stats *loc = &ctx->t->locations[index];
    const mpi_location_index *ix = &ctx->loc[index];
    requests rq = {0};
    instance in;
    int64_t current = -1;
    for (size_t e = 0; e < loc->event_list_len; e++) {
        const trace_event *ev = &loc->events[e];
        if (ev->kind == TRACE_EVENT_ENTER && mpi_region_is_mpi(ctx, ev->region)) {
            if (ix->enclosing[e] >= 0)
                mpi_fail("%s event %zu: %s entered inside %s", mpi_loc_label(loc), e + 1,
                         mpi_region_name(ctx, ev->region),
                         mpi_region_name(ctx, loc->events[ix->enclosing[e]].region));
            else {
                current = (int64_t)e;
                memset(&in, 0, sizeof in);
            }
            continue;
        }
        if (ev->kind == TRACE_EVENT_LEAVE && current >= 0 && ix->leave_of[current] == (int64_t)e) {
            char where[96];
            snprintf(where, sizeof where, "%s event %zu:", mpi_loc_label(loc), (size_t)current + 1);
            check_instance(mpi_region_name(ctx, ev->region), &in, where);
            current = -1;
            continue;
        }
        if (!is_mpi_record(ev->kind))
            continue;
        if (ix->enclosing[e] < 0) {
            mpi_fail("%s event %zu: %s outside any MPI region", mpi_loc_label(loc), e + 1,
                     trace_event_kind_name(ev->kind));
        } else if (ix->enclosing[e] == current) {
            in.n[ev->kind]++;
            if (ev->kind == TRACE_EVENT_MPI_COLLECTIVE_END &&
                in.n[TRACE_EVENT_MPI_COLLECTIVE_BEGIN] == 0)
                in.end_before_begin = true;
        }
        check_event_comm(ctx, loc, ev, e);
        if (ev->kind != TRACE_EVENT_MPI_SEND && ev->kind != TRACE_EVENT_MPI_RECV &&
            ev->kind != TRACE_EVENT_MPI_COLLECTIVE_BEGIN &&
            ev->kind != TRACE_EVENT_MPI_COLLECTIVE_END)
            request_event(&rq, loc, ev, e);
    }
    check_requests_closed(&rq, loc);
    free(rq.id);
    free(rq.open);
}

void mpi_check_mpi_events(const mpi_ctx *ctx)
{
    check_region_definitions(ctx);
    for (size_t i = 0; i < ctx->t->location_count; i++)
        check_location(ctx, i);
}

uint64_t mpi_events_in(const mpi_ctx *ctx, const trace_location_stats *loc, const char *name,
                       trace_event_kind kind, uint64_t *instances)
{
    const trace_region *r = trace_region_by_name(ctx->t, name);
    size_t index = (size_t)(loc - ctx->t->locations);
    uint64_t count = 0;
    if (instances != NULL)
        *instances = r != NULL ? trace_enter_count(loc, r->id) : 0;
    if (r == NULL)
        return 0;
    const mpi_location_index *ix = &ctx->loc[index];
    for (size_t e = 0; e < loc->event_list_len; e++) {
        int64_t enter = ix->enclosing[e];
        if (loc->events[e].kind == kind && enter >= 0 && loc->events[enter].region == r->id)
            count++;
    }
    return count;
}
/* SPDX-License-Identifier: BSD-3-Clause */
