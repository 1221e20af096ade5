/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a leftover event file through the shadow archive: the trace
 * reader's OTF2 event callbacks (tools/trace/trace_events.c, weft's only
 * ones) turn each record into a weft_trace_event, and to_weft_event makes
 * that the weft_event it was written from (the reverse of
 * recorder/otf2_events.c), so that the new trace gets exactly the records
 * the old files hold. Records of a kind no callback reads are passed over;
 * one OTF2 itself does not know (never in weft's files) is counted as
 * dropped. */
#include "recover.h"

#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_reader.h"
#include "weft/recorder.h"

typedef struct reading {
    weft_trace_delivery delivery; /* the event reader's user data: to deliver, with this */
    recover_state *st;
    size_t index;
    recover_event_fn *fn;
    void *context;
    weft_status status;
    uint64_t values[WEFT_METRIC_MAX_MEMBERS > 64 ? WEFT_METRIC_MAX_MEMBERS : 64];
    uint64_t *args;
    uint32_t args_capacity;
} reading;

static uint8_t paradigm_of(OTF2_Paradigm paradigm)
{
#define PARADIGM(name) OTF2_PARADIGM_##name,
    static const OTF2_Paradigm known[] = {WEFT_PARADIGM_LIST(PARADIGM)};
#undef PARADIGM
    for (uint8_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (known[i] == paradigm)
            return i;
    }
    return WEFT_PARADIGM_UNKNOWN;
}

static uint8_t collective_of(OTF2_CollectiveOp op)
{
#define OP(name) OTF2_COLLECTIVE_OP_##name,
    static const OTF2_CollectiveOp known[] = {WEFT_COLLECTIVE_LIST(OP)};
#undef OP
    for (uint8_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (known[i] == op)
            return i;
    }
    return WEFT_COLLECTIVE_BARRIER;
}

/* The weft_event kind of each record kind weft writes; 0 (WEFT_EVENT_NONE)
 * for the others. */
static const uint8_t kinds[] = {
    [WEFT_TRACE_ENTER] = WEFT_EVENT_ENTER,
    [WEFT_TRACE_LEAVE] = WEFT_EVENT_LEAVE,
    [WEFT_TRACE_PROGRAM_BEGIN] = WEFT_EVENT_PROGRAM_BEGIN,
    [WEFT_TRACE_PROGRAM_END] = WEFT_EVENT_PROGRAM_END,
    [WEFT_TRACE_FORK] = WEFT_EVENT_THREAD_FORK,
    [WEFT_TRACE_JOIN] = WEFT_EVENT_THREAD_JOIN,
    [WEFT_TRACE_TEAM_BEGIN] = WEFT_EVENT_THREAD_TEAM_BEGIN,
    [WEFT_TRACE_TEAM_END] = WEFT_EVENT_THREAD_TEAM_END,
    [WEFT_TRACE_TASK_CREATE] = WEFT_EVENT_TASK_CREATE,
    [WEFT_TRACE_TASK_SWITCH] = WEFT_EVENT_TASK_SWITCH,
    [WEFT_TRACE_TASK_COMPLETE] = WEFT_EVENT_TASK_COMPLETE,
    [WEFT_TRACE_LOCK_ACQUIRE] = WEFT_EVENT_LOCK_ACQUIRE,
    [WEFT_TRACE_LOCK_RELEASE] = WEFT_EVENT_LOCK_RELEASE,
    [WEFT_TRACE_SEND] = WEFT_EVENT_MPI_SEND,
    [WEFT_TRACE_ISEND] = WEFT_EVENT_MPI_ISEND,
    [WEFT_TRACE_RECV] = WEFT_EVENT_MPI_RECV,
    [WEFT_TRACE_IRECV] = WEFT_EVENT_MPI_IRECV,
    [WEFT_TRACE_IRECV_REQUEST] = WEFT_EVENT_MPI_IRECV_REQUEST,
    [WEFT_TRACE_ISEND_COMPLETE] = WEFT_EVENT_MPI_ISEND_COMPLETE,
    [WEFT_TRACE_REQUEST_TEST] = WEFT_EVENT_MPI_REQUEST_TEST,
    [WEFT_TRACE_REQUEST_CANCELLED] = WEFT_EVENT_MPI_REQUEST_CANCELLED,
    [WEFT_TRACE_COLLECTIVE_BEGIN] = WEFT_EVENT_MPI_COLLECTIVE_BEGIN,
    [WEFT_TRACE_COLLECTIVE_END] = WEFT_EVENT_MPI_COLLECTIVE_END,
    [WEFT_TRACE_METRIC] = WEFT_EVENT_METRIC,
    [WEFT_TRACE_MEASUREMENT_ON_OFF] = WEFT_EVENT_MEASUREMENT_ON_OFF,
    [WEFT_TRACE_BUFFER_FLUSH] = WEFT_EVENT_BUFFER_FLUSH,
    [WEFT_TRACE_PARAMETER] = WEFT_EVENT_PARAMETER,
    [WEFT_TRACE_IO_CREATE_HANDLE] = WEFT_EVENT_IO_CREATE_HANDLE,
    [WEFT_TRACE_IO_DESTROY_HANDLE] = WEFT_EVENT_IO_DESTROY_HANDLE,
    [WEFT_TRACE_IO_BEGIN] = WEFT_EVENT_IO_OPERATION_BEGIN,
    [WEFT_TRACE_IO_ISSUED] = WEFT_EVENT_IO_OPERATION_ISSUED,
    [WEFT_TRACE_IO_COMPLETE] = WEFT_EVENT_IO_OPERATION_COMPLETE,
    [WEFT_TRACE_IO_SEEK] = WEFT_EVENT_IO_SEEK,
    [WEFT_TRACE_RMA_WIN_CREATE] = WEFT_EVENT_RMA_WIN_CREATE,
    [WEFT_TRACE_RMA_WIN_DESTROY] = WEFT_EVENT_RMA_WIN_DESTROY,
    [WEFT_TRACE_RMA_COLLECTIVE_BEGIN] = WEFT_EVENT_RMA_COLLECTIVE_BEGIN,
    [WEFT_TRACE_RMA_COLLECTIVE_END] = WEFT_EVENT_RMA_COLLECTIVE_END,
    [WEFT_TRACE_RMA_GROUP_SYNC] = WEFT_EVENT_RMA_GROUP_SYNC,
    [WEFT_TRACE_RMA_REQUEST_LOCK] = WEFT_EVENT_RMA_REQUEST_LOCK,
    [WEFT_TRACE_RMA_ACQUIRE_LOCK] = WEFT_EVENT_RMA_ACQUIRE_LOCK,
    [WEFT_TRACE_RMA_RELEASE_LOCK] = WEFT_EVENT_RMA_RELEASE_LOCK,
    [WEFT_TRACE_RMA_SYNC] = WEFT_EVENT_RMA_SYNC,
    [WEFT_TRACE_RMA_PUT] = WEFT_EVENT_RMA_PUT,
    [WEFT_TRACE_RMA_GET] = WEFT_EVENT_RMA_GET,
    [WEFT_TRACE_RMA_ATOMIC] = WEFT_EVENT_RMA_ATOMIC,
    [WEFT_TRACE_RMA_OP_COMPLETE] = WEFT_EVENT_RMA_OP_COMPLETE_BLOCKING, /* only blocking */
};

/* A task creation's dependences: weft's attribute, WEFT_INVALID_ID without. */
static uint32_t dependences(const OTF2_AttributeList *attributes)
{
    OTF2_StringRef string = WEFT_INVALID_ID;
    if (attributes &&
        OTF2_AttributeList_GetStringRef(attributes, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES,
                                        &string) != OTF2_SUCCESS)
        string = WEFT_INVALID_ID;
    return string;
}

bool recover_reserve(uint64_t **values, uint32_t *capacity, uint32_t count)
{
    if (count <= *capacity)
        return true;
    uint64_t *grown = realloc(*values, count * sizeof(*grown));
    if (!grown)
        return false;
    *values = grown;
    *capacity = count;
    return true;
}

/* The weft_event T was written from, in *E (fields as weft/event.h; where
 * both name a field alike it is copied, the rest per kind). WEFT_ERR_NOT_FOUND
 * for a record weft does not write: such records are passed over uncounted,
 * as OTF2 passes over a record no callback is registered for. */
static weft_status to_weft_event(reading *r, const weft_trace_event *t, weft_event *e)
{
    uint8_t kind = (size_t)t->kind < sizeof(kinds) ? kinds[t->kind] : WEFT_EVENT_NONE;
    if (kind == WEFT_EVENT_NONE ||
        (t->kind == WEFT_TRACE_RMA_OP_COMPLETE && t->op != WEFT_TRACE_RMA_COMPLETE_BLOCKING))
        return WEFT_ERR_NOT_FOUND;
    *e = (weft_event){.kind = kind,
                      .time = t->time,
                      .ref = (uint32_t)t->ref,
                      .small = t->op,
                      .bytes = t->bytes,
                      .bytes_received = t->received,
                      .request = t->request};
    switch (t->kind) {
    case WEFT_TRACE_PROGRAM_BEGIN: /* its argument strings, widened */
        if (!recover_reserve(&r->args, &r->args_capacity, t->argc))
            return WEFT_ERR_NO_MEMORY;
        for (uint32_t i = 0; i < t->argc; i++)
            r->args[i] = t->args[i];
        e->value_count = t->argc;
        e->values = r->args;
        break;
    case WEFT_TRACE_PROGRAM_END:
    case WEFT_TRACE_PARAMETER:
        e->bytes = (uint64_t)t->value;
        break;
    case WEFT_TRACE_FORK:
        e->small = paradigm_of(t->paradigm);
        e->ref = t->number; /* the requested team size */
        break;
    case WEFT_TRACE_TASK_CREATE:
    case WEFT_TRACE_TASK_SWITCH:
    case WEFT_TRACE_TASK_COMPLETE:
        e->a = t->number;
        e->b = t->generation;
        e->attribute_string =
            t->kind == WEFT_TRACE_TASK_CREATE ? dependences(t->attributes) : WEFT_INVALID_ID;
        break;
    case WEFT_TRACE_JOIN:
    case WEFT_TRACE_LOCK_ACQUIRE:
    case WEFT_TRACE_LOCK_RELEASE:
        e->small = paradigm_of(t->paradigm);
        e->a = t->number; /* a lock's acquisition order; a join: none (0) */
        break;
    case WEFT_TRACE_SEND:
    case WEFT_TRACE_ISEND:
    case WEFT_TRACE_RECV:
    case WEFT_TRACE_IRECV:
        e->a = t->peer;
        e->b = t->tag;
        break;
    case WEFT_TRACE_COLLECTIVE_END:
    case WEFT_TRACE_RMA_COLLECTIVE_END:
        e->small = collective_of(t->op);
        e->a = t->root;
        e->b = t->number; /* RMA: the sync level; MPI: none (0) */
        break;
    case WEFT_TRACE_METRIC: {
        uint32_t n = t->number < WEFT_METRIC_MAX_MEMBERS ? t->number : WEFT_METRIC_MAX_MEMBERS;
        for (uint32_t i = 0; i < n; i++)
            r->values[i] = t->values[i].unsigned_int; /* weft writes unsigned 64-bit values only */
        e->value_count = n;
        e->values = r->values;
        break;
    }
    case WEFT_TRACE_MEASUREMENT_ON_OFF:
        e->small = t->op == OTF2_MEASUREMENT_ON;
        break;
    case WEFT_TRACE_IO_CREATE_HANDLE:
        e->a = t->number;
        e->b = t->status_flags;
        break;
    case WEFT_TRACE_IO_BEGIN:
    case WEFT_TRACE_RMA_GROUP_SYNC:
        e->a = t->number; /* operation flags; the group */
        break;
    case WEFT_TRACE_IO_SEEK:
        e->bytes = (uint64_t)t->value;
        e->bytes_received = t->bytes;
        break;
    case WEFT_TRACE_RMA_REQUEST_LOCK:
    case WEFT_TRACE_RMA_ACQUIRE_LOCK:
    case WEFT_TRACE_RMA_RELEASE_LOCK:
    case WEFT_TRACE_RMA_SYNC:
    case WEFT_TRACE_RMA_PUT:
    case WEFT_TRACE_RMA_GET:
    case WEFT_TRACE_RMA_ATOMIC:
        e->a = t->peer;
        break;
    default:
        break;
    }
    return WEFT_OK;
}

/* The trace reader's callbacks hand every record here. */
static OTF2_CallbackCode deliver(const weft_trace_event *t, void *context)
{
    reading *r = context;
    weft_event e;
    weft_status status = to_weft_event(r, t, &e);
    if (status == WEFT_ERR_NOT_FOUND)
        return OTF2_CALLBACK_SUCCESS;
    if (status == WEFT_OK) {
        r->st->locations[r->index].events_read++;
        status = r->fn(r->st, r->index, t->position, &e, r->context);
    }
    r->status = status;
    return status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

/* A record OTF2 does not know. */
static OTF2_CallbackCode on_unknown(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t position, void *user_data,
                                    OTF2_AttributeList *attributes)
{
    (void)location, (void)time, (void)position, (void)attributes;
    const weft_trace_delivery *d = user_data;
    reading *r = d->context;
    r->st->locations[r->index].events_read++;
    r->st->locations[r->index].events_dropped++;
    return OTF2_CALLBACK_SUCCESS;
}

static bool set_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    return weft__trace_set_event_callbacks(cb) == OTF2_SUCCESS &&
           OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown) == OTF2_SUCCESS;
}

