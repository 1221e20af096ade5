/* SPDX-License-Identifier: BSD-3-Clause */
/* Decoding chunks into OTF2 events; see sink.h. */
#include "sink.h"

#include <otf2/otf2.h>
#include <pthread.h>
#include <sys/statvfs.h>

#include "archive.h"
#include "disk_reserve.h"
#include "journal.h"
#include "otf2_events.h"
#include "otf2_memory.h"
#include "spill.h"
#include "team_barriers.h"
#include "lifecycle.h"
#include "program.h"
#include "weft/log.h"
#include "weft/definitions_otf2.h"
#include "weft/recorder.h"

/* Guards everything below and every location's writer-owned fields. */
static pthread_mutex_t sink_mutex = PTHREAD_MUTEX_INITIALIZER;
static const weft_config *config;
static bool failed; /* the output is broken: count, do not write */
static bool broken; /* OTF2 failed a write: its files must not be closed (OTF2 would crash) */
static bool out_of_space; /* the disk is nearly full: count, write only the end */
static bool archive_tried;
static uint32_t event_writers; /* opened so far */
/* How the recording ends (weft__sink_set_end): events after end_cut are not
 * written, what is open at the end is closed then, ProgramEnd carries
 * end_status. */
static uint64_t end_cut = UINT64_MAX;
static uint64_t end_status = WEFT_EXIT_STATUS_UNKNOWN;
static uint32_t end_signal;
/* This process is a fork()ed child: its master thread may close scopes the
 * parent opened (fork_child.c); such closings are left out. */
static bool forked_child;

void weft__sink_configure(const weft_config *cfg)
{
    config = cfg;
}

static void fail_output(void);

void weft__sink_set_end(uint64_t cut_time, uint64_t exit_status, uint32_t signal)
{
    pthread_mutex_lock(&sink_mutex);
    end_cut = cut_time;
    end_status = exit_status;
    end_signal = signal;
    pthread_mutex_unlock(&sink_mutex);
}

void weft__sink_forget(void)
{
    pthread_mutex_init(&sink_mutex, NULL);
    failed = broken = out_of_space = archive_tried = false;
    event_writers = 0;
    end_cut = UINT64_MAX;
    end_status = WEFT_EXIT_STATUS_UNKNOWN;
    end_signal = 0;
    forked_child = true;
    weft__otf2_memory_forget();
    weft__spill_forget();
}

/* The recorder's archive is open: from now on the event files open during
 * the run are bounded (otf2_memory.h). */
static void bound_event_files(void)
{
    uint32_t bound = weft__otf2_files_bound();
    weft_log_verbose("at most %u event files are open at once while recording", bound);
}

void weft__sink_archive_opened(bool ok)
{
    pthread_mutex_lock(&sink_mutex);
    archive_tried = true;
    if (ok)
        bound_event_files();
    else
        fail_output();
    pthread_mutex_unlock(&sink_mutex);
}

/* Counts the events in slots without writing them. */
static uint64_t count_events(const weft_slot *slots, size_t count)
{
    uint64_t events = 0;
    weft_event e;
    size_t used;
    for (size_t at = 0; at < count && (used = weft__event_decode(slots + at, count - at, &e));
         at += used)
        events++;
    return events;
}

/* From now on nothing is written: recording stops, what arrives is lost. */
static void fail_output(void)
{
    failed = true;
    weft__recording_stop_on_error();
}

/* Writes e, which the sink made itself, as loc's next event. */
static void write_own_event(weft_loc *loc, OTF2_EvtWriter *w, const weft_event *e)
{
    if (weft__otf2_write_event(w, e) != OTF2_SUCCESS)
        return;
    if (loc->events_written == 0)
        loc->first_time = e->time;
    loc->last_time = e->time;
    loc->events_written++;
}

/* The master thread's events begin with the program's (program.h). */
static void begin_program(weft_loc *loc, OTF2_EvtWriter *w)
{
    weft_event e;
    if (loc->thread_number == 0 && weft__program_begin_event(&e)) {
        write_own_event(loc, w, &e);
        loc->program_begun = true;
    }
}

