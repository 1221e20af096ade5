/* SPDX-License-Identifier: BSD-3-Clause */
/* Copying one location's leftover events into the new trace.
 *
 * Each event's ids are its process's (a rank of an MPI job numbers its own
 * strings, regions and communicators) and its time is its process's clock:
 * both become the trace's through the journal's maps and clock offsets
 * (linear between two measurements, as OTF2's readers apply them). The
 * location's scopes are tracked as they are copied (regions, the program,
 * thread teams, forks, locks); whatever is still open where its events end
 * is closed there, innermost first, each in the OpenMP task it was opened
 * in (a ThreadTaskSwitch back to it first, as the recorder's sink does),
 * the program last with the end status its journal knows. Left out: events recover_match.c marks (a
 * message or collective whose partner did not reach the disk), the events after the location's cut
 * (recover_teams.c), a collective begin whose end is missing, and a closing without its opening. */
#include "recover.h"

#include <stdlib.h>
#include <string.h>

#include "weft/recorder.h"
#include "grow.h"

enum { SCOPE_REGION = 1, SCOPE_PROGRAM, SCOPE_TEAM, SCOPE_FORK, SCOPE_LOCK };

typedef struct scope {
    uint8_t kind;
    uint8_t small;
    uint32_t id;
    uint32_t extra;
    uint32_t task_thread, task_generation; /* the task it was opened in (0: implicit) */
} scope;

/* A task as a ThreadTaskSwitch names it. */
typedef struct task_ref {
    uint32_t team, thread, generation;
} task_ref;

typedef struct copying {
    scope *stack;
    size_t depth, capacity;
    task_ref task;            /* running: the last switch copied; generation 0 after a completion */
    bool implicit_known;      /* a switch to an implicit task (generation 0) was copied, */
    uint32_t implicit_thread; /* naming this thread */
    uint64_t last_time;
    bool pending_begin; /* a collective begin waits for its end */
    uint64_t pending_time;
    uint64_t *args;
    uint32_t args_capacity;
} copying;

uint32_t recover_map_comm(const recover_state *st, size_t part, uint32_t comm)
{
    const weft_id_maps *maps = &st->parts[part].maps;
    return comm < maps->comm_count ? maps->comms[comm] : comm;
}

static uint32_t map(const uint32_t *table, uint32_t count, uint32_t id)
{
    return table && id < count ? table[id] : id;
}

uint32_t recover_map_region(const recover_state *st, size_t part, uint32_t region)
{
    const weft_id_maps *maps = &st->parts[part].maps;
    return map(maps->regions, maps->region_count, region);
}

uint64_t recover_global_time(const recover_state *st, size_t part, uint64_t ticks)
{
    const weft_journal_part *p = &st->parts[part];
    if (p->offset_count == 0)
        return ticks;
    const weft_journal_offset *o = p->offsets;
    size_t n = p->offset_count;
    double offset;
    if (n == 1 || ticks <= o[0].time) {
        offset = (double)o[0].offset;
    } else if (ticks >= o[n - 1].time) {
        offset = (double)o[n - 1].offset;
    } else {
        size_t i = 1;
        while (i < n - 1 && o[i].time < ticks)
            i++;
        double span = (double)(o[i].time - o[i - 1].time);
        double at = span > 0 ? (double)(ticks - o[i - 1].time) / span : 0;
        offset = (double)o[i - 1].offset + at * (double)(o[i].offset - o[i - 1].offset);
    }
    double global = (double)ticks + offset;
    return global > 0 ? (uint64_t)(global + 0.5) : 0;
}

static bool push(copying *c, scope s)
{
    if (!weft__cli_grow(&c->stack, &c->capacity, c->depth + 1, sizeof(*c->stack)))
        return false;
    s.task_thread = c->task.thread;
    s.task_generation = c->task.generation;
    c->stack[c->depth++] = s;
    return true;
}

/* Notes the task a copied switch or completion leaves running. */
static void follow_task(copying *c, const weft_event *e)
{
    if (e->kind == WEFT_EVENT_TASK_SWITCH) {
        c->task = (task_ref){e->ref, e->a, e->b};
        if (e->b == 0) {
            c->implicit_known = true;
            c->implicit_thread = e->a;
        }
    } else if (e->kind == WEFT_EVENT_TASK_COMPLETE) {
        c->task.generation = 0;
    }
}

/* Removes the innermost scope of this kind (and id); false when none. A
 * lock goes alone; any other closing takes what was left open inside it,
 * held locks aside (as the recorder's sink does). */
static bool pop(copying *c, uint8_t kind, uint32_t id)
{
    for (size_t i = c->depth; i > 0; i--) {
        scope *s = &c->stack[i - 1];
        bool any_id = kind == SCOPE_FORK || kind == SCOPE_PROGRAM;
        if (s->kind != kind || (!any_id && s->id != id))
            continue;
        if (kind == SCOPE_LOCK) {
            memmove(s, s + 1, (c->depth - i) * sizeof(*s));
            c->depth--;
            return true;
        }
        size_t kept = i - 1;
        for (size_t j = i; j < c->depth; j++) {
            if (c->stack[j].kind == SCOPE_LOCK)
                c->stack[kept++] = c->stack[j];
        }
        c->depth = kept;
        return true;
    }
    return false;
}

