/* SPDX-License-Identifier: BSD-3-Clause */
/* EPILOG events into the generic model's events (convert_epilog.h):
 * decoding, the first pass (team sizes), and the conversion, following the
 * mapping of docs/dev/LEGACY-FORMATS.md section 1.6. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_common.h"
#include "convert_epilog.h"
#include "weft/recorder.h"

/* ---- decoding ---------------------------------------------------------- */

/* Body bytes after the location and the time, by event type. */
static int rest_size(const elg_convert *c, uint8_t type)
{
    int metrics = 8 * (int)c->defs.metric_count;
    switch (type) {
    case ELG_ENTER:
    case ELG_ENTER_CS:
        return 4 + metrics;
    case ELG_EXIT:
    case ELG_OMP_COLLEXIT:
    case ELG_LOG_OFF:
    case ELG_LOG_ON:
    case ELG_ENTER_TRACING:
    case ELG_EXIT_TRACING:
        return metrics;
    case ELG_MPI_SEND:
        return 16;
    case ELG_MPI_RECV:
        return 12;
    case ELG_MPI_COLLEXIT:
        return metrics + 16;
    case ELG_OMP_FORK:
    case ELG_OMP_JOIN:
        return 0;
    case ELG_OMP_ALOCK:
    case ELG_OMP_RLOCK:
        return 4;
    default:
        return -1;
    }
}

static int damaged(elg_convert *c, const epilog_record *rec, const char *what)
{
    snprintf(c->err, sizeof(c->err), "record at byte %llu (type %u, %u bytes): %s",
             (unsigned long long)rec->offset, rec->type, rec->length, what);
    return -1;
}

static void read_metrics(elg_convert *c, epilog_fields *f, elg_event *e)
{
    e->has_metrics = c->defs.metric_count > 0;
    for (uint32_t i = 0; i < c->defs.metric_count; i++)
        e->metrics[i] = weft__epilog_u8(f);
}

int weft__elg_decode_event(elg_convert *c, const epilog_record *rec, elg_event *e)
{
    int status = weft__elg_decode_raw(c, rec, e);
    return status ? status : weft__elg_check_references(c, rec, e);
}

int weft__elg_decode_raw(elg_convert *c, const epilog_record *rec, elg_event *e)
{
    memset(e, 0, sizeof(*e));
    e->type = rec->type;
    int rest = rest_size(c, rec->type);
    if (rest < 0)
        return 1; /* not an event weft converts: skipped by the caller */
    epilog_fields f = weft__epilog_fields_of(c->reader, rec);
    /* The location is there only in files of several locations. */
    if (rec->length == 12 + rest) {
        e->lid = weft__epilog_u4(&f);
    } else if (rec->length == 8 + rest) {
        e->lid = 0;
    } else {
        char what[128];
        snprintf(what, sizeof(what), "expected %d or %d bytes for this event", 8 + rest, 12 + rest);
        return damaged(c, rec, what);
    }
    e->time = weft__epilog_d8(&f);
    switch (rec->type) {
    case ELG_ENTER:
        e->region = weft__epilog_u4(&f);
        read_metrics(c, &f, e);
        break;
    case ELG_ENTER_CS:
        e->region = weft__epilog_u4(&f); /* the call site, resolved by weft__elg_check_references */
        read_metrics(c, &f, e);
        break;
    case ELG_MPI_SEND:
        e->peer = weft__epilog_u4(&f);
        e->comm = weft__epilog_u4(&f);
        e->tag = weft__epilog_u4(&f);
        e->bytes = weft__epilog_u4(&f);
        break;
    case ELG_MPI_RECV:
        e->peer = weft__epilog_u4(&f);
        e->comm = weft__epilog_u4(&f);
        e->tag = weft__epilog_u4(&f);
        break;
    case ELG_MPI_COLLEXIT:
        read_metrics(c, &f, e);
        e->root = weft__epilog_u4(&f);
        e->comm = weft__epilog_u4(&f);
        e->sent = weft__epilog_u4(&f);
        e->received = weft__epilog_u4(&f);
        break;
    case ELG_OMP_ALOCK:
    case ELG_OMP_RLOCK:
        e->lock = weft__epilog_u4(&f);
        break;
    case ELG_OMP_FORK:
    case ELG_OMP_JOIN:
        break;
    default:
        read_metrics(c, &f, e);
        break;
    }
    if (!f.ok)
        return damaged(c, rec, "cut short");
    if (!isfinite(e->time))
        return damaged(c, rec, "a time that is not a number");
    return 0;
}

static bool location_defined(const elg_convert *c, uint32_t lid)
{
    return lid < c->defs.location_count && c->defs.locations[lid].defined;
}

static bool comm_defined(const elg_convert *c, uint32_t comm)
{
    return comm < c->defs.comm_count && c->defs.comms[comm].defined;
}