/* ... and end with its end, after everything else, at the end of the run
 * (or at the signal that ended it, with the status it gives). */
static void end_program(weft_loc *loc)
{
    weft_event e;
    if (loc->thread_number == 0 && loc->evt_writer && !failed &&
        weft__program_end_event(&e, loc->last_time)) {
        if (end_cut != UINT64_MAX)
            e.time = end_cut > loc->last_time ? end_cut : loc->last_time;
        e.bytes = end_status;
        write_own_event(loc, loc->evt_writer, &e);
    }
}

static OTF2_EvtWriter *evt_writer_of(weft_loc *loc)
{
    if (loc->evt_writer)
        return loc->evt_writer;
    if (!archive_tried) {
        archive_tried = true;
        if (weft__archive_open(config) != WEFT_OK) {
            fail_output();
            return NULL;
        }
        bound_event_files();
        weft__journal_open(weft__archive_directory(), 0);
        weft__disk_reserve_open(weft__archive_directory());
    }
    weft_location_def def;
    weft_registry_location_get(weft_defs_global(), loc->def, &def);
    loc->evt_writer = OTF2_Archive_GetEvtWriter(weft__archive_get(), weft_location_otf2_id(&def));
    if (loc->evt_writer) {
        event_writers++;
        weft__disk_reserve_grow(event_writers); /* a full disk stops recording below */
        begin_program(loc, loc->evt_writer);
    }
    if (!loc->evt_writer) {
        weft_log_error("the OTF2 library gave no event writer for thread %u; recording stops",
                       loc->thread_number);
        fail_output();
    }
    return loc->evt_writer;
}

/* A thread team's members are the locations that began it: the sink sees
 * every ThreadTeamBegin, off the hot path, and records the membership for the
 * team's group definition. */
static void note_team_member(weft_loc *loc, uint32_t team, uint16_t thread_in_team)
{
    if (team == loc->last_team)
        return;
    if (weft_registry_comm_set_member(weft_defs_global(), (weft_comm){team}, thread_in_team,
                                      loc->def.id) == WEFT_OK)
        loc->last_team = team;
}

/* A scope opened now, in the task running on loc. */
static weft_scope scope_here(const weft_loc *loc, weft_scope_kind kind, uint32_t id)
{
    return (weft_scope){.id = id,
                        .kind = (uint8_t)kind,
                        .task_thread = loc->task.thread,
                        .task_generation = loc->task.generation};
}

/* The region that encloses, on a thread other than the main one, the
 * OpenMP teams it forks (a pthread running parallel regions): Scalasca's
 * analyzer needs a region around every fork and join (as the program
 * region is on the main thread), and weft sees no function there. */
static uint32_t thread_region(void)
{
    static uint32_t id = WEFT_INVALID_ID;
    if (id == WEFT_INVALID_ID) {
        weft_region_desc desc = {.name = "thread",
                                 .canonical_name = "thread",
                                 .role = WEFT_REGION_ROLE_ARTIFICIAL,
                                 .paradigm = WEFT_PARADIGM_MEASUREMENT_SYSTEM};
        weft_region region;
        if (weft_registry_region(weft_defs_global(), &desc, &region) == WEFT_OK)
            id = region.id;
    }
    return id;
}

/* Before a fork at time t that nothing encloses: enters the thread region,
 * which stays open until the thread ends (closed with what it left open). */
static void enclose_fork(weft_loc *loc, OTF2_EvtWriter *w, uint64_t t)
{
    uint32_t region = thread_region();
    if (region == WEFT_INVALID_ID)
        return;
    weft_event e = {.kind = WEFT_EVENT_ENTER, .time = t, .ref = region};
    weft__scopes_open_scope(&loc->open, scope_here(loc, WEFT_SCOPE_REGION, region));
    write_own_event(loc, w, &e);
}

/* A closing to leave out: one of a scope the parent of a fork()ed child
 * opened before the fork. */
static bool closes_nothing(weft_loc *loc, weft_scope_kind kind, uint32_t id)
{
    return !weft__scopes_close(&loc->open, kind, id) && forked_child && loc->thread_number == 0;
}

