/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a leftover event file through the shadow archive: every OTF2
 * record weft writes becomes the weft_event it was written from (the
 * reverse of recorder/otf2_events.c), so that the new trace gets exactly
 * the records the old files hold (the MPI-IO and one-sided ones in
 * recover_read_io_rma.c). Records of other kinds do not occur in weft's
 * files; should one occur, it is counted as dropped. */
#include "recover.h"
#include "recover_read.h"

#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/recorder.h"

typedef struct reading {
    recover_state *st;
    size_t index;
    recover_event_fn *fn;
    void *context;
    weft_status status;
    uint64_t values[WEFT_METRIC_MAX_MEMBERS > 64 ? WEFT_METRIC_MAX_MEMBERS : 64];
    uint64_t *args;
    uint32_t args_capacity;
} reading;

OTF2_CallbackCode recover_deliver(void *user_data, uint64_t position, weft_event *e,
                                  OTF2_TimeStamp time)
{
    reading *r = user_data;
    e->time = time;
    r->st->locations[r->index].events_read++;
    r->status = r->fn(r->st, r->index, position, e, r->context);
    return r->status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

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

uint8_t recover_collective_of(OTF2_CollectiveOp op)
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

#define COMMON                                                                                     \
    OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *user_data,            \
        OTF2_AttributeList *attributes
#define UNUSED_COMMON (void)location, (void)attributes

static OTF2_CallbackCode on_enter(COMMON, OTF2_RegionRef region)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_ENTER, .ref = region};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_leave(COMMON, OTF2_RegionRef region)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_LEAVE, .ref = region};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_program_begin(COMMON, OTF2_StringRef name, uint32_t argc,
                                          const OTF2_StringRef *args)
{
    UNUSED_COMMON;
    reading *r = user_data;
    if (argc > r->args_capacity) {
        uint64_t *grown = realloc(r->args, argc * sizeof(*grown));
        if (!grown) {
            r->status = WEFT_ERR_NO_MEMORY;
            return OTF2_CALLBACK_INTERRUPT;
        }
        r->args = grown;
        r->args_capacity = argc;
    }
    for (uint32_t i = 0; i < argc; i++)
        r->args[i] = args[i];
    weft_event e = {
        .kind = WEFT_EVENT_PROGRAM_BEGIN, .ref = name, .value_count = argc, .values = r->args};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_program_end(COMMON, int64_t status)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_PROGRAM_END, .bytes = (uint64_t)status};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_fork(COMMON, OTF2_Paradigm paradigm, uint32_t threads)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_THREAD_FORK, .small = paradigm_of(paradigm), .ref = threads};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_join(COMMON, OTF2_Paradigm paradigm)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_THREAD_JOIN, .small = paradigm_of(paradigm)};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_team_begin(COMMON, OTF2_CommRef team)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_THREAD_TEAM_BEGIN, .ref = team};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_team_end(COMMON, OTF2_CommRef team)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_THREAD_TEAM_END, .ref = team};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode task(uint8_t kind, void *user_data, uint64_t position, OTF2_TimeStamp time,
                              OTF2_CommRef team, uint32_t thread, uint32_t generation,
                              uint32_t dependences)
{
    weft_event e = {
        .kind = kind, .ref = team, .a = thread, .b = generation, .attribute_string = dependences};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_task_create(COMMON, OTF2_CommRef team, uint32_t thread,
                                        uint32_t generation)
{
    (void)location;
    OTF2_StringRef dependences = WEFT_INVALID_ID;
    if (attributes &&
        OTF2_AttributeList_GetStringRef(attributes, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES,
                                        &dependences) != OTF2_SUCCESS)
        dependences = WEFT_INVALID_ID;
    return task(WEFT_EVENT_TASK_CREATE, user_data, position, time, team, thread, generation,
                dependences);
}

static OTF2_CallbackCode on_task_switch(COMMON, OTF2_CommRef team, uint32_t thread,
                                        uint32_t generation)
{
    UNUSED_COMMON;
    return task(WEFT_EVENT_TASK_SWITCH, user_data, position, time, team, thread, generation,
                WEFT_INVALID_ID);
}

static OTF2_CallbackCode on_task_complete(COMMON, OTF2_CommRef team, uint32_t thread,
                                          uint32_t generation)
{
    UNUSED_COMMON;
    return task(WEFT_EVENT_TASK_COMPLETE, user_data, position, time, team, thread, generation,
                WEFT_INVALID_ID);
}

static OTF2_CallbackCode on_acquire(COMMON, OTF2_Paradigm paradigm, uint32_t lock, uint32_t order)
{
    UNUSED_COMMON;
    weft_event e = {
        .kind = WEFT_EVENT_LOCK_ACQUIRE, .small = paradigm_of(paradigm), .ref = lock, .a = order};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_release(COMMON, OTF2_Paradigm paradigm, uint32_t lock, uint32_t order)
{
    UNUSED_COMMON;
    weft_event e = {
        .kind = WEFT_EVENT_LOCK_RELEASE, .small = paradigm_of(paradigm), .ref = lock, .a = order};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode message(uint8_t kind, void *user_data, uint64_t position,
                                 OTF2_TimeStamp time, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes, uint64_t request)
{
    weft_event e = {
        .kind = kind, .a = peer, .ref = comm, .b = tag, .bytes = bytes, .request = request};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_send(COMMON, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t bytes)
{
    UNUSED_COMMON;
    return message(WEFT_EVENT_MPI_SEND, user_data, position, time, peer, comm, tag, bytes, 0);
}

static OTF2_CallbackCode on_recv(COMMON, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t bytes)
{
    UNUSED_COMMON;
    return message(WEFT_EVENT_MPI_RECV, user_data, position, time, peer, comm, tag, bytes, 0);
}

static OTF2_CallbackCode on_isend(COMMON, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t request)
{
    UNUSED_COMMON;
    return message(WEFT_EVENT_MPI_ISEND, user_data, position, time, peer, comm, tag, bytes,
                   request);
}

static OTF2_CallbackCode on_irecv(COMMON, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t request)
{
    UNUSED_COMMON;
    return message(WEFT_EVENT_MPI_IRECV, user_data, position, time, peer, comm, tag, bytes,
                   request);
}

static OTF2_CallbackCode request(uint8_t kind, void *user_data, uint64_t position,
                                 OTF2_TimeStamp time, uint64_t id)
{
    weft_event e = {.kind = kind, .request = id};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_isend_complete(COMMON, uint64_t id)
{
    UNUSED_COMMON;
    return request(WEFT_EVENT_MPI_ISEND_COMPLETE, user_data, position, time, id);
}

static OTF2_CallbackCode on_irecv_request(COMMON, uint64_t id)
{
    UNUSED_COMMON;
    return request(WEFT_EVENT_MPI_IRECV_REQUEST, user_data, position, time, id);
}

static OTF2_CallbackCode on_request_test(COMMON, uint64_t id)
{
    UNUSED_COMMON;
    return request(WEFT_EVENT_MPI_REQUEST_TEST, user_data, position, time, id);
}

static OTF2_CallbackCode on_request_cancelled(COMMON, uint64_t id)
{
    UNUSED_COMMON;
    return request(WEFT_EVENT_MPI_REQUEST_CANCELLED, user_data, position, time, id);
}

static OTF2_CallbackCode on_collective_begin(COMMON)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_MPI_COLLECTIVE_BEGIN};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_collective_end(COMMON, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                           uint32_t root, uint64_t sent, uint64_t received)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_MPI_COLLECTIVE_END,
                    .small = recover_collective_of(op),
                    .ref = comm,
                    .a = root,
                    .bytes = sent,
                    .bytes_received = received};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_metric(COMMON, OTF2_MetricRef metric, uint8_t count,
                                   const OTF2_Type *types, const OTF2_MetricValue *values)
{
    UNUSED_COMMON;
    (void)types; /* weft writes unsigned 64-bit values only */
    reading *r = user_data;
    uint32_t n = count < WEFT_METRIC_MAX_MEMBERS ? count : WEFT_METRIC_MAX_MEMBERS;
    for (uint32_t i = 0; i < n; i++)
        r->values[i] = values[i].unsigned_int;
    weft_event e = {
        .kind = WEFT_EVENT_METRIC, .ref = metric, .value_count = n, .values = r->values};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_on_off(COMMON, OTF2_MeasurementMode mode)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_MEASUREMENT_ON_OFF, .small = mode == OTF2_MEASUREMENT_ON};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_flush(COMMON, OTF2_TimeStamp stop)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_BUFFER_FLUSH, .bytes = stop};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_parameter(COMMON, OTF2_ParameterRef parameter, int64_t value)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_PARAMETER, .ref = parameter, .bytes = (uint64_t)value};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_unknown(COMMON)
{
    UNUSED_COMMON;
    (void)time, (void)position;
    reading *r = user_data;
    r->st->locations[r->index].events_read++;
    r->st->locations[r->index].events_dropped++;
    return OTF2_CALLBACK_SUCCESS;
}

static bool set_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_ErrorCode codes[] = {
        OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown),
        OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter),
        OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave),
        OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin),
        OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end),
        OTF2_EvtReaderCallbacks_SetThreadForkCallback(cb, on_fork),
        OTF2_EvtReaderCallbacks_SetThreadJoinCallback(cb, on_join),
        OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin),
        OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end),
        OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, on_task_create),
        OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, on_task_switch),
        OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, on_task_complete),
        OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire),
        OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_release),
        OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send),
        OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv),
        OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend),
        OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv),
        OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete),
        OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request),
        OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test),
        OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled),
        OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_collective_begin),
        OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end),
        OTF2_EvtReaderCallbacks_SetMetricCallback(cb, on_metric),
        OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_on_off),
        OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_flush),
        OTF2_EvtReaderCallbacks_SetParameterIntCallback(cb, on_parameter),
    };
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (codes[i] != OTF2_SUCCESS)
            return false;
    }
    return recover_set_io_rma_callbacks(cb);
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
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", st->shadow);
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(quiet, NULL);
    reading r = {.st = st, .index = index, .fn = fn, .context = context, .status = WEFT_OK};
    OTF2_Reader *reader = OTF2_Reader_Open(anchor);
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    bool good = reader && cb && set_callbacks(cb) &&
                OTF2_Reader_SetSerialCollectiveCallbacks(reader) == OTF2_SUCCESS &&
                OTF2_Reader_SelectLocation(reader, loc->otf2_id) == OTF2_SUCCESS &&
                OTF2_Reader_OpenEvtFiles(reader) == OTF2_SUCCESS;
    OTF2_EvtReader *events = good ? OTF2_Reader_GetEvtReader(reader, loc->otf2_id) : NULL;
    good =
        good && events && OTF2_Reader_RegisterEvtCallbacks(reader, events, cb, &r) == OTF2_SUCCESS;
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
