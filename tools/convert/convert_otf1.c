/* SPDX-License-Identifier: BSD-3-Clause */
/* OTF version 1 into OTF2; see convert_otf1.h. The OTF library reads the
 * definitions, then the events of all streams merged in time order. Two
 * passes over the events: the first counts the threads of every fork (a
 * master's "parallel region", which OTF1 writes instead of fork/join), the
 * second converts. Every thread is an OTF process: VampirTrace's threads
 * name their MPI process as parent, elg2otf's only belong to it by group
 * and name (convert_otf1_procs.c); MPI processes are ranked in the order
 * of their ids. OTF1 has no lock events. */
#include "convert_otf1.h"

#include <otf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_otf1_internal.h"
#include "escape.h"
#include "progress.h"
#include "weft/recorder.h"
#include "weft/trace_writer.h"

/* ---- events --------------------------------------------------------------------- */

static int fail(otf_convert *c, const char *fmt, uint64_t time, uint32_t process)
{
    if (!c->failed)
        snprintf(c->err, sizeof(c->err), fmt, (unsigned long long)time, process);
    c->failed = true;
    return OTF_RETURN_ABORT;
}

static int emit(otf_convert *c, otf_proc *p, weft_event *e)
{
    if (weft__convert_emit(&c->out, &p->lane, e))
        return OTF_RETURN_OK;
    c->failed = true;
    snprintf(c->err, sizeof(c->err), "the OTF2 library refused an event (see above)");
    return OTF_RETURN_ABORT;
}

static otf_proc *proc_of(otf_convert *c, uint32_t process, uint64_t time)
{
    otf_proc *p = weft__otf1_table_find(&c->procs, process);
    if (!p)
        fail(c, "an event at time %llu of the undefined process %u", time, process);
    return p;
}

static int on_enter(void *data, uint64_t time, uint32_t function, uint32_t process, uint32_t source,
                    OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    otf_convert *c = data;
    otf_proc *p = proc_of(c, process, time);
    otf_func *f = weft__otf1_table_find(&c->funcs, function);
    if (!p)
        return OTF_RETURN_ABORT;
    if (!f)
        return fail(c, "an enter at time %llu (process %u) of an undefined function", time,
                    process);
    otf_proc *m = p->master;
    if (!c->second_pass) { /* count the threads that enter a parallel region in a fork */
        if (f->kind == KIND_FORK && p == m)
            weft__convert_teams_fork(&m->teams);
        else if (f->role == WEFT_REGION_ROLE_PARALLEL && f->kind == KIND_REGION)
            weft__convert_teams_enter(&m->teams, p->thread);
        if (!weft__convert_push(&p->lane, f->kind == KIND_FORK ? FORK_ENTRY : function))
            return fail(c, "out of memory at time %llu (process %u)", time, process);
        return OTF_RETURN_OK;
    }
    if (f->kind == KIND_IDLE)
        return weft__convert_push(&p->lane, IDLE_ENTRY)
                   ? OTF_RETURN_OK
                   : fail(c, "out of memory at %llu (%u)", time, process);
    if (f->kind == KIND_FORK) {
        uint32_t size = weft__convert_teams_begin(&m->teams, c->reg, m->rank);
        otf_proc *procs = c->procs.items;
        for (uint32_t i = 0; m->teams.team.id != WEFT_INVALID_ID && i < c->procs.count; i++) {
            if (procs[i].master == m && procs[i].thread < size)
                weft_registry_comm_set_member(c->reg, m->teams.team, procs[i].thread,
                                              procs[i].lane.loc.id);
        }
        weft_event e = {.kind = WEFT_EVENT_THREAD_FORK,
                        .time = time,
                        .small = WEFT_PARADIGM_OPENMP,
                        .ref = size};
        return weft__convert_push(&p->lane, FORK_ENTRY)
                   ? emit(c, p, &e)
                   : fail(c, "out of memory at %llu (%u)", time, process);
    }
    uint32_t entry = function;
    if (f->role == WEFT_REGION_ROLE_PARALLEL && m->teams.in_fork &&
        m->teams.team.id != WEFT_INVALID_ID) {
        weft_event team = {.kind = WEFT_EVENT_THREAD_TEAM_BEGIN,
                           .time = time,
                           .ref = m->teams.team.id,
                           .a = p->thread};
        if (emit(c, p, &team))
            return OTF_RETURN_ABORT;
        entry |= CONVERT_TEAM_BIT;
    }
    if (!weft__convert_push(&p->lane, entry))
        return fail(c, "out of memory at time %llu (process %u)", time, process);
    weft_event e = {.kind = WEFT_EVENT_ENTER, .time = time, .ref = f->region.id};
    return emit(c, p, &e);
}