/* Forks and locks are scopes too: a fork without its join (a thread that
 * called exit() inside a parallel region) or a lock still held at the end
 * is closed like a region (open_scopes.h). Returns false for an event to
 * leave out (closes_nothing). */
static bool track_scope(weft_loc *loc, const weft_slot *s, size_t available)
{
    switch (s->head.kind) {
    case WEFT_EVENT_THREAD_FORK: {
        weft_scope fork = scope_here(loc, WEFT_SCOPE_FORK, 0);
        fork.small = s->head.small;
        weft__scopes_open_scope(&loc->open, fork);
        return true;
    }
    case WEFT_EVENT_THREAD_JOIN:
        return !closes_nothing(loc, WEFT_SCOPE_FORK, 0);
    case WEFT_EVENT_LOCK_ACQUIRE:
        if (available >= 2) {
            weft_scope lock = scope_here(loc, WEFT_SCOPE_LOCK, s->head.ref);
            lock.small = s->head.small;
            lock.extra = (uint32_t)s[1].word[0];
            weft__scopes_open_scope(&loc->open, lock);
        }
        return true;
    case WEFT_EVENT_LOCK_RELEASE:
        return !closes_nothing(loc, WEFT_SCOPE_LOCK, s->head.ref);
    default:
        return true;
    }
}

/* Writes one event starting at slots[0] of `available`; returns the slots
 * it took (0: not a valid event), stores OTF2's verdict in *code and
 * whether the event was written (not left out) in *kept. The events of
 * every OpenMP construct (enter and leave, team begin and end, a task's
 * switch and completion) go straight to OTF2; the others through the
 * general decoder. */
static size_t write_one(weft_loc *loc, OTF2_EvtWriter *w, const weft_slot *slots, size_t available,
                        OTF2_ErrorCode *code, bool *kept)
{
    const weft_slot *s = slots;
    uint64_t t = s->head.time;
    uint32_t ref = s->head.ref;
    *code = OTF2_SUCCESS;
    *kept = true;
    switch (s->head.kind) {
    case WEFT_EVENT_ENTER:
        weft__scopes_open_scope(&loc->open, scope_here(loc, WEFT_SCOPE_REGION, ref));
        *code = OTF2_EvtWriter_Enter(w, NULL, t, ref);
        return 1;
    case WEFT_EVENT_LEAVE:
        if (WEFT_UNLIKELY(closes_nothing(loc, WEFT_SCOPE_REGION, ref))) {
            *kept = false;
        } else {
            *code = OTF2_EvtWriter_Leave(w, NULL, t, ref);
            if (loc->teams_open > 0 && weft__barrier_region(ref))
                weft__barriers_left(&loc->open);
        }
        return 1;
    case WEFT_EVENT_THREAD_TEAM_BEGIN:
        note_team_member(loc, ref, s->head.count);
        weft_scope team = scope_here(loc, WEFT_SCOPE_TEAM, ref);
        team.extra = s->head.count;
        weft__scopes_open_scope(&loc->open, team);
        if (loc->teams_open++ == 0)
            weft__barriers_team_begun(loc, ref);
        *code = OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t, ref);
        return 1;
    case WEFT_EVENT_THREAD_TEAM_END:
        if (WEFT_UNLIKELY(closes_nothing(loc, WEFT_SCOPE_TEAM, ref))) {
            *kept = false;
        } else {
            *code = OTF2_EvtWriter_ThreadTeamEnd(w, NULL, t, ref);
            loc->teams_open -= loc->teams_open > 0;
        }
        return 1;
    case WEFT_EVENT_TASK_SWITCH:
    case WEFT_EVENT_TASK_COMPLETE:
        if (available < 2)
            break; /* cut short: the decoder says so */
        {
            uint32_t generation = (uint32_t)(s[1].word[0] >> 32);
            uint32_t thread =
                weft__otf2_task_thread((uint32_t)s[1].word[0], generation, loc->thread_number);
            *code = (s->head.kind == WEFT_EVENT_TASK_SWITCH
                         ? OTF2_EvtWriter_ThreadTaskSwitch
                         : OTF2_EvtWriter_ThreadTaskComplete)(w, NULL, t, ref, thread, generation);
            /* A completion returns to the implicit task, as Scalasca reads it. */
            if (s->head.kind == WEFT_EVENT_TASK_SWITCH) {
                loc->task.team = ref;
                loc->task.thread = thread;
                loc->task.generation = generation;
            } else {
                loc->task.generation = 0;
            }
            return 2;
        }
    case WEFT_EVENT_TASK_CREATE:
        /* The creating thread records a creation: it is that thread of the
         * task's team (the initial thread's one-thread team, outside any
         * parallel region, has no team begin to say so). */
        if (available >= 2)
            note_team_member(loc, ref, (uint16_t)s[1].word[0]);
        break;
    case WEFT_EVENT_THREAD_FORK:
        if (loc->open.depth == 0 && !loc->program_begun)
            enclose_fork(loc, w, t);
        break;
    default:
        break;
    }
    weft_event e;
    size_t used = weft__event_decode(slots, available, &e);
    if (used && !track_scope(loc, s, used))
        *kept = false;
    else if (used)
        *code = weft__otf2_write_event(w, &e);
    return used;
}

