/* SPDX-License-Identifier: BSD-3-Clause */
/* Reads an archive's events location by location, for every command that
 * reads traces: each location's local definitions (its id mappings and clock
 * offsets, which the OTF2 reader then applies), then its events in chunks,
 * with progress on stderr between them; only one location is open at any
 * time, so memory does not grow with the number of events. */
#include "trace_reader.h"

#include "escape.h"

#include <inttypes.h>
#include <stdio.h>

/* Events per OTF2_Reader_ReadLocalEvents call: a few milliseconds of work. */
#define CHUNK_EVENTS 1048576

/* Local definitions hold the mapping tables of a location; they are optional. */
static weft_status read_local_defs(weft_trace_reader *st, OTF2_Reader *reader, uint64_t location)
{
    OTF2_DefReader *defs = OTF2_Reader_GetDefReader(reader, location);
    if (!defs) {
        weft__trace_otf2_message[0] = '\0'; /* whatever OTF2 said about the missing file */
        return WEFT_OK;
    }
    uint64_t count = 0;
    OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &count);
    if (code != OTF2_SUCCESS) {
        weft__trace_report(st, code, DAMAGED,
                             "cannot read the definitions of location %" PRIu64 " in", location);
        return WEFT_ERR_OTF2;
    }
    if (!weft__trace_otf2_ok(st, OTF2_Reader_CloseDefReader(reader, defs),
                               "cannot close the local definitions of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

/* Reads the open event reader EVENTS to its end, in chunks, reporting
 * progress; no more than one event past the PROMISED count (the location's
 * definition's, when it gives one): a damaged event file made OTF2's reader
 * deliver events without end (weft check ran for half an hour), and
 * compare_count reports what is too many. */
static weft_status read_chunks(weft_trace_reader *st, OTF2_Reader *reader, OTF2_EvtReader *events,
                               uint64_t location, uint64_t promised, weft_cli_progress *progress)
{
    uint64_t read = 0;
    for (;;) {
        uint64_t count = 0, want = CHUNK_EVENTS;
        if (promised != OTF2_UNDEFINED_UINT64) {
            uint64_t left = promised > read ? promised - read : 0;
            want = left < CHUNK_EVENTS ? left + 1 : CHUNK_EVENTS;
        }
        OTF2_ErrorCode code = OTF2_Reader_ReadLocalEvents(reader, events, want, &count);
        st->event_count += count;
        read += count;
        if (code != OTF2_SUCCESS) {
            if (st->failure == WEFT_ERR_NO_MEMORY)
                weft__trace_report(st, OTF2_SUCCESS, NULL, "out of memory reading");
            if (st->failure != WEFT_OK)
                return st->failure; /* the handler stopped the reading */
            weft__trace_report(st, code, DAMAGED,
                               "cannot read the events of location %" PRIu64 " in", location);
            return WEFT_ERR_OTF2;
        }
        if (count < want || (promised != OTF2_UNDEFINED_UINT64 && read > promised))
            return WEFT_OK;
        weft__cli_progress_update(progress, st->event_count, st->current);
    }
}

/* The events read of the current location against what its definition
 * promises (unless it leaves that open). */
static weft_status compare_count(weft_trace_reader *st, uint64_t read)
{
    const location_def *def = &st->locations[st->current];
    if (def->event_count == OTF2_UNDEFINED_UINT64 || read == def->event_count)
        return WEFT_OK;
    if (st->count_differs)
        return st->count_differs(st, read, def->event_count);
    weft__cli_line(stderr,
                   "%s: %" PRIu64 " events read of location %" PRIu64 " in '%s', but its "
                   "definition promises %" PRIu64 "; " DAMAGED,
                   st->command ? st->command : "weft", read, def->ref, st->path, def->event_count);
    return WEFT_ERR_OTF2;
}

/* Reads one location's local definitions and events. A location whose
 * definition claims no events may lack an event file. */
static weft_status read_location(weft_trace_reader *st, OTF2_Reader *reader, bool have_def_files,
                                 const OTF2_EvtReaderCallbacks *cb,
                                 const weft_trace_location_hooks *hooks,
                                 weft_cli_progress *progress)
{
    const location_def *def = &st->locations[st->current];
    uint64_t location = def->ref;
    weft_status checked = weft__trace_validate_location(st, location);
    if (checked != WEFT_OK)
        return checked;
    if (have_def_files) {
        weft_status status = read_local_defs(st, reader, location);
        if (status != WEFT_OK)
            return status;
    }
    OTF2_EvtReader *events = OTF2_Reader_GetEvtReader(reader, location);
    if (!events && def->event_count == 0) {
        weft__trace_otf2_message[0] = '\0';
        return WEFT_OK;
    }
    if (!events) {
        weft__trace_report(st, OTF2_SUCCESS, DAMAGED,
                             "cannot open the events of location %" PRIu64 " in", location);
        return WEFT_ERR_OTF2;
    }
    if (!weft__trace_otf2_ok(st,
                             OTF2_Reader_RegisterEvtCallbacks(reader, events, cb, &st->delivery),
                             "cannot set up reading the events of"))
        return WEFT_ERR_OTF2;

    st->current_rank = def->rank;
    uint64_t before = st->event_count;
    weft_status status = hooks && hooks->begin ? hooks->begin(st) : WEFT_OK;
    if (status == WEFT_OK)
        status = read_chunks(st, reader, events, location, def->event_count, progress);
    if (status == WEFT_OK && hooks && hooks->end)
        status = hooks->end(st);
    if (status == WEFT_OK)
        status = compare_count(st, st->event_count - before);
    if (status != WEFT_OK)
        return status;
    if (!weft__trace_otf2_ok(st, OTF2_Reader_CloseEvtReader(reader, events),
                               "cannot close the events of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

/* The events the definitions announce, or 0 when some location leaves it open. */
static uint64_t announced_events(const weft_trace_reader *st)
{
    uint64_t total = 0;
    for (size_t i = 0; i < st->location_count; i++) {
        uint64_t count = st->locations[i].event_count;
        if (count == OTF2_UNDEFINED_UINT64 || total > UINT64_MAX - count)
            return 0;
        total += count;
    }
    return total;
}

static weft_status read_all(weft_trace_reader *st, OTF2_Reader *reader,
                            const OTF2_EvtReaderCallbacks *cb,
                            const weft_trace_location_hooks *hooks)
{
    for (size_t i = 0; i < st->location_count; i++) {
        if (!weft__trace_otf2_ok(st, OTF2_Reader_SelectLocation(reader, st->locations[i].ref),
                                   "cannot select the locations of"))
            return WEFT_ERR_OTF2;
    }
    bool have_def_files = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
    weft__trace_otf2_message[0] = '\0'; /* local definition files are optional */
    if (!weft__trace_otf2_ok(st, OTF2_Reader_OpenEvtFiles(reader),
                               "cannot open the event files of"))
        return WEFT_ERR_OTF2;

    weft_cli_progress progress;
    weft__cli_progress_start(&progress, st->progress, announced_events(st), st->location_count);
    progress.command = st->command;
    progress.what = st->progress_what;
    for (st->current = 0; st->current < st->location_count; st->current++) {
        weft__cli_progress_update(&progress, st->event_count, st->current);
        weft_status status = read_location(st, reader, have_def_files, cb, hooks, &progress);
        if (status != WEFT_OK) {
            weft__cli_progress_finish(&progress, st->event_count);
            return status;
        }
    }
    weft__cli_progress_finish(&progress, st->event_count);

    if (!weft__trace_otf2_ok(st, OTF2_Reader_CloseEvtFiles(reader),
                               "cannot close the event files of"))
        return WEFT_ERR_OTF2;
    if (have_def_files && !weft__trace_otf2_ok(st, OTF2_Reader_CloseDefFiles(reader),
                                                 "cannot close the definition files of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

/* Hands an event to the command's handler; a failure stops OTF2's reading.
 * Integer parameters are only read for weft recover, which copies every
 * record: no command has counted them, and the commands' results (weft
 * summary's events per region, weft check's time order) stay what they were
 * without them. */
static OTF2_CallbackCode to_handler(const weft_trace_event *e, void *context)
{
    weft_trace_reader *reader = context;
    if (e->kind == WEFT_TRACE_PARAMETER)
        return OTF2_CALLBACK_SUCCESS;
    weft_status status = reader->handler(reader, e);
    return status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : weft__trace_interrupt(reader, status);
}

weft_status weft__trace_read_events(weft_trace_reader *reader, OTF2_Reader *otf2_reader,
                                    weft_trace_handler *handler,
                                    const weft_trace_location_hooks *hooks)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!cb) {
        weft__trace_report(reader, OTF2_SUCCESS, NULL, "out of memory reading");
        return WEFT_ERR_NO_MEMORY;
    }
    reader->handler = handler;
    reader->delivery = (weft_trace_delivery){to_handler, reader};
    weft_status status = weft__trace_otf2_ok(reader, weft__trace_set_event_callbacks(cb),
                                             "cannot set up reading the events of")
                             ? WEFT_OK
                             : WEFT_ERR_OTF2;
    if (status == WEFT_OK)
        status = read_all(reader, otf2_reader, cb, hooks);
    OTF2_EvtReaderCallbacks_Delete(cb);
    return status;
}