static int on_leave(void *data, uint64_t time, uint32_t function, uint32_t process, uint32_t source,
                    OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    otf_convert *c = data;
    otf_proc *p = proc_of(c, process, time);
    if (!p)
        return OTF_RETURN_ABORT;
    if (p->lane.depth == 0)
        return fail(c, "a leave at time %llu (process %u) with nothing entered", time, process);
    uint32_t entry = p->lane.stack[--p->lane.depth];
    otf_proc *m = p->master;
    if (!c->second_pass) {
        if (entry == FORK_ENTRY && p == m && !weft__convert_teams_join(&m->teams))
            return fail(c, "out of memory at time %llu (process %u)", time, process);
        return OTF_RETURN_OK;
    }
    (void)function; /* OTF1 leaves the innermost function, named or not (0) */
    if (entry == IDLE_ENTRY)
        return OTF_RETURN_OK;
    if (entry == FORK_ENTRY) {
        m->teams.in_fork = false;
        weft_event e = {
            .kind = WEFT_EVENT_THREAD_JOIN, .time = time, .small = WEFT_PARADIGM_OPENMP};
        return emit(c, p, &e);
    }
    const otf_func *f = weft__otf1_table_find(&c->funcs, entry & ~CONVERT_TEAM_BIT);
    weft_event e = {.kind = WEFT_EVENT_LEAVE, .time = time, .ref = f->region.id};
    if (emit(c, p, &e))
        return OTF_RETURN_ABORT;
    if (entry & CONVERT_TEAM_BIT) {
        weft_event team = {
            .kind = WEFT_EVENT_THREAD_TEAM_END, .time = time, .ref = m->teams.team.id};
        return emit(c, p, &team);
    }
    return OTF_RETURN_OK;
}

/* The position of process in group, or -1. */
static int64_t position_in(const otf_convert *c, const otf_group *g, uint32_t process)
{
    const otf_proc *p = weft__otf1_table_find(&c->procs, process);
    for (uint32_t i = 0; p && i < g->count; i++) {
        const otf_proc *member = weft__otf1_table_find(&c->procs, g->members[i]);
        if (member && member->rank == p->rank)
            return i;
    }
    return -1;
}

static int message(otf_convert *c, uint64_t time, uint32_t self_id, uint32_t peer_id,
                   uint32_t group, uint32_t tag, uint32_t length, bool send)
{
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, self_id, time);
    otf_group *g = weft__otf1_table_find(&c->groups, group);
    int64_t self = g ? position_in(c, g, self_id) : -1, peer = g ? position_in(c, g, peer_id) : -1;
    if (!p || self < 0 || peer < 0)
        return fail(c,
                    "a message at time %llu (process %u) in a group that does not hold both "
                    "ends",
                    time, self_id);
    uint64_t bytes = length;
    if (send && !weft__convert_channel_send(c->channels, (uint32_t)self, (uint32_t)peer, group, tag,
                                            length))
        return fail(c, "out of memory at time %llu (process %u)", time, self_id);
    /* elg2otf writes receives with length 0: the size is the send's */
    if (!send && length == 0 &&
        !weft__convert_channel_receive(c->channels, (uint32_t)peer, (uint32_t)self, group, tag,
                                       &bytes))
        c->receives_without_size++;
    else if (!send && length != 0)
        weft__convert_channel_receive(c->channels, (uint32_t)peer, (uint32_t)self, group, tag,
                                      &(uint64_t){0});
    weft_event e = {.kind = send ? WEFT_EVENT_MPI_SEND : WEFT_EVENT_MPI_RECV,
                    .time = time,
                    .ref = weft__otf1_comm_of(c, g).id,
                    .a = (uint32_t)peer,
                    .b = tag,
                    .bytes = bytes};
    return emit(c, p, &e);
}

static int on_send(void *data, uint64_t time, uint32_t sender, uint32_t receiver, uint32_t group,
                   uint32_t tag, uint32_t length, uint32_t source, OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    return message(data, time, sender, receiver, group, tag, length, true);
}