/* What closing the archive writes besides the events OTF2 holds: global and
 * local definitions and the anchor file, with room to spare. */
#define DEFINITIONS_MARGIN_BYTES (2u * 1024 * 1024)
/* Most OTF2 bytes one buffer slot becomes (an enter: about 16). */
#define OTF2_BYTES_PER_SLOT 32u

/* Whether the experiment directory's disk can take `slots` more slots of
 * events and still everything closing the archive will write (the events
 * OTF2 holds, the definitions: set aside in the reserve, disk_reserve.h,
 * or counted here where there is none). When it cannot, recording stops
 * with one line: OTF2 cannot survive a full disk (it crashes in its
 * close), so weft stops short of it, and the trace keeps everything written
 * so far. */
static bool disk_has_room(size_t slots)
{
    const char *dir = weft__archive_directory();
    struct statvfs fs;
    if (out_of_space)
        return false;
    if (!dir || statvfs(dir, &fs) != 0)
        return true; /* cannot tell: go on */
    uint64_t free_bytes = (uint64_t)fs.f_bavail * fs.f_frsize;
    uint64_t needed = (uint64_t)slots * OTF2_BYTES_PER_SLOT;
    if (!weft__disk_reserve_held())
        needed += weft__otf2_pending_bytes(event_writers) + DEFINITIONS_MARGIN_BYTES;
    if (free_bytes >= needed && !weft__disk_reserve_exhausted())
        return true;
    weft_log_error("the disk of '%s' is full (%llu KiB free, %llu KiB needed to go on); "
                   "recording stops, the program continues, the trace keeps what was written",
                   dir, (unsigned long long)(free_bytes / 1024),
                   (unsigned long long)(needed / 1024));
    out_of_space = true;
    weft__recording_stop_on_error();
    return false;
}

static void write_locked(weft_loc *loc, const weft_slot *slots, size_t count)
{
    OTF2_EvtWriter *w = failed ? NULL : evt_writer_of(loc);
    if (w && !disk_has_room(count))
        w = NULL;
    size_t at = 0, first = 0, last = 0;
    uint64_t written = 0;
    while (w && at < count) {
        if (WEFT_UNLIKELY(slots[at].head.time > end_cut)) {
            loc->cut = true; /* after the signal that ended the program */
            break;
        }
        OTF2_ErrorCode code;
        bool kept;
        size_t used = write_one(loc, w, slots + at, count - at, &code, &kept);
        if (code != OTF2_SUCCESS) {
            weft_log_error("writing the trace failed: %s (%s); recording stops, the program "
                           "continues",
                           OTF2_Error_GetName(code), OTF2_Error_GetDescription(code));
            broken = true;
            fail_output();
            break;
        }
        if (used == 0)
            break; /* cannot happen: the slots were encoded by weft itself */
        if (kept) {
            if (written == 0)
                first = at;
            last = at;
            written++;
        }
        at += used;
    }
    /* A location's events are in time order: its first and last times are
     * those of the first and last events written, taken once per chunk. */
    if (written) {
        if (loc->events_written == 0)
            loc->first_time = slots[first].head.time;
        loc->last_time = slots[last].head.time;
    }
    loc->events_written += written;
    /* What the cut left out is not lost: it came after the end. */
    if (!loc->cut)
        loc->events_lost += count_events(slots + at, count - at);
    /* OTF2 needed to write this location's events and could not open its
     * file: the next chunks wait in the spill file. */
    if (weft__otf2_take_over_budget())
        weft__spill_begin(loc);
}