/* What an event refers to must be defined, so that the first pass finds
 * every damage before anything is written. An ENTER_CS becomes the ENTER of
 * its call site's region. */
int weft__elg_check_references(elg_convert *c, const epilog_record *rec, elg_event *e)
{
    if (e->type == ELG_ENTER_CS) {
        uint32_t site = e->region;
        if (site >= c->defs.call_site_count || !c->defs.call_sites[site])
            return damaged(c, rec, "an undefined call site");
        e->region = c->defs.call_sites[site] - 1;
        e->type = ELG_ENTER;
    }
    if (!location_defined(c, e->lid))
        return damaged(c, rec, "an event of an undefined location");
    if (e->type == ELG_ENTER &&
        (e->region >= c->defs.region_count || !c->defs.regions[e->region].defined))
        return damaged(c, rec, "an ENTER of an undefined region");
    if ((e->type == ELG_MPI_SEND || e->type == ELG_MPI_RECV) &&
        (!comm_defined(c, e->comm) || (!e->peers_are_ranks && !location_defined(c, e->peer))))
        return damaged(c, rec, "a message with an undefined communicator or peer");
    if (e->type == ELG_MPI_COLLEXIT &&
        (!comm_defined(c, e->comm) ||
         (e->root != ELG_NO_ID && !e->peers_are_ranks && !location_defined(c, e->root))))
        return damaged(c, rec, "a collective with an undefined communicator or root");
    return 0;
}

/* ---- first pass: team sizes ---------------------------------------------- */

static elg_process_state *process_of(elg_convert *c, uint32_t lid)
{
    return &c->processes[c->defs.locations[lid].process];
}

int weft__elg_count_event(elg_convert *c, const elg_event *e)
{
    elg_process_state *p = process_of(c, e->lid);
    uint32_t thread = c->defs.locations[e->lid].thread;
    if (e->type == ELG_OMP_FORK) {
        weft__convert_teams_fork(&p->teams);
    } else if (e->type == ELG_OMP_JOIN) {
        if (!weft__convert_teams_join(&p->teams)) {
            snprintf(c->err, sizeof(c->err), "out of memory");
            return -1;
        }
    } else if (e->type == ELG_ENTER && e->region < c->defs.region_count &&
               c->defs.regions[e->region].type == 11 /* OMP_PARALLEL */) {
        weft__convert_teams_enter(&p->teams, thread);
    }
    return 0;
}

/* ---- second pass ------------------------------------------------------------ */

static uint64_t ticks(double seconds)
{
    return seconds <= 0 ? 0 : (uint64_t)llround(seconds * ELG_TICKS_PER_SECOND);
}

static int emit(elg_convert *c, elg_location_state *ls, weft_event *e)
{
    if (weft__convert_emit(&c->out, &ls->lane, e))
        return 0;
    snprintf(c->err, sizeof(c->err), "the OTF2 library refused an event (see above)");
    return -1;
}

static int emit_metrics(elg_convert *c, elg_location_state *ls, const elg_event *src, uint64_t time)
{
    if (!src->has_metrics || c->metric.id == WEFT_INVALID_ID)
        return 0;
    weft_event m = {.kind = WEFT_EVENT_METRIC,
                    .time = time,
                    .ref = c->metric.id,
                    .value_count = c->defs.metric_count,
                    .values = src->metrics};
    return emit(c, ls, &m);
}

static bool is_mpi_collective(const elg_convert *c, uint32_t region)
{
    uint8_t type = region < c->defs.region_count ? c->defs.regions[region].type : 0;
    return type >= 4 && type <= 8;
}

static int enter(elg_convert *c, elg_location_state *ls, const elg_event *src, uint64_t time)
{
    elg_process_state *p = &c->processes[ls->process];
    uint32_t entry = src->region;
    if (c->defs.regions[src->region].type == 11 && p->teams.in_fork &&
        p->teams.team.id != WEFT_INVALID_ID) {
        weft_event team = {.kind = WEFT_EVENT_THREAD_TEAM_BEGIN,
                           .time = time,
                           .ref = p->teams.team.id,
                           .a = ls->thread};
        if (emit(c, ls, &team))
            return -1;
        entry |= CONVERT_TEAM_BIT;
    }
    if (!weft__convert_push(&ls->lane, entry)) {
        snprintf(c->err, sizeof(c->err), "out of memory");
        return -1;
    }
    weft_event e = {.kind = WEFT_EVENT_ENTER, .time = time, .ref = c->regions[src->region].id};
    if (emit_metrics(c, ls, src, time) || emit(c, ls, &e))
        return -1;
    if (is_mpi_collective(c, src->region)) {
        weft_event begin = {.kind = WEFT_EVENT_MPI_COLLECTIVE_BEGIN, .time = time};
        return emit(c, ls, &begin);
    }
    return 0;
}