static int on_recv(void *data, uint64_t time, uint32_t receiver, uint32_t sender, uint32_t group,
                   uint32_t tag, uint32_t length, uint32_t source, OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    return message(data, time, receiver, sender, group, tag, length, false);
}

/* A collective inside an MPI function: its begin and end. */
static int collective(otf_convert *c, otf_proc *p, uint64_t begin, uint64_t end, uint32_t op_id,
                      uint32_t group, uint32_t root, uint64_t sent, uint64_t received)
{
    const otf_func *f =
        p->lane.depth
            ? weft__otf1_table_find(&c->funcs, p->lane.stack[p->lane.depth - 1] & ~CONVERT_TEAM_BIT)
            : NULL;
    otf_group *g = weft__otf1_table_find(&c->groups, group);
    int op = weft__convert_collective_op(weft__otf1_named(&c->collops, op_id));
    if (op < 0 && f)
        op = weft__convert_collective_op(f->name);
    int64_t root_rank = root ? (g ? position_in(c, g, root) : -1) : -2;
    if (!f || strncmp(f->name, "MPI_", 4) != 0 || !g || op < 0 || root_rank == -1) {
        c->collectives_dropped++; /* an OpenMP barrier's (elg2otf), or unknown */
        return OTF_RETURN_OK;
    }
    weft_event b = {.kind = WEFT_EVENT_MPI_COLLECTIVE_BEGIN, .time = begin};
    weft_event e = {.kind = WEFT_EVENT_MPI_COLLECTIVE_END,
                    .time = end,
                    .small = (uint8_t)op,
                    .ref = weft__otf1_comm_of(c, g).id,
                    .a = root_rank < 0 ? WEFT_NO_ROOT : (uint32_t)root_rank,
                    .bytes = sent,
                    .bytes_received = received};
    if (emit(c, p, &b))
        return OTF_RETURN_ABORT;
    return emit(c, p, &e);
}

static int on_collop(void *data, uint64_t time, uint32_t process, uint32_t op, uint32_t group,
                     uint32_t root, uint32_t sent, uint32_t received, uint64_t duration,
                     uint32_t source, OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, process, time);
    return p ? collective(c, p, time, time + duration, op, group, root, sent, received)
             : OTF_RETURN_ABORT;
}