static uint64_t close_open_scopes(weft_loc *loc, uint64_t t);

/* Writes a chunk, or parks it in the spill file when its location may not
 * open its event file now (spill.h); after a thread's last chunk, closes
 * what the thread left open. */
static void write_chunk_locked(weft_loc *loc, const weft_slot *slots, size_t count,
                               bool ends_thread)
{
    if (!failed && weft__spill_active(loc) && disk_has_room(count) &&
        weft__spill_park(loc, slots, count, count_events(slots, count), ends_thread))
        return;
    if (count > 0)
        write_locked(loc, slots, count);
    if (!ends_thread)
        return;
    /* At the thread's last event; a thread still running at the signal
     * that ended the program (its events went past it) at the signal. */
    uint64_t closed = close_open_scopes(loc, loc->cut ? end_cut : loc->last_time);
    if (closed)
        weft_log_verbose("thread %u: a thread ended inside %llu regions or teams; they are "
                         "closed at its last event",
                         loc->thread_number, (unsigned long long)closed);
}

void weft__sink_write(weft_loc *loc, const weft_slot *slots, size_t count)
{
    pthread_mutex_lock(&sink_mutex);
    write_chunk_locked(loc, slots, count, false);
    pthread_mutex_unlock(&sink_mutex);
}

void weft__sink_write_chunk(const weft_chunk *chunk)
{
    pthread_mutex_lock(&sink_mutex);
    write_chunk_locked(chunk->owner, chunk->slots, chunk->used, chunk->ends_thread);
    pthread_mutex_unlock(&sink_mutex);
}

static void add_property(weft_loc *loc, const char *name, uint64_t value)
{
    weft_registry_location_property(weft_defs_global(), loc->def, name, value);
}

/* The event that closes SCOPE at time T, written like any other. */
static OTF2_ErrorCode close_scope(OTF2_EvtWriter *w, const weft_scope *scope, uint64_t t)
{
    static const uint8_t closing[] = {
        [WEFT_SCOPE_REGION] = WEFT_EVENT_LEAVE,
        [WEFT_SCOPE_TEAM] = WEFT_EVENT_THREAD_TEAM_END,
        [WEFT_SCOPE_FORK] = WEFT_EVENT_THREAD_JOIN,
        [WEFT_SCOPE_LOCK] = WEFT_EVENT_LOCK_RELEASE,
    };
    bool known = scope->kind < sizeof(closing) && closing[scope->kind];
    weft_event e = {.kind = known ? closing[scope->kind] : WEFT_EVENT_LOCK_RELEASE,
                    .time = t,
                    .ref = scope->id,
                    .small = scope->small,
                    .a = scope->extra};
    return weft__otf2_write_event(w, &e);
}

/* Before closing SCOPE: a switch into the task it was opened in, when
 * another runs (a program that ended inside a task). Scalasca's analyzer
 * keeps each task's regions apart: a Leave in another task pops the wrong
 * stack, and an empty one stops it. The switch names the team of the
 * innermost team scope around (or the last switch's), and for the
 * implicit task the thread's number in that team. Returns the events
 * written: 0 or 1. */