/* Leaves the innermost region, and the team it began. */
static int leave(elg_convert *c, elg_location_state *ls, const elg_event *src, uint64_t time)
{
    if (ls->lane.depth == 0) {
        c->exits_without_enter++;
        return 0;
    }
    uint32_t entry = ls->lane.stack[--ls->lane.depth];
    uint32_t region = entry & ~CONVERT_TEAM_BIT;
    weft_event e = {.kind = WEFT_EVENT_LEAVE, .time = time, .ref = c->regions[region].id};
    if ((src && emit_metrics(c, ls, src, time)) || emit(c, ls, &e))
        return -1;
    if (entry & CONVERT_TEAM_BIT) {
        elg_process_state *p = &c->processes[ls->process];
        weft_event team = {
            .kind = WEFT_EVENT_THREAD_TEAM_END, .time = time, .ref = p->teams.team.id};
        return emit(c, ls, &team);
    }
    return 0;
}

/* The position of a location's process in an EPILOG communicator, or -1. */
static int64_t rank_in(const elg_convert *c, uint32_t comm, uint32_t lid)
{
    if (comm >= c->defs.comm_count || !c->defs.comms[comm].defined ||
        lid >= c->defs.location_count || !c->defs.locations[lid].defined)
        return -1;
    const elg_comm *m = &c->defs.comms[comm];
    if (m->self)
        return 0; /* MPI_COMM_SELF: every rank is rank 0 in its own */
    uint32_t rank = c->defs.locations[lid].process;
    for (uint32_t i = 0; i < m->size; i++) {
        if (m->ranks[i] == rank)
            return i;
    }
    return -1;
}

static int collective_exit(elg_convert *c, elg_location_state *ls, const elg_event *src,
                           uint64_t time)
{
    uint32_t region =
        ls->lane.depth ? ls->lane.stack[ls->lane.depth - 1] & ~CONVERT_TEAM_BIT : ELG_NO_ID;
    const char *name =
        region != ELG_NO_ID ? weft__elg_string(&c->defs, c->defs.regions[region].name) : NULL;
    int op = weft__convert_collective_op(name);
    int64_t root = src->root == ELG_NO_ID ? -2
                   : src->peers_are_ranks ? (int64_t)src->root
                                          : rank_in(c, src->comm, src->root);
    if (op < 0 || src->comm >= c->defs.comm_count || root == -1) {
        c->collectives_unknown++;
    } else {
        weft_event end = {.kind = WEFT_EVENT_MPI_COLLECTIVE_END,
                          .time = time,
                          .small = (uint8_t)op,
                          .ref = c->comms[src->comm].id,
                          .a = root < 0 ? WEFT_NO_ROOT : (uint32_t)root,
                          .bytes = src->sent,
                          .bytes_received = src->received};
        if (emit(c, ls, &end))
            return -1;
    }
    return leave(c, ls, src, time);
}

/* ---- messages ---------------------------------------------------------------- */

static int message(elg_convert *c, elg_location_state *ls, const elg_event *src, uint64_t time)
{
    bool send = src->type == ELG_MPI_SEND;
    int64_t peer = src->peers_are_ranks ? (int64_t)src->peer : rank_in(c, src->comm, src->peer);
    int64_t self = rank_in(c, src->comm, src->lid);
    if (peer < 0 || self < 0) {
        snprintf(c->err, sizeof(c->err),
                 "a message on communicator %u between locations %u "
                 "and %u, which are not both in it",
                 src->comm, src->lid, src->peer);
        return -1;
    }
    uint64_t bytes = src->bytes;
    if (send && !weft__convert_channel_send(c->channels, (uint32_t)self, (uint32_t)peer, src->comm,
                                            src->tag, src->bytes)) {
        snprintf(c->err, sizeof(c->err), "out of memory");
        return -1;
    }
    /* The receive's size is its send's: sends come first in a merged trace,
     * as they started first. */
    if (!send && !weft__convert_channel_receive(c->channels, (uint32_t)peer, (uint32_t)self,
                                                src->comm, src->tag, &bytes)) {
        bytes = 0;
        c->receives_without_size++;
    }
    weft_event e = {.kind = send ? WEFT_EVENT_MPI_SEND : WEFT_EVENT_MPI_RECV,
                    .time = time,
                    .ref = c->comms[src->comm].id,
                    .a = (uint32_t)peer,
                    .b = src->tag,
                    .bytes = bytes};
    return emit(c, ls, &e);
}

/* ---- locks: acquisition order per lock ----------------------------------------- */

typedef struct elg_lock {
    uint32_t process, lock, order;
} elg_lock;