/* Puts E's ids of its process into the trace's. */
static weft_status to_global(const recover_state *st, size_t part, weft_event *e, copying *c)
{
    const weft_id_maps *m = &st->parts[part].maps;
    switch (e->kind) {
    case WEFT_EVENT_ENTER:
    case WEFT_EVENT_LEAVE:
        e->ref = map(m->regions, m->region_count, e->ref);
        break;
    case WEFT_EVENT_THREAD_TEAM_BEGIN:
    case WEFT_EVENT_THREAD_TEAM_END:
    case WEFT_EVENT_TASK_SWITCH:
    case WEFT_EVENT_TASK_COMPLETE:
    case WEFT_EVENT_MPI_SEND:
    case WEFT_EVENT_MPI_RECV:
    case WEFT_EVENT_MPI_ISEND:
    case WEFT_EVENT_MPI_IRECV:
    case WEFT_EVENT_MPI_COLLECTIVE_END:
        e->ref = map(m->comms, m->comm_count, e->ref);
        break;
    case WEFT_EVENT_TASK_CREATE:
        e->ref = map(m->comms, m->comm_count, e->ref);
        if (e->attribute_string != WEFT_INVALID_ID)
            e->attribute_string = map(m->strings, m->string_count, e->attribute_string);
        break;
    case WEFT_EVENT_METRIC:
        e->ref = map(m->metrics, m->metric_count, e->ref);
        break;
    case WEFT_EVENT_PROGRAM_BEGIN:
        e->ref = map(m->strings, m->string_count, e->ref);
        if (!recover_reserve(&c->args, &c->args_capacity, e->value_count))
            return WEFT_ERR_NO_MEMORY;
        for (uint32_t i = 0; i < e->value_count; i++)
            c->args[i] = map(m->strings, m->string_count, (uint32_t)e->values[i]);
        e->values = c->args;
        break;
    default:
        /* MPI-IO handles and windows are objects; a group sync names the
         * communicator whose group synchronises (the trace writer turns
         * both into OTF2's refs). */
        if (WEFT_EVENT_IS_IO_RMA(e->kind) && e->kind != WEFT_EVENT_RMA_COLLECTIVE_BEGIN)
            e->ref = map(m->objects, m->object_count, e->ref);
        if (e->kind == WEFT_EVENT_RMA_GROUP_SYNC)
            e->a = map(m->comms, m->comm_count, e->a);
        break;
    }
    return WEFT_OK;
}

/* Tracks the scope E opens or closes; false for a closing of nothing
 * (left out). */
static bool track(copying *c, const weft_event *e)
{
    switch (e->kind) {
    case WEFT_EVENT_ENTER:
        return push(c, (scope){.kind = SCOPE_REGION, .id = e->ref});
    case WEFT_EVENT_LEAVE:
        return pop(c, SCOPE_REGION, e->ref);
    case WEFT_EVENT_PROGRAM_BEGIN:
        return push(c, (scope){.kind = SCOPE_PROGRAM});
    case WEFT_EVENT_PROGRAM_END:
        return pop(c, SCOPE_PROGRAM, 0);
    case WEFT_EVENT_THREAD_TEAM_BEGIN:
        return push(c, (scope){.kind = SCOPE_TEAM, .id = e->ref});
    case WEFT_EVENT_THREAD_TEAM_END:
        return pop(c, SCOPE_TEAM, e->ref);
    case WEFT_EVENT_THREAD_FORK:
        return push(c, (scope){.kind = SCOPE_FORK, .small = e->small});
    case WEFT_EVENT_THREAD_JOIN:
        return pop(c, SCOPE_FORK, 0);
    case WEFT_EVENT_LOCK_ACQUIRE:
        return push(c, (scope){.kind = SCOPE_LOCK, .id = e->ref, .small = e->small, .extra = e->a});
    case WEFT_EVENT_LOCK_RELEASE:
        return pop(c, SCOPE_LOCK, e->ref);
    default:
        return true;
    }
}

static weft_status put(recover_state *st, size_t index, copying *c, const weft_event *e)
{
    recover_location *loc = &st->locations[index];
    weft_status status = weft_trace_writer_event(st->writer, loc->loc, e);
    if (status != WEFT_OK)
        return status;
    if (loc->events_written++ == 0)
        loc->first_time = e->time;
    loc->last_time = e->time;
    c->last_time = e->time;
    return WEFT_OK;
}