static uint64_t switch_to_scope_task(weft_loc *loc, OTF2_EvtWriter *w, const weft_scope *scope,
                                     uint64_t t)
{
    if (scope->task_generation == loc->task.generation &&
        (scope->task_generation == 0 || scope->task_thread == loc->task.thread))
        return 0;
    const weft_scope *team = scope->kind == WEFT_SCOPE_TEAM ? scope : NULL;
    for (uint32_t i = loc->open.depth; !team && i > 0; i--)
        if (loc->open.items[i - 1].kind == WEFT_SCOPE_TEAM)
            team = &loc->open.items[i - 1];
    uint32_t team_id = team ? team->id : loc->task.team;
    uint32_t thread = scope->task_generation ? scope->task_thread : (team ? team->extra : 0);
    loc->task.team = team_id;
    loc->task.thread = scope->task_thread;
    loc->task.generation = scope->task_generation;
    weft_event e = {.kind = WEFT_EVENT_TASK_SWITCH,
                    .time = t,
                    .ref = team_id,
                    .a = thread,
                    .b = scope->task_generation};
    return weft__otf2_write_event(w, &e) == OTF2_SUCCESS;
}

/* COUNT enters and leaves of REGION at time t; returns the events written. */
static uint64_t write_visits(OTF2_EvtWriter *w, uint32_t region, uint32_t count, uint64_t t)
{
    const weft_event enter = {.kind = WEFT_EVENT_ENTER, .time = t, .ref = region};
    const weft_event leave = {.kind = WEFT_EVENT_LEAVE, .time = t, .ref = region};
    uint64_t written = 0;
    for (uint32_t i = 0; i < count; i++) {
        written += weft__otf2_write_event(w, &enter) == OTF2_SUCCESS;
        written += weft__otf2_write_event(w, &leave) == OTF2_SUCCESS;
    }
    return written;
}

/* Before closing SCOPE at the end: the barriers its thread's team has on
 * another thread and not on this one, entered and left at time t
 * (team_barriers.h). Returns the events written. */
static uint64_t add_missing_barriers(weft_loc *loc, OTF2_EvtWriter *w, const weft_scope *scope,
                                     uint64_t t)
{
    uint32_t region;
    uint32_t missing = weft__barriers_missing(loc, scope, &region);
    uint64_t written = write_visits(w, region, missing, t);
    if (missing)
        weft_log_verbose("thread %u: %u OpenMP barriers its team's other threads were in or "
                         "past at the end were added, so that every thread of the team has them",
                         loc->thread_number, missing);
    return written;
}

static void add_missing_run(weft_loc *loc, uint64_t t);

/* Closes, innermost first, the regions, teams, forks and locks still open
 * on loc at time t, no earlier than its last event (see open_scopes.h),
 * each in the task it was opened in, a team at the end with the barriers
 * its other threads have (team_barriers.h); returns how many it closed. */
static uint64_t close_open_scopes(weft_loc *loc, uint64_t t)
{
    uint64_t closed = 0, added = 0; /* closings; task switches and barriers before them */
    if (t < loc->last_time)
        t = loc->last_time;
    weft_scope scope;
    while (weft__scopes_pop(&loc->open, &scope)) {
        OTF2_EvtWriter *w = failed ? NULL : loc->evt_writer;
        if (w)
            added += switch_to_scope_task(loc, w, &scope, t);
        if (w)
            added += add_missing_barriers(loc, w, &scope, t);
        if (scope.kind == WEFT_SCOPE_FORK)
            add_missing_run(loc, t); /* the master's, inside its fork */
        if (w && close_scope(w, &scope, t) == OTF2_SUCCESS)
            closed++;
        if (scope.kind == WEFT_SCOPE_REGION && weft__barrier_region(scope.id))
            weft__barriers_left(&loc->open);
    }
    loc->task.generation = 0; /* the next thread on loc starts in its implicit task */
    loc->teams_open = 0;
    if (closed + added) {
        if (loc->events_written == 0)
            loc->first_time = t;
        loc->last_time = t;
    }
    loc->events_written += closed + added;
    loc->scopes_closed += closed;
    return closed;
}

/* At the end, on a location in no team (nothing more open, or the master
 * closing its fork): the run of its team that another thread began and it
 * had not yet (team_barriers.h), at time t; counted as begun. */