static int on_begin_collop(void *data, uint64_t time, uint32_t process, uint32_t op, uint64_t match,
                           uint32_t group, uint32_t root, uint64_t sent, uint64_t received,
                           uint32_t scl, OTF_KeyValueList *kv)
{
    (void)time, (void)process, (void)scl, (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    struct pending_collective *more = realloc(c->pending, (c->pending_count + 1) * sizeof(*more));
    if (!more)
        return fail(c, "out of memory at time %llu (process %u)", time, process);
    c->pending = more;
    c->pending[c->pending_count++] =
        (struct pending_collective){match, op, group, root, sent, received};
    otf_proc *p = proc_of(c, process, time);
    weft_event b = {.kind = WEFT_EVENT_MPI_COLLECTIVE_BEGIN, .time = time};
    return p ? emit(c, p, &b) : OTF_RETURN_ABORT;
}

static int on_end_collop(void *data, uint64_t time, uint32_t process, uint64_t match,
                         OTF_KeyValueList *kv)
{
    (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, process, time);
    for (uint32_t i = 0; p && i < c->pending_count; i++) {
        struct pending_collective pc = c->pending[i];
        if (pc.match != match)
            continue;
        c->pending[i] = c->pending[--c->pending_count];
        otf_group *g = weft__otf1_table_find(&c->groups, pc.group);
        int op = weft__convert_collective_op(weft__otf1_named(&c->collops, pc.op));
        int64_t root = pc.root ? (g ? position_in(c, g, pc.root) : -1) : -2;
        if (!g || op < 0 || root == -1) {
            c->collectives_dropped++;
            return OTF_RETURN_OK;
        }
        weft_event e = {.kind = WEFT_EVENT_MPI_COLLECTIVE_END,
                        .time = time,
                        .small = (uint8_t)op,
                        .ref = weft__otf1_comm_of(c, g).id,
                        .a = root < 0 ? WEFT_NO_ROOT : (uint32_t)root,
                        .bytes = pc.sent,
                        .bytes_received = pc.received};
        return emit(c, p, &e);
    }
    return p ? fail(c, "a collective end at time %llu (process %u) without its begin", time,
                    process)
             : OTF_RETURN_ABORT;
}

static int on_counter(void *data, uint64_t time, uint32_t process, uint32_t counter, uint64_t value,
                      OTF_KeyValueList *kv)
{
    (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, process, time);
    otf_named *n = weft__otf1_table_find(&c->counters, counter);
    if (!p || !n)
        return p ? fail(c, "a counter at time %llu (process %u) that is not defined", time, process)
                 : OTF_RETURN_ABORT;
    weft_event e = {.kind = WEFT_EVENT_METRIC,
                    .time = time,
                    .ref = n->metric.id,
                    .value_count = 1,
                    .values = &value};
    return emit(c, p, &e);
}

/* A line OTF cannot parse: damage (a cut or overwritten stream). */
static int on_unknown(void *data, uint64_t time, uint32_t process, const char *record)
{
    otf_convert *c = data;
    if (!c->failed)
        snprintf(c->err, sizeof(c->err),
                 "a record OTF cannot read, after time %llu of process %u: \"%.60s\"",
                 (unsigned long long)time, process, record ? record : "");
    c->failed = true;
    return OTF_RETURN_ABORT;
}

/* ---- reading -------------------------------------------------------------------- */

static OTF_HandlerArray *handlers(otf_convert *c, bool definitions)
{
    OTF_HandlerArray *h = OTF_HandlerArray_open();
    if (!h)
        return NULL;
    if (definitions) {
        weft__otf1_set_definition_handlers(h, c);
    } else {
        OTF1_SET(h, c, on_enter, OTF_ENTER_RECORD);
        OTF1_SET(h, c, on_leave, OTF_LEAVE_RECORD);
        OTF1_SET(h, c, on_send, OTF_SEND_RECORD);
        OTF1_SET(h, c, on_recv, OTF_RECEIVE_RECORD);
        OTF1_SET(h, c, on_collop, OTF_COLLOP_RECORD);
        OTF1_SET(h, c, on_begin_collop, OTF_BEGINCOLLOP_RECORD);
        OTF1_SET(h, c, on_end_collop, OTF_ENDCOLLOP_RECORD);
        OTF1_SET(h, c, on_counter, OTF_COUNTER_RECORD);
    }
    OTF1_SET(h, c, on_unknown, OTF_UNKNOWN_RECORD);
    return h;
}

/* One pass: the definitions (first) or the events; -1 on an error. */
static int read_pass(otf_convert *c, bool definitions, int progress, uint64_t announced)
{
    char *stub = weft__otf1_name_stub(c->input);
    OTF_FileManager *files = stub ? OTF_FileManager_open(100) : NULL;
    OTF_Reader *reader = files ? OTF_Reader_open(stub, files) : NULL;
    OTF_HandlerArray *h = reader ? handlers(c, definitions) : NULL;
    int status = 0;
    if (!h) {
        snprintf(c->err, sizeof(c->err), "the OTF library cannot open it as an OTF trace");
        status = -1;
    } else if (definitions) {
        if (OTF_Reader_readDefinitions(reader, h) == OTF_READ_ERROR || c->failed) {
            if (!c->failed)
                snprintf(c->err, sizeof(c->err), "its definitions cannot be read");
            status = -1;
        }
    } else {
        weft_cli_progress p;
        weft__cli_progress_start(&p, (weft_progress_mode)progress, announced, 0);
        p.command = "weft convert";
        OTF_Reader_setRecordLimit(reader, 100000);
        uint64_t read, total = 0;
        while ((read = OTF_Reader_readEvents(reader, h)) != 0 && read != OTF_READ_ERROR &&
               !c->failed) {
            total += read;
            if (c->second_pass)
                weft__cli_progress_update(&p, total, 0);
        }
        if (c->second_pass)
            weft__cli_progress_finish(&p, total);
        if (read == OTF_READ_ERROR || c->failed) {
            if (!c->failed)
                snprintf(c->err, sizeof(c->err), "its events cannot be read after %llu records",
                         (unsigned long long)total);
            status = -1;
        }
        if (!c->second_pass)
            c->records = total;
    }
    if (h)
        OTF_HandlerArray_close(h);
    if (reader)
        OTF_Reader_close(reader);
    if (files)
        OTF_FileManager_close(files);
    free(stub);
    return status;
}

/* Closes what the input left open (leaves only). */
static uint64_t close_open(otf_convert *c)
{
    uint64_t closed = 0;
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        otf_proc *p = &procs[i];
        while (p->lane.depth > 0 && !c->failed) {
            on_leave(c, p->lane.last_time, 0, p->id, 0, NULL);
            closed++;
        }
    }
    return closed;
}