static elg_lock *lock_of(elg_convert *c, uint32_t process, uint32_t lock)
{
    for (uint32_t i = 0; i < c->lock_count; i++) {
        if (c->locks[i].process == process && c->locks[i].lock == lock)
            return &c->locks[i];
    }
    elg_lock *more = realloc(c->locks, (c->lock_count + 1) * sizeof(*more));
    if (!more)
        return NULL;
    c->locks = more;
    c->locks[c->lock_count] = (elg_lock){process, lock, 0};
    return &c->locks[c->lock_count++];
}

static int lock_event(elg_convert *c, elg_location_state *ls, const elg_event *src, uint64_t time)
{
    elg_lock *l = lock_of(c, ls->process, src->lock);
    if (!l) {
        snprintf(c->err, sizeof(c->err), "out of memory");
        return -1;
    }
    bool acquire = src->type == ELG_OMP_ALOCK;
    if (acquire)
        l->order++;
    weft_event e = {.kind = acquire ? WEFT_EVENT_LOCK_ACQUIRE : WEFT_EVENT_LOCK_RELEASE,
                    .time = time,
                    .small = WEFT_PARADIGM_OPENMP,
                    .ref = src->lock,
                    .a = l->order};
    return emit(c, ls, &e);
}

/* ---- the conversion of one event ------------------------------------------------- */

static int fork_join(elg_convert *c, elg_location_state *ls, const elg_event *src, uint64_t time)
{
    elg_process_state *p = &c->processes[ls->process];
    weft_event e = {.kind = WEFT_EVENT_THREAD_JOIN, .time = time, .small = WEFT_PARADIGM_OPENMP};
    if (src->type == ELG_OMP_FORK) {
        uint32_t size = weft__convert_teams_begin(&p->teams, c->reg, ls->process);
        for (uint32_t t = 0;
             p->teams.team.id != WEFT_INVALID_ID && t < size && t < p->teams.thread_count; t++)
            weft_registry_comm_set_member(c->reg, p->teams.team, t, p->threads[t].id);
        e = (weft_event){.kind = WEFT_EVENT_THREAD_FORK,
                         .time = time,
                         .small = WEFT_PARADIGM_OPENMP,
                         .ref = size};
    } else {
        p->teams.in_fork = false;
    }
    return emit(c, ls, &e);
}

int weft__elg_convert_event(elg_convert *c, const elg_event *src)
{
    elg_location_state *ls = &c->locations[src->lid];
    uint64_t time = ticks(src->time);
    switch (src->type) {
    case ELG_ENTER:
        return enter(c, ls, src, time);
    case ELG_EXIT:
    case ELG_OMP_COLLEXIT:
        return leave(c, ls, src, time);
    case ELG_MPI_COLLEXIT:
        return collective_exit(c, ls, src, time);
    case ELG_MPI_SEND:
    case ELG_MPI_RECV:
        return message(c, ls, src, time);
    case ELG_OMP_FORK:
    case ELG_OMP_JOIN:
        return fork_join(c, ls, src, time);
    case ELG_OMP_ALOCK:
    case ELG_OMP_RLOCK:
        return lock_event(c, ls, src, time);
    case ELG_LOG_OFF:
    case ELG_LOG_ON: {
        weft_event e = {
            .kind = WEFT_EVENT_MEASUREMENT_ON_OFF, .time = time, .small = src->type == ELG_LOG_ON};
        return emit(c, ls, &e);
    }
    case ELG_ENTER_TRACING:
        ls->tracing_since = time;
        return 0;
    case ELG_EXIT_TRACING: {
        weft_event e = {.kind = WEFT_EVENT_BUFFER_FLUSH, .time = ls->tracing_since, .bytes = time};
        return emit(c, ls, &e);
    }
    default:
        return 0;
    }
}

int weft__elg_close_open_regions(elg_convert *c, uint64_t *closed)
{
    *closed = 0;
    for (uint32_t lid = 0; lid < c->defs.location_count; lid++) {
        elg_location_state *ls = &c->locations[lid];
        while (c->defs.locations[lid].defined && ls->lane.depth > 0) {
            if (leave(c, ls, NULL, ls->lane.last_time))
                return -1;
            (*closed)++;
        }
    }
    return 0;
}

void weft__elg_events_free(elg_convert *c)
{
    weft__convert_channels_free(c->channels);
    for (uint32_t lid = 0; c->locations && lid < c->defs.location_count; lid++)
        weft__convert_lane_free(&c->locations[lid].lane);
    for (uint32_t p = 0; c->processes && p < c->process_count; p++) {
        free(c->processes[p].threads);
        weft__convert_teams_free(&c->processes[p].teams);
    }
    free(c->processes);
    free(c->locations);
    free(c->regions);
    free(c->comms);
    free(c->locks);
}
