/* SPDX-License-Identifier: BSD-3-Clause */
/* What each location's events must satisfy on their own, checked while they
 * are read (weft check): time never goes back; enter/leave, fork/join,
 * thread team begin/end and collective begin/end pair up; a region is left
 * in the task that entered it; events name defined regions and
 * communicators, and ranks inside them. The records
 * that must agree with other locations' (messages, collectives, lock
 * events) are kept for check_match.c. */
#include "check_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static check_state *state_of(weft_trace_reader *reader)
{
    return (check_state *)reader; /* the reader is check_state's first member */
}

/* Where the current event is, and the time-order check every callback makes. */
static check_at here(check_state *c, uint64_t position, OTF2_TimeStamp time)
{
    check_at at = {(uint32_t)c->read.current, position, time};
    if (c->have_time && time < c->last_time)
        weft__check_problem(c, &at,
                            "time goes back by %" PRIu64 " ticks (event %" PRIu64
                            " was at tick %" PRIu64 ", this one is at tick %" PRIu64 ")",
                            c->last_time - time, c->last_position, c->last_time, time);
    c->have_time = true;
    c->last_time = time;
    c->last_position = position;
    return at;
}

/* Appends item to v: WEFT_OK, or WEFT_ERR_NO_MEMORY, which stops the reading. */
static weft_status push(check_vec *v, const void *item, size_t size)
{
    return weft__check_push(v, item, size) ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

/* A defined communicator's index, or NOT_FOUND after a problem line. */
static size_t comm_of(check_state *c, const check_at *at, OTF2_CommRef comm, const char *what)
{
    size_t index = weft__trace_find_comm(&c->read, comm);
    if (index == NOT_FOUND)
        weft__check_problem(c, at, "%s names undefined communicator %" PRIu64, what,
                            (uint64_t)comm);
    return index;
}

/* ---- regions ---------------------------------------------------------------- */

static weft_status open_region(check_state *c, uint64_t region, const check_at *at)
{
    check_open open = {.ref = region, .position = at->position, .time = at->time, .task = c->task};
    return push(&c->regions, &open, sizeof(open));
}

/* ---- tasks -------------------------------------------------------------------- */

/* Scalasca's analyzer keeps a stack of open regions per task and location:
 * a task's first ThreadTaskSwitch on a location starts one, every Enter
 * pushes onto the running task's, every Leave pops it, ThreadTaskComplete
 * returns to the implicit task. A region left in another task than the
 * one that entered it pops the wrong stack, and an empty one ends the
 * analysis with a segmentation fault: a task whose region was entered on
 * one thread and left on another (it moved) does exactly that. */
static uint64_t task_key(const weft_trace_event *e)
{
    return e->generation == 0 ? 0 : (uint64_t)e->number << 32 | e->generation;
}

static const char *task_name(uint64_t task, char *buf, size_t size)
{
    if (task == 0)
        return "the implicit task";
    snprintf(buf, size, "the task of creating thread %" PRIu32 ", generation %" PRIu32,
             (uint32_t)(task >> 32), (uint32_t)task);
    return buf;
}

static void left_in_other_task(check_state *c, const check_at *at, const char *left,
                               const check_open *open)
{
    char now[96], then[96];
    weft__check_problem(c, at,
                        "leave of %s in %s, but it was entered in %s (event %" PRIu64
                        "): Scalasca's analyzer keeps each task's regions apart and stops "
                        "at such a leave (a task that moved to another thread)",
                        left, task_name(c->task, now, sizeof(now)),
                        task_name(open->task, then, sizeof(then)), open->position);
}

static weft_status on_enter(check_state *c, const check_at *at, uint64_t region)
{
    if (weft__trace_find_region(&c->read, region) == NOT_FOUND)
        weft__check_problem(c, at, "enter of undefined region %" PRIu64, region);
    return open_region(c, region, at);
}

static void on_leave(check_state *c, const check_at *at, uint64_t region)
{
    char left[256], open_name[256];
    weft__check_region_name(c, region, left, sizeof(left));
    if (weft__trace_find_region(&c->read, region) == NOT_FOUND)
        weft__check_problem(c, at, "leave of undefined region %" PRIu64, region);
    check_open *open = c->regions.items;
    size_t depth = c->regions.count;
    if (depth == 0) {
        weft__check_problem(c, at, "leave of %s, but no region is open", left);
        return;
    }
    if (open[depth - 1].ref == region) {
        if (open[depth - 1].task != c->task)
            left_in_other_task(c, at, left, &open[depth - 1]);
        c->regions.count--;
        weft__check_barrier_left(c, region);
        return;
    }
    weft__check_problem(
        c, at, "leave of %s, but the innermost open region is %s (entered at event %" PRIu64 ")",
        left, weft__check_region_name(c, open[depth - 1].ref, open_name, sizeof(open_name)),
        open[depth - 1].position);
    /* Take the regions inside the one left as closed, if it is open at all. */
    for (size_t i = depth; i > 0; i--) {
        if (open[i - 1].ref == region) {
            c->regions.count = i - 1;
            break;
        }
    }
}

/* ProgramBegin and ProgramEnd enter and leave the program region, which
 * must be defined as Scalasca's reader looks it up (weft/program.h). */
static weft_status on_program_begin(check_state *c, const check_at *at, const weft_trace_event *e)
{
    size_t index = weft__trace_find_program_region(&c->read, e->ref, e->argc, e->args);
    c->program_region = index == NOT_FOUND ? UINT64_MAX : c->read.regions[index].ref;
    if (index == NOT_FOUND) {
        const char *name = weft__trace_string(&c->read, e->ref);
        weft__check_problem(c, at,
                            "program begin of '%s' without its program region (an artificial "
                            "measurement-system region named after the program)",
                            name ? name : "an undefined string");
    }
    return open_region(c, c->program_region, at);
}

static void on_program_end(check_state *c, const check_at *at)
{
    if (c->program_region != UINT64_MAX) {
        on_leave(c, at, c->program_region);
        return;
    }
    const check_open *open = c->regions.items;
    if (c->regions.count > 0 && open[c->regions.count - 1].ref == UINT64_MAX)
        c->regions.count--; /* its begin, without a region, was reported */
    else
        weft__check_problem(c, at, "program end without a program begin");
}

/* ---- threads ------------------------------------------------------------------ */

/* The per-location counts of the notes (allocated at the first use). */
static bool note_location(check_state *c)
{
    size_t n = c->read.location_count ? c->read.location_count : 1;
    if (!c->team_begins)
        c->team_begins = calloc(n, sizeof(*c->team_begins));
    if (!c->root_forks)
        c->root_forks = calloc(n, sizeof(*c->root_forks));
    return c->team_begins && c->root_forks;
}

/* Scalasca's analyzer needs a region around every fork and join: it finds
 * the call path of a join by walking back to the enclosing enter, and
 * crashes where there is none. */
static void check_enclosed(check_state *c, const check_at *at, const char *what)
{
    if (c->regions.count == 0)
        weft__check_problem(c, at,
                            "%s that no region encloses (Scalasca's analyzer crashes on it; "
                            "a program begin event would enclose it)",
                            what);
}

static void on_fork(check_state *c, const check_at *at)
{
    check_enclosed(c, at, "thread fork");
    if (c->teams.count == 0 && c->forks == 0 && note_location(c))
        c->root_forks[c->read.current] = true; /* a fork outside any team */
    c->forks++;
}

static void on_join(check_state *c, const check_at *at)
{
    check_enclosed(c, at, "thread join");
    if (c->forks == 0)
        weft__check_problem(c, at, "thread join without a fork");
    else
        c->forks--;
}

/* The member count of communicator COMM (an index, or NOT_FOUND) into
 * *COUNT; false when its group is unknown. */
static bool members_of(const check_state *c, size_t comm, uint32_t *count)
{
    if (comm == NOT_FOUND || c->read.comms[comm].members == NOT_FOUND)
        return false;
    *count = c->read.member_groups[c->read.comms[comm].members].count;
    return true;
}

/* The thread index of the location being read: its OTF2 id's upper half. */
static uint64_t location_thread(const check_state *c)
{
    return c->read.locations[c->read.current].ref >> 32;
}

/* Scalasca's analyzer refuses a process whose OpenMP teams have different
 * sizes, nested ones included (ranks may differ from each other). */
static weft_status note_team_shape(check_state *c, size_t comm)
{
    if (c->teams.count > 0)
        c->teams_nested = true;
    uint32_t size;
    if (!members_of(c, comm, &size))
        return WEFT_OK;
    const check_open *seen = c->team_sizes.items;
    for (size_t i = 0; i < c->team_sizes.count; i++) {
        if (seen[i].ref == c->read.current_rank) {
            c->team_sizes_vary |= seen[i].count != size;
            return WEFT_OK;
        }
    }
    check_open first = {.ref = c->read.current_rank, .count = size};
    return push(&c->team_sizes, &first, sizeof(first));
}

/* A thread that begins a team runs that team's implicit task until the
 * team ends, then goes on in the task it was in (a parallel region inside
 * an explicit task). */
static weft_status on_team_begin(check_state *c, const check_at *at, uint64_t team)
{
    if (note_team_shape(c, comm_of(c, at, team, "thread team begin")) != WEFT_OK ||
        !note_location(c))
        return WEFT_ERR_NO_MEMORY;
    c->team_begins[c->read.current]++;
    check_open open = {.ref = team, .position = at->position, .time = at->time, .task = c->task};
    c->task = 0;
    weft_status st = weft__check_team_begun(c, team, &open.run);
    return st == WEFT_OK ? push(&c->teams, &open, sizeof(open)) : st;
}

static weft_status on_team_end(check_state *c, const check_at *at, uint64_t team)
{
    comm_of(c, at, team, "thread team end");
    check_open *open = c->teams.items;
    size_t depth = c->teams.count;
    char name[300], inner[300];
    if (depth == 0) {
        weft__check_problem(c, at, "end of thread team %s, which this location did not begin",
                            weft__check_comm_name(c, team, name, sizeof(name)));
    } else if (open[depth - 1].ref != team) {
        weft__check_problem(c, at,
                            "end of thread team %s, but the innermost team is %s (begun at "
                            "event %" PRIu64 ")",
                            weft__check_comm_name(c, team, name, sizeof(name)),
                            weft__check_comm_name(c, open[depth - 1].ref, inner, sizeof(inner)),
                            open[depth - 1].position);
        for (size_t i = depth; i > 0; i--) {
            if (open[i - 1].ref == team) {
                c->teams.count = i - 1;
                break;
            }
        }
    } else {
        c->task = open[depth - 1].task;
        return weft__check_team_ended(c, &open[--c->teams.count]);
    }
    return WEFT_OK;
}

/* ---- locks -------------------------------------------------------------------- */

static weft_status on_lock(check_state *c, const check_at *at, const weft_trace_event *e)
{
    check_lock l = {.rank = c->read.current_rank,
                    .lock = (uint64_t)e->paradigm << 32 | e->ref,
                    .order = e->number,
                    .acquire = e->kind == WEFT_TRACE_LOCK_ACQUIRE,
                    .at = *at};
    return push(&c->locks, &l, sizeof(l));
}

/* ---- MPI ---------------------------------------------------------------------- */

/* The world rank of PEER in COMM, or WEFT_TRACE_NO_RANK after a problem. */
static uint32_t peer_of(check_state *c, const check_at *at, size_t comm, uint32_t peer,
                        const char *role)
{
    if (comm == NOT_FOUND)
        return WEFT_TRACE_NO_RANK;
    uint64_t size = weft__trace_comm_size(&c->read, comm);
    uint32_t world = weft__trace_world_rank(&c->read, comm, peer, c->read.current_rank);
    if ((size > 0 && peer >= size) || world == WEFT_TRACE_NO_RANK) {
        char name[300];
        weft__check_problem(
            c, at, "%s rank %" PRIu32 " is outside communicator %s (%" PRIu64 " members)", role,
            peer, weft__check_comm_name(c, c->read.comms[comm].ref, name, sizeof(name)), size);
        return WEFT_TRACE_NO_RANK;
    }
    return world;
}

/* A send or receive, kept for matching; a receive is ordered among the
 * receives of its channel by when it was POSTED. */
static weft_status message(check_state *c, const check_at *at, const weft_trace_event *e,
                           bool send, uint64_t posted)
{
    size_t index = comm_of(c, at, e->ref, send ? "a send" : "a receive");
    uint32_t other = peer_of(c, at, index, e->peer, send ? "receiver" : "sender");
    if (other == WEFT_TRACE_NO_RANK)
        return WEFT_OK;
    uint32_t own = c->read.current_rank;
    check_message m = {.comm = e->ref,
                       .sender = send ? own : other,
                       .receiver = send ? other : own,
                       .tag = e->tag,
                       .bytes = e->bytes,
                       .order_time = posted,
                       .at = *at};
    return push(send ? &c->sends : &c->receives, &m, sizeof(m));
}

/* A non-blocking receive is ordered among the receives of its channel by
 * when it was posted (its MpiIrecvRequest), which MPI matches in. */
static weft_status on_irecv_request(check_state *c, const check_at *at, uint64_t request)
{
    check_open posted = {.ref = request, .position = at->position, .time = at->time};
    return push(&c->requests, &posted, sizeof(posted));
}

static weft_status on_irecv(check_state *c, const check_at *at, const weft_trace_event *e)
{
    uint64_t posted = e->time;
    check_open *open = c->requests.items;
    for (size_t i = c->requests.count; i > 0; i--) {
        if (open[i - 1].ref == e->request) {
            posted = open[i - 1].time;
            open[i - 1] = open[--c->requests.count];
            break;
        }
    }
    return message(c, at, e, false, posted);
}

static void on_collective_begin(check_state *c, const check_at *at)
{
    if (c->collective_open)
        weft__check_problem(c, at,
                            "collective begin inside the collective begun at event %" PRIu64,
                            c->collective_begin.position);
    c->collective_open = true;
    c->collective_begin = (check_open){.position = at->position, .time = at->time};
}

static weft_status on_collective_end(check_state *c, const check_at *at, const weft_trace_event *e)
{
    if (!c->collective_open)
        weft__check_problem(c, at, "collective end without its begin");
    c->collective_open = false;
    if (comm_of(c, at, e->ref, "a collective") == NOT_FOUND)
        return WEFT_OK;
    check_collective coll = {
        .comm = e->ref, .rank = c->read.current_rank, .root = e->root, .op = e->op, .at = *at};
    return push(&c->collectives, &coll, sizeof(coll));
}

/* ---- task blocks, as Scalasca's analyzer reads them ------------------------------ */

/* Scalasca's analyzer tells a task's events from the implicit task's by
 * looking back from each task switch to the completion or switch before
 * it: a region entered or left, or a buffer flush (which it reads as a
 * region), between a completion and the switch that follows makes it take
 * the completed task's events for the implicit task's (it crashed on such
 * traces). After the last completion, with no switch, they are fine. */
static void after_completion(check_state *c, const check_at *at, const weft_trace_event *e)
{
    switch (e->kind) {
    case WEFT_TRACE_TASK_COMPLETE:
        c->completed = at->position;
        c->after_completed.position = 0;
        return;
    case WEFT_TRACE_ENTER:
    case WEFT_TRACE_LEAVE:
    case WEFT_TRACE_BUFFER_FLUSH:
        if (c->completed != 0 && c->after_completed.position == 0) {
            c->after_completed = *at;
            c->after_completed_what = e->kind == WEFT_TRACE_BUFFER_FLUSH ? "buffer flush"
                                      : e->kind == WEFT_TRACE_ENTER      ? "region entered"
                                                                         : "region left";
        }
        return;
    case WEFT_TRACE_TASK_SWITCH:
        if (c->after_completed.position != 0)
            weft__check_problem(c, &c->after_completed,
                                "%s between the task completion at event %" PRIu64
                                " and the task switch after it (event %" PRIu64 ")",
                                c->after_completed_what, c->completed, at->position);
        c->completed = 0;
        c->after_completed.position = 0;
        return;
    default:
        return;
    }
}

/* At a task's first switch on a location, made from the implicit task,
 * Scalasca's analyzer looks for the call path of the event before. When
 * that is a switch back from a task that did not complete, it walks back
 * over that task's Leaves, skips its Enters as another task's, and runs off
 * the start of the trace (it crashed on OMPT traces of parked untied tasks). */
static void after_switch_back(check_state *c, const check_at *at, const weft_trace_event *e)
{
    if (e->kind == WEFT_TRACE_TASK_SWITCH && c->switched_back != 0)
        weft__check_problem(
            c, at,
            "task switch right after the switch to the implicit task at event %" PRIu64
            " from a task that did not complete",
            c->switched_back);
    c->switched_back =
        e->kind == WEFT_TRACE_TASK_SWITCH && task_key(e) == 0 && c->task != 0 ? at->position : 0;
}

/* Scalasca's analyzer takes a location's implicit task (generation 0) to be
 * the one its creating thread names as the location's own thread index,
 * the upper half of its OTF2 id (it crashed where another number was
 * written: the thread's number in its team, with three or more threads). */
static void implicit_task_named(check_state *c, const check_at *at, const weft_trace_event *e)
{
    uint64_t thread = location_thread(c);
    if (e->generation == 0 && e->number != thread)
        weft__check_problem(c, at,
                            "implicit task named by creating thread %" PRIu32
                            ", not by the location's thread index %" PRIu64,
                            e->number, thread);
}

/* A task's creating thread is a member of its team (a team written
 * without members named every task's creator INVALID: BOTS concom's tasks
 * before the first parallel region). */
static void creator_in_team(check_state *c, const check_at *at, const weft_trace_event *e,
                            size_t comm)
{
    uint32_t count;
    if (members_of(c, comm, &count) && e->number >= count)
        weft__check_problem(c, at,
                            "task created by thread %" PRIu32 " of a team of %" PRIu32 " members",
                            e->number, count);
}

/* Scalasca's analyzer refuses MPI events on any thread but a process's
 * first ("MPI calls on threads other than the master thread not
 * supported": a program that calls MPI inside a parallel region under
 * MPI_THREAD_MULTIPLE). */
static void note_mpi_thread(check_state *c, const weft_trace_event *e)
{
    if (e->kind >= WEFT_TRACE_SEND && e->kind <= WEFT_TRACE_NONBLOCKING_COLLECTIVE_END &&
        location_thread(c) != 0)
        c->mpi_off_master = true;
}

/* ---- every event -------------------------------------------------------------- */

/* Time order for every event; then what its kind must satisfy. Kinds not
 * named here only need to be in time order. */
static weft_status on_event(weft_trace_reader *reader, const weft_trace_event *e)
{
    check_state *c = state_of(reader);
    check_at at = here(c, e->position, e->time);
    after_completion(c, &at, e);
    after_switch_back(c, &at, e);
    note_mpi_thread(c, e);
    switch (e->kind) {
    case WEFT_TRACE_ENTER:
        return on_enter(c, &at, e->ref);
    case WEFT_TRACE_LEAVE:
        on_leave(c, &at, e->ref);
        return WEFT_OK;
    case WEFT_TRACE_PROGRAM_BEGIN:
        return on_program_begin(c, &at, e);
    case WEFT_TRACE_PROGRAM_END:
        on_program_end(c, &at);
        return WEFT_OK;
    case WEFT_TRACE_FORK:
        on_fork(c, &at);
        return WEFT_OK;
    case WEFT_TRACE_JOIN:
        on_join(c, &at);
        return WEFT_OK;
    case WEFT_TRACE_TEAM_BEGIN:
        return on_team_begin(c, &at, e->ref);
    case WEFT_TRACE_TEAM_END:
        return on_team_end(c, &at, e->ref);
    case WEFT_TRACE_TASK_SWITCH:
        c->task = task_key(e);
        implicit_task_named(c, &at, e);
        comm_of(c, &at, e->ref, "a task event");
        return WEFT_OK;
    case WEFT_TRACE_TASK_COMPLETE:
        c->task = 0; /* as Scalasca's analyzer: back in the implicit task */
        implicit_task_named(c, &at, e);
        comm_of(c, &at, e->ref, "a task event");
        return WEFT_OK;
    case WEFT_TRACE_TASK_CREATE:
        creator_in_team(c, &at, e, comm_of(c, &at, e->ref, "a task event"));
        return WEFT_OK;
    case WEFT_TRACE_LOCK_ACQUIRE:
    case WEFT_TRACE_LOCK_RELEASE:
        return on_lock(c, &at, e);
    case WEFT_TRACE_SEND:
    case WEFT_TRACE_ISEND:
        return message(c, &at, e, true, e->time);
    case WEFT_TRACE_RECV:
        return message(c, &at, e, false, e->time);
    case WEFT_TRACE_IRECV:
        return on_irecv(c, &at, e);
    case WEFT_TRACE_IRECV_REQUEST:
        return on_irecv_request(c, &at, e->request);
    case WEFT_TRACE_COLLECTIVE_BEGIN:
        on_collective_begin(c, &at);
        return WEFT_OK;
    case WEFT_TRACE_COLLECTIVE_END:
        return on_collective_end(c, &at, e);
    default:
        if (e->kind >= WEFT_TRACE_IO_CREATE_HANDLE && e->kind <= WEFT_TRACE_RMA_OP_COMPLETE)
            return weft__check_rma_event(c, &at, e);
        return WEFT_OK;
    }
}

/* ---- per location ----------------------------------------------------------------- */

static weft_status begin_location(weft_trace_reader *reader)
{
    check_state *c = state_of(reader);
    c->regions.count = c->teams.count = c->requests.count = c->team_runs.count = 0;
    c->program_region = UINT64_MAX;
    c->forks = 0;
    c->collective_open = false;
    c->have_time = false;
    c->task = 0;
    c->completed = 0;
    c->after_completed.position = 0;
    c->switched_back = 0;
    weft__check_rma_begin_location(c);
    return WEFT_OK;
}

/* What is still open when a location's events end. */
static weft_status end_location(weft_trace_reader *reader)
{
    check_state *c = state_of(reader);
    check_at at = {(uint32_t)reader->current, c->last_position, c->last_time};
    const check_open *open = c->regions.items;
    char name[256];
    for (size_t i = c->regions.count; i > 0; i--)
        weft__check_problem(
            c, &at, "region %s, entered at event %" PRIu64 ", is still open at the end",
            weft__check_region_name(c, open[i - 1].ref, name, sizeof(name)), open[i - 1].position);
    open = c->teams.items;
    for (size_t i = c->teams.count; i > 0; i--)
        weft__check_problem(c, &at, "thread team %s, begun at event %" PRIu64 ", never ends",
                            weft__check_comm_name(c, open[i - 1].ref, name, sizeof(name)),
                            open[i - 1].position);
    if (c->forks > 0)
        weft__check_problem(c, &at, "%" PRIu64 " thread fork%s without a join", c->forks,
                            c->forks == 1 ? "" : "s");
    if (c->collective_open)
        weft__check_problem(c, &at, "the collective begun at event %" PRIu64 " never ends",
                            c->collective_begin.position);
    weft__check_rma_end_location(c, &at);
    return WEFT_OK;
}

/* Fewer (or more) events than the location's definition promises: bytes of
 * its event file are gone, and what was read may look sound. */
static weft_status count_differs(weft_trace_reader *reader, uint64_t read, uint64_t promised)
{
    check_state *c = state_of(reader);
    const check_at at = {.location = (uint32_t)reader->current}; /* the whole location */
    weft__check_problem(c, &at,
                        "%" PRIu64 " events read, but its definition promises %" PRIu64
                        ": the event file is damaged or truncated",
                        read, promised);
    return WEFT_OK;
}

weft_status weft__check_read_events(check_state *c, OTF2_Reader *reader)
{
    const weft_trace_location_hooks hooks = {begin_location, end_location};
    c->read.count_differs = count_differs;
    return weft__trace_read_events(&c->read, reader, on_event, &hooks);
}