static void add_missing_run(weft_loc *loc, uint64_t t)
{
    uint32_t team, parallel, barriers, region;
    OTF2_EvtWriter *w = failed ? NULL : loc->evt_writer;
    if (!w || !weft__barriers_missing_run(loc, &team, &parallel, &barriers, &region))
        return;
    if (t < loc->last_time)
        t = loc->last_time;
    const weft_event begin[] = {{.kind = WEFT_EVENT_THREAD_TEAM_BEGIN, .time = t, .ref = team},
                                {.kind = WEFT_EVENT_ENTER, .time = t, .ref = parallel}};
    const weft_event end[] = {{.kind = WEFT_EVENT_LEAVE, .time = t, .ref = parallel},
                              {.kind = WEFT_EVENT_THREAD_TEAM_END, .time = t, .ref = team}};
    weft__barriers_team_begun(loc, team); /* counted: added once */
    uint64_t written = 0;
    for (int i = 0; i < 2; i++)
        written += weft__otf2_write_event(w, &begin[i]) == OTF2_SUCCESS;
    written += write_visits(w, region, barriers, t);
    for (int i = 0; i < 2; i++)
        written += weft__otf2_write_event(w, &end[i]) == OTF2_SUCCESS;
    if (loc->events_written == 0)
        loc->first_time = t;
    loc->last_time = t;
    loc->events_written += written;
    weft_log_verbose("thread %u: the run of its thread team another thread had begun at the end "
                     "was added, so that every thread of the team has it",
                     loc->thread_number);
}

static void finish_location(weft_loc *loc, void *context)
{
    weft_sink_totals *totals = context;
    /* Parked chunks first: they came before the ones written at the end. */
    loc->events_lost += weft__spill_replay(loc, write_chunk_locked);
    if (!failed && totals->archive_open && !loc->evt_writer)
        evt_writer_of(loc); /* an empty event file keeps readers happy */
    /* At the end: at the location's last event, or at the signal that
     * ended the program. */
    uint64_t t = end_cut != UINT64_MAX ? end_cut : loc->last_time;
    uint64_t closed = close_open_scopes(loc, t);
    add_missing_run(loc, t); /* after its own run, if it was in the one before */
    weft__scopes_free(&loc->open);
    weft__barriers_forget_runs(loc);
    end_program(loc);
    if (closed)
        weft_log_verbose("thread %u: closed %llu regions or teams left open at the end",
                         loc->thread_number, (unsigned long long)closed);
    if (loc->evt_writer && !broken) {
        OTF2_Archive_CloseEvtWriter(weft__archive_get(), loc->evt_writer);
        loc->evt_writer = NULL;
    }
    weft_registry_location_set_events(weft_defs_global(), loc->def, loc->events_written);
    add_property(loc, "weft::buffer_flushes", loc->chunks_handed_over);
    add_property(loc, "weft::buffer_waits", loc->waits);
    add_property(loc, "weft::buffer_wait_ticks", loc->wait_ticks);
    add_property(loc, "weft::events_lost", loc->events_lost);
    if (loc->scopes_closed)
        add_property(loc, "weft::scopes_closed_at_end", loc->scopes_closed);
    add_property(loc, "weft::threads", loc->threads);
    if (end_signal)
        add_property(loc, "weft::ended_by_signal", end_signal);

    if (loc->events_written) {
        if (totals->events_written == 0 || loc->first_time < totals->first_time)
            totals->first_time = loc->first_time;
        if (loc->last_time > totals->last_time)
            totals->last_time = loc->last_time;
    }
    totals->events_written += loc->events_written;
    totals->events_lost += loc->events_lost;
}

weft_sink_totals weft__sink_finish(bool force_archive)
{
    pthread_mutex_lock(&sink_mutex);
    weft__disk_reserve_release(); /* what closing writes has its room now */
    if (force_archive && !archive_tried) {
        archive_tried = true;
        if (weft__archive_open(config) != WEFT_OK)
            failed = true;
    }
    weft_sink_totals totals = {.archive_open = weft__archive_get() != NULL};
    /* Each location's writer is closed before the next one's file opens. */
    weft__otf2_files_closing();
    weft__barriers_plan();
    weft__loc_for_each(finish_location, &totals);
    weft__barriers_forget();
    weft__spill_close();
    totals.failed = failed || out_of_space;
    totals.broken = broken;
    pthread_mutex_unlock(&sink_mutex);
    return totals;
}
