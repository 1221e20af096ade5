/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace writer of weft/trace_writer.h: the recorder's archive
 * (archive.c) and event records (otf2_events.c), driven by a caller that
 * owns the definitions and the events. */
#include "weft/trace_writer.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "archive.h"
#include "otf2_events.h"
#include "weft/alloc.h"
#include "weft/definitions_otf2.h"
#include "weft/log.h"
#include "weft/program.h"

struct weft_trace_writer {
    weft_registry *reg;
    char *dir;
    OTF2_EvtWriter **writers; /* by location id, opened on first use */
    uint64_t *events;         /* written, by location id */
    uint64_t *last_time;      /* of the last event written, by location id */
    uint32_t capacity;
    weft_program program;
    bool has_program;
    uint32_t *object_refs; /* OTF2 ref by object id, for MPI-IO and RMA events */
    uint32_t object_count;
};

weft_status weft_trace_writer_open(const char *dir, weft_trace_writer **out)
{
    *out = NULL;
    struct stat st;
    if (!dir || !*dir)
        return WEFT_ERR_INVALID;
    if (lstat(dir, &st) == 0) {
        weft_log_error("'%s' exists; the trace needs a new directory", dir);
        return WEFT_ERR_EXISTS;
    }
    weft_trace_writer *w = weft_calloc(1, sizeof(*w));
    if (w)
        w->reg = weft_registry_create();
    if (w && w->reg)
        w->dir = weft_alloc(strlen(dir) + 1);
    if (!w || !w->reg || !w->dir) {
        if (w)
            weft_registry_destroy(w->reg);
        weft_free(w);
        weft_log_error("out of memory opening the trace '%s'", dir);
        return WEFT_ERR_NO_MEMORY;
    }
    strcpy(w->dir, dir);
    weft_config cfg = {.experiment_directory = dir};
    weft_status status = weft__archive_open(&cfg); /* reports its failures */
    if (status != WEFT_OK) {
        weft_registry_destroy(w->reg);
        weft_free(w->dir);
        weft_free(w);
        return status;
    }
    *out = w;
    return WEFT_OK;
}

weft_registry *weft_trace_writer_registry(weft_trace_writer *w)
{
    return w->reg;
}

static bool room_for(weft_trace_writer *w, uint32_t id)
{
    if (id < w->capacity)
        return true;
    uint32_t capacity = w->capacity ? w->capacity : 16;
    while (capacity <= id)
        capacity *= 2;
    OTF2_EvtWriter **writers = weft_realloc(w->writers, capacity * sizeof(*writers));
    if (writers)
        w->writers = writers;
    uint64_t *events = writers ? weft_realloc(w->events, capacity * sizeof(*events)) : NULL;
    if (events)
        w->events = events;
    uint64_t *last = events ? weft_realloc(w->last_time, capacity * sizeof(*last)) : NULL;
    if (!last)
        return false;
    w->last_time = last;
    memset(w->writers + w->capacity, 0, (capacity - w->capacity) * sizeof(*writers));
    memset(w->events + w->capacity, 0, (capacity - w->capacity) * sizeof(*events));
    memset(w->last_time + w->capacity, 0, (capacity - w->capacity) * sizeof(*last));
    w->capacity = capacity;
    return true;
}

static OTF2_EvtWriter *writer_of(weft_trace_writer *w, weft_location loc)
{
    weft_location_def def;
    if (!room_for(w, loc.id) || weft_registry_location_get(w->reg, loc, &def) != WEFT_OK)
        return NULL;
    if (!w->writers[loc.id])
        w->writers[loc.id] =
            OTF2_Archive_GetEvtWriter(weft__archive_get(), weft_location_otf2_id(&def));
    return w->writers[loc.id];
}

weft_status weft_trace_writer_program(weft_trace_writer *w, uint32_t argc, const char *const *argv)
{
    weft_program_free(&w->program);
    weft_status st = weft_program_define(w->reg, argc, argv, &w->program);
    w->has_program = st == WEFT_OK;
    return st;
}

static weft_status write_event(weft_trace_writer *w, OTF2_EvtWriter *writer, weft_location loc,
                               const weft_event *e)
{
    OTF2_ErrorCode code = weft__otf2_write_event(writer, e);
    if (code != OTF2_SUCCESS) {
        weft_log_error("writing an event into '%s' failed: %s (%s)", w->dir,
                       OTF2_Error_GetName(code), OTF2_Error_GetDescription(code));
        return WEFT_ERR_OTF2;
    }
    w->events[loc.id]++;
    w->last_time[loc.id] = e->time;
    return WEFT_OK;
}