/* OTF2 reports what it cannot read through its error callback; recover
 * says in its report where a file was damaged instead. */
static OTF2_ErrorCode quiet(void *user_data, const char *file, uint64_t line, const char *function,
                            OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)user_data, (void)file, (void)line, (void)function, (void)fmt, (void)va;
    return code;
}

weft_status recover_read_location(recover_state *st, size_t index, recover_event_fn *fn,
                                  void *context)
{
    recover_location *loc = &st->locations[index];
    loc->events_read = 0;
    if (!loc->has_file)
        return WEFT_OK;
    char anchor[4400];
    snprintf(anchor, sizeof(anchor), "%s/" WEFT_TRACE_ANCHOR_NAME, st->shadow);
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(quiet, NULL);
    reading r = {.st = st, .index = index, .fn = fn, .context = context, .status = WEFT_OK};
    r.delivery = (weft_trace_delivery){deliver, &r};
    OTF2_Reader *reader = OTF2_Reader_Open(anchor);
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    bool good = reader && cb && set_callbacks(cb) &&
                OTF2_Reader_SetSerialCollectiveCallbacks(reader) == OTF2_SUCCESS &&
                OTF2_Reader_SelectLocation(reader, loc->otf2_id) == OTF2_SUCCESS &&
                OTF2_Reader_OpenEvtFiles(reader) == OTF2_SUCCESS;
    OTF2_EvtReader *events = good ? OTF2_Reader_GetEvtReader(reader, loc->otf2_id) : NULL;
    good = good && events &&
           OTF2_Reader_RegisterEvtCallbacks(reader, events, cb, &r.delivery) == OTF2_SUCCESS;
    if (good) {
        uint64_t count = 0;
        OTF2_ErrorCode code =
            OTF2_Reader_ReadLocalEvents(reader, events, loc->events_on_disk, &count);
        /* A record OTF2 cannot read ends what is usable of the file. */
        if (code != OTF2_SUCCESS && r.status == WEFT_OK)
            loc->damaged = true;
        OTF2_Reader_CloseEvtReader(reader, events);
        OTF2_Reader_CloseEvtFiles(reader);
    } else if (r.status == WEFT_OK) {
        loc->damaged = true;
    }
    if (cb)
        OTF2_EvtReaderCallbacks_Delete(cb);
    if (reader)
        OTF2_Reader_Close(reader);
    OTF2_Error_RegisterCallback(previous, NULL);
    free(r.args);
    return r.status;
}