static void report(const otf_convert *c, uint64_t closed)
{
    if (c->receives_without_size)
        weft__cli_line(stderr,
                       "weft convert: %llu receives of length 0 came before their send: their "
                       "size is written as 0",
                       (unsigned long long)c->receives_without_size);
    if (closed)
        weft__cli_line(stderr,
                       "weft convert: %llu functions left open were closed at their process's "
                       "last event",
                       (unsigned long long)closed);
    if (c->out.time_fixes)
        weft__cli_line(stderr,
                       "weft convert: %llu events earlier than the one before them on their "
                       "process got that one's time",
                       (unsigned long long)c->out.time_fixes);
}

int weft__convert_otf1(const char *input, const char *output, bool keep_partial, int progress)
{
    otf_convert c = {.input = input};
    c.procs.size = sizeof(otf_proc);
    c.funcs.size = sizeof(otf_func);
    c.groups.size = sizeof(otf_group);
    c.fgroups.size = c.files.size = c.scls.size = c.collops.size = c.counters.size =
        sizeof(otf_named);
    c.resolution = 1000000;
    int status = 1;
    uint64_t closed = 0;
    char damage[400] = "";
    char *stub = weft__otf1_name_stub(input);
    c.channels = weft__convert_channels_new();
    if (!stub || !c.channels) {
        snprintf(c.err, sizeof(c.err), "out of memory");
        goto report_error;
    }
    if (weft__otf1_check_files(&c, stub) || read_pass(&c, true, progress, 0))
        goto report_error;
    otf_table *tables[] = {&c.procs, &c.funcs, &c.groups,  &c.fgroups,
                           &c.files, &c.scls,  &c.collops, &c.counters};
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
        weft__otf1_table_sort(tables[t]);
    otf_func *funcs = c.funcs.items;
    for (uint32_t i = 0; i < c.funcs.count; i++) {
        weft_region_desc desc = {.name = funcs[i].name};
        weft__otf1_classify(&c, &funcs[i], &desc);
    }
    if (weft__otf1_check_master(&c, stub, damage, sizeof(damage)))
        goto report_error;
    if (damage[0] && !keep_partial) {
        snprintf(c.err, sizeof(c.err), "%s; --keep-partial converts the rest", damage);
        goto report_error;
    }
    if (weft__otf1_arrange_processes(&c) || read_pass(&c, false, progress, 0))
        goto report_error;
    otf_proc *procs = c.procs.items;
    for (uint32_t i = 0; i < c.procs.count; i++)
        procs[i].lane.depth = 0; /* the first pass's stacks */
    if (!weft__convert_output_open(&c.out, output, input))
        goto out;
    c.reg = weft_trace_writer_registry(c.out.writer);
    c.second_pass = true;
    uint64_t announced = c.records;
    if (weft__otf1_define(&c)) {
        snprintf(c.err, sizeof(c.err), "out of memory defining the trace");
        goto report_error;
    }
    if (read_pass(&c, false, progress, announced))
        goto report_error;
    closed = close_open(&c);
    weft_status st = weft__convert_output_close(&c.out, c.resolution);
    if (st == WEFT_OK) {
        report(&c, closed);
        status = 0;
    }
    if (st == WEFT_OK && damage[0]) { /* --keep-partial: converted what could be read */
        weft__cli_line(stderr, "weft convert: '%s': %s", input, damage);
        weft__cli_line(stderr, "weft convert: the partial trace is kept in '%s'", output);
        status = 1;
    }
    goto out;
report_error:
    weft__cli_line(stderr, "weft convert: '%s': %s", input, c.err);
out:
    weft__convert_output_abandon(&c.out, c.resolution, keep_partial, output);
    weft__otf1_free_tables(&c);
    free(stub);
    return status;
}