static weft_status copy_event(recover_state *st, size_t index, uint64_t position,
                              const weft_event *event, void *context)
{
    copying *c = context;
    recover_location *loc = &st->locations[index];
    if (recover_dropped(st, index, position) || recover_cut(st, index, position)) {
        loc->events_dropped++;
        return WEFT_OK;
    }
    weft_event e = *event;
    weft_status status = to_global(st, loc->part, &e, c);
    if (status != WEFT_OK)
        return status;
    e.time = recover_global_time(st, loc->part, e.time);
    if (e.time < c->last_time)
        e.time = c->last_time; /* offsets must not turn the location's order around */

    /* A collective's begin is written with its end, or not at all; an end
     * without its begin is left out too. */
    bool had_begin = c->pending_begin;
    if (c->pending_begin) {
        c->pending_begin = false;
        if (e.kind == WEFT_EVENT_MPI_COLLECTIVE_END) {
            weft_event begin = {.kind = WEFT_EVENT_MPI_COLLECTIVE_BEGIN, .time = c->pending_time};
            status = put(st, index, c, &begin);
            if (status != WEFT_OK)
                return status;
        } else {
            loc->events_dropped++;
        }
    }
    if (e.kind == WEFT_EVENT_MPI_COLLECTIVE_BEGIN) {
        c->pending_begin = true;
        c->pending_time = e.time;
        return WEFT_OK;
    }
    if (e.kind == WEFT_EVENT_MPI_COLLECTIVE_END && !had_begin) {
        loc->events_dropped++;
        return WEFT_OK;
    }
    if (!track(c, &e)) {
        loc->events_dropped++;
        return WEFT_OK;
    }
    follow_task(c, &e);
    return put(st, index, c, &e);
}

/* Before closing S: a switch back to the task it was opened in, when
 * another runs. The implicit task is named as the location's last switch
 * to it named it, else by the thread's number (Scalasca's analyzer keeps
 * each task's regions apart; docs/dev/OTF2-CONVENTIONS.md). */
static weft_status switch_back(recover_state *st, size_t index, copying *c, const scope *s)
{
    if (s->task_generation == c->task.generation &&
        (s->task_generation == 0 || s->task_thread == c->task.thread))
        return WEFT_OK;
    const recover_location *loc = &st->locations[index];
    uint32_t thread = s->task_generation  ? s->task_thread
                      : c->implicit_known ? c->implicit_thread
                                          : (uint32_t)(loc->otf2_id >> 32);
    c->task = (task_ref){c->task.team, thread, s->task_generation};
    weft_event e = {.kind = WEFT_EVENT_TASK_SWITCH,
                    .time = c->last_time,
                    .ref = c->task.team,
                    .a = thread,
                    .b = s->task_generation};
    return put(st, index, c, &e);
}

/* The status a closing ProgramEnd carries: what the journal knows. */
static uint64_t end_status(const weft_journal_part *part)
{
    if (part->state == WEFT_JOURNAL_SIGNALLED && part->signal)
        return (uint64_t)(int64_t)(128 + (int)part->signal);
    return WEFT_EXIT_STATUS_UNKNOWN;
}

static weft_status close_scopes(recover_state *st, size_t index, copying *c)
{
    recover_location *loc = &st->locations[index];
    if (c->pending_begin) {
        c->pending_begin = false;
        loc->events_dropped++;
    }
    while (c->depth > 0) {
        scope s = c->stack[--c->depth];
        weft_status switched = switch_back(st, index, c, &s);
        if (switched != WEFT_OK)
            return switched;
        weft_event e = {.time = c->last_time};
        switch (s.kind) {
        case SCOPE_REGION:
            e.kind = WEFT_EVENT_LEAVE;
            e.ref = s.id;
            break;
        case SCOPE_PROGRAM:
            e.kind = WEFT_EVENT_PROGRAM_END;
            e.bytes = end_status(&st->parts[loc->part]);
            loc->program_end_added = true;
            break;
        case SCOPE_TEAM:
            e.kind = WEFT_EVENT_THREAD_TEAM_END;
            e.ref = s.id;
            break;
        case SCOPE_FORK:
            e.kind = WEFT_EVENT_THREAD_JOIN;
            e.small = s.small;
            break;
        default:
            e.kind = WEFT_EVENT_LOCK_RELEASE;
            e.small = s.small;
            e.ref = s.id;
            e.a = s.extra;
            break;
        }
        weft_status status = put(st, index, c, &e);
        if (status != WEFT_OK)
            return status;
        if (s.kind != SCOPE_PROGRAM)
            loc->scopes_closed++;
    }
    return WEFT_OK;
}

weft_status recover_write_location(recover_state *st, size_t index)
{
    copying c = {0};
    st->locations[index].events_dropped = 0; /* counted again in this pass */
    weft_status status = recover_read_location(st, index, copy_event, &c);
    if (status == WEFT_OK)
        status = close_scopes(st, index, &c);
    st->events_written += st->locations[index].events_written;
    st->events_dropped += st->locations[index].events_dropped;
    free(c.stack);
    free(c.args);
    return status;
}