static bool is_master(weft_trace_writer *w, weft_location loc)
{
    weft_location_def def;
    return w->has_program && weft_registry_location_get(w->reg, loc, &def) == WEFT_OK &&
           def.thread_number == 0;
}

/* MPI-IO and RMA events name objects by registry id and a group sync its
 * communicator; OTF2 names them by the refs the definitions get (each
 * object kind numbered from 0, a communicator's group), as an MPI rank's
 * local definitions map them at the end of a recording. */
static weft_status to_otf2_refs(weft_trace_writer *w, weft_event *e)
{
    uint32_t count = weft_registry_object_count(w->reg);
    if (count != w->object_count) {
        uint32_t *refs = weft_realloc(w->object_refs, (count ? count : 1) * sizeof(*refs));
        if (!refs) {
            weft_log_error("out of memory writing the trace '%s'", w->dir);
            return WEFT_ERR_NO_MEMORY;
        }
        weft_defs_otf2_object_refs(w->reg, refs);
        w->object_refs = refs;
        w->object_count = count;
    }
    if (e->kind != WEFT_EVENT_RMA_COLLECTIVE_BEGIN && e->ref < count)
        e->ref = w->object_refs[e->ref];
    if (e->kind == WEFT_EVENT_RMA_GROUP_SYNC)
        e->a = weft_defs_otf2_comm_group(w->reg, (weft_comm){e->a});
    return WEFT_OK;
}

weft_status weft_trace_writer_event(weft_trace_writer *w, weft_location loc, const weft_event *e)
{
    weft_event with_refs;
    if (WEFT_EVENT_IS_IO_RMA(e->kind)) {
        with_refs = *e;
        weft_status st = to_otf2_refs(w, &with_refs);
        if (st != WEFT_OK)
            return st;
        e = &with_refs;
    }
    OTF2_EvtWriter *writer = writer_of(w, loc);
    if (!writer) {
        weft_log_error("no OTF2 event writer for location %u of '%s'", loc.id, w->dir);
        return WEFT_ERR_OTF2;
    }
    if (w->events[loc.id] == 0 && is_master(w, loc)) {
        weft_event begin = {.kind = WEFT_EVENT_PROGRAM_BEGIN,
                            .time = e->time,
                            .ref = w->program.name.id,
                            .value_count = w->program.argument_count,
                            .values = w->program.arguments};
        weft_status st = write_event(w, writer, loc, &begin);
        if (st != WEFT_OK)
            return st;
    }
    return write_event(w, writer, loc, e);
}

/* A master thread's events end with the program's end. */
static void end_program(weft_trace_writer *w, OTF2_EvtWriter *writer, weft_location loc)
{
    if (loc.id >= w->capacity || w->events[loc.id] == 0 || !is_master(w, loc))
        return;
    weft_event end = {.kind = WEFT_EVENT_PROGRAM_END,
                      .time = w->last_time[loc.id],
                      .bytes = WEFT_EXIT_STATUS_UNKNOWN};
    write_event(w, writer, loc, &end);
}

/* Closes the event writers; every location of the registry gets an event
 * file, empty if it had no event (readers expect one). */
static void close_writers(weft_trace_writer *w)
{
    uint32_t locations = weft_registry_location_count(w->reg);
    for (uint32_t id = 0; id < locations; id++) {
        OTF2_EvtWriter *writer = writer_of(w, (weft_location){id});
        if (writer) {
            end_program(w, writer, (weft_location){id});
            OTF2_Archive_CloseEvtWriter(weft__archive_get(), writer);
        }
        weft_registry_location_set_events(w->reg, (weft_location){id},
                                          id < w->capacity ? w->events[id] : 0);
    }
}

static void free_writer(weft_trace_writer *w)
{
    weft_registry_destroy(w->reg);
    weft_program_free(&w->program);
    weft_free(w->writers);
    weft_free(w->events);
    weft_free(w->last_time);
    weft_free(w->object_refs);
    weft_free(w->dir);
    weft_free(w);
}

weft_status weft_trace_writer_close(weft_trace_writer *w, const weft_clock_properties *clock)
{
    close_writers(w);
    weft_status status = weft__archive_close(w->reg, w->reg, clock, NULL);
    free_writer(w);
    return status;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

void weft_trace_writer_discard(weft_trace_writer *w)
{
    close_writers(w);
    OTF2_Archive_Close(weft__archive_get()); /* no definitions: it is removed */
    weft__archive_forget();
    if (nftw(w->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
        weft_log_error("cannot remove the partial trace '%s': %s", w->dir, strerror(errno));
    free_writer(w);
}
