/* SPDX-License-Identifier: BSD-3-Clause */
/* The one place that knows OTF2's event callbacks: each record of a kind
 * the tools read becomes a weft_trace_event for the reader's handler, so
 * that weft summary, weft check and every later reader handle events of one
 * shape instead of each writing its own OTF2 callbacks. */
#include "trace_reader.h"

/* Hands e to the handler; a failure stops OTF2's reading. */
static OTF2_CallbackCode deliver(void *user_data, weft_trace_event *e, OTF2_TimeStamp time,
                                 uint64_t position)
{
    weft_trace_reader *reader = user_data;
    e->time = time;
    e->position = position;
    weft_status status = reader->handler(reader, e);
    return status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : weft__trace_interrupt(reader, status);
}

/* Every callback below ignores the location (the reader knows it) and the
 * attribute list. */
#define UNUSED_COMMON (void)location, (void)attributes

static OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_ENTER, .ref = region};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_LEAVE, .ref = region};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_program_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *user_data,
                                          OTF2_AttributeList *attributes, OTF2_StringRef name,
                                          uint32_t argc, const OTF2_StringRef *args)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_PROGRAM_BEGIN, .ref = name, .argc = argc, .args = args};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *user_data,
                                        OTF2_AttributeList *attributes, int64_t exit_status)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_PROGRAM_END, .exit_status = exit_status};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes,
                                 OTF2_Paradigm paradigm, uint32_t threads)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_FORK, .paradigm = paradigm, .number = threads};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes,
                                 OTF2_Paradigm paradigm)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_JOIN, .paradigm = paradigm};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                       uint64_t position, void *user_data,
                                       OTF2_AttributeList *attributes, OTF2_CommRef team)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_TEAM_BEGIN, .ref = team};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                     uint64_t position, void *user_data,
                                     OTF2_AttributeList *attributes, OTF2_CommRef team)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_TEAM_END, .ref = team};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode task(weft_trace_kind kind, void *user_data, OTF2_TimeStamp time,
                              uint64_t position, OTF2_CommRef team, uint32_t thread,
                              uint32_t generation)
{
    weft_trace_event e = {.kind = kind, .ref = team, .number = thread, .generation = generation};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_task_create(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *user_data,
                                        OTF2_AttributeList *attributes, OTF2_CommRef team,
                                        uint32_t thread, uint32_t generation)
{
    UNUSED_COMMON;
    return task(WEFT_TRACE_TASK_CREATE, user_data, time, position, team, thread, generation);
}

static OTF2_CallbackCode on_task_switch(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *user_data,
                                        OTF2_AttributeList *attributes, OTF2_CommRef team,
                                        uint32_t thread, uint32_t generation)
{
    UNUSED_COMMON;
    return task(WEFT_TRACE_TASK_SWITCH, user_data, time, position, team, thread, generation);
}

static OTF2_CallbackCode on_task_complete(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *user_data,
                                          OTF2_AttributeList *attributes, OTF2_CommRef team,
                                          uint32_t thread, uint32_t generation)
{
    UNUSED_COMMON;
    return task(WEFT_TRACE_TASK_COMPLETE, user_data, time, position, team, thread, generation);
}

static OTF2_CallbackCode lock(weft_trace_kind kind, void *user_data, OTF2_TimeStamp time,
                              uint64_t position, OTF2_Paradigm paradigm, uint32_t lock_id,
                              uint32_t order)
{
    weft_trace_event e = {.kind = kind, .paradigm = paradigm, .ref = lock_id, .number = order};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_acquire(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t position, void *user_data,
                                    OTF2_AttributeList *attributes, OTF2_Paradigm paradigm,
                                    uint32_t lock_id, uint32_t order)
{
    UNUSED_COMMON;
    return lock(WEFT_TRACE_LOCK_ACQUIRE, user_data, time, position, paradigm, lock_id, order);
}

static OTF2_CallbackCode on_release(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t position, void *user_data,
                                    OTF2_AttributeList *attributes, OTF2_Paradigm paradigm,
                                    uint32_t lock_id, uint32_t order)
{
    UNUSED_COMMON;
    return lock(WEFT_TRACE_LOCK_RELEASE, user_data, time, position, paradigm, lock_id, order);
}

static OTF2_CallbackCode message(weft_trace_kind kind, void *user_data, OTF2_TimeStamp time,
                                 uint64_t position, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t bytes, uint64_t request)
{
    weft_trace_event e = {
        .kind = kind, .peer = peer, .ref = comm, .tag = tag, .bytes = bytes, .request = request};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_send(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    UNUSED_COMMON;
    return message(WEFT_TRACE_SEND, user_data, time, position, receiver, comm, tag, bytes, 0);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t request)
{
    UNUSED_COMMON;
    return message(WEFT_TRACE_ISEND, user_data, time, position, receiver, comm, tag, bytes,
                   request);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    UNUSED_COMMON;
    return message(WEFT_TRACE_RECV, user_data, time, position, sender, comm, tag, bytes, 0);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
{
    UNUSED_COMMON;
    return message(WEFT_TRACE_IRECV, user_data, time, position, sender, comm, tag, bytes,
                   request);
}

static OTF2_CallbackCode request(weft_trace_kind kind, void *user_data, OTF2_TimeStamp time,
                                 uint64_t position, uint64_t request_id)
{
    weft_trace_event e = {.kind = kind, .request = request_id};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *user_data,
                                          OTF2_AttributeList *attributes, uint64_t request_id)
{
    UNUSED_COMMON;
    return request(WEFT_TRACE_IRECV_REQUEST, user_data, time, position, request_id);
}

static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           uint64_t position, void *user_data,
                                           OTF2_AttributeList *attributes, uint64_t request_id)
{
    UNUSED_COMMON;
    return request(WEFT_TRACE_ISEND_COMPLETE, user_data, time, position, request_id);
}

static OTF2_CallbackCode on_request_test(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         uint64_t position, void *user_data,
                                         OTF2_AttributeList *attributes, uint64_t request_id)
{
    UNUSED_COMMON;
    return request(WEFT_TRACE_REQUEST_TEST, user_data, time, position, request_id);
}

static OTF2_CallbackCode on_request_cancelled(OTF2_LocationRef location, OTF2_TimeStamp time,
                                              uint64_t position, void *user_data,
                                              OTF2_AttributeList *attributes, uint64_t request_id)
{
    UNUSED_COMMON;
    return request(WEFT_TRACE_REQUEST_CANCELLED, user_data, time, position, request_id);
}

static OTF2_CallbackCode on_collective_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                             uint64_t position, void *user_data,
                                             OTF2_AttributeList *attributes)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_COLLECTIVE_BEGIN};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_collective_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           uint64_t position, void *user_data,
                                           OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                           OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                           uint64_t received)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_COLLECTIVE_END,
                          .op = op,
                          .ref = comm,
                          .root = root,
                          .bytes = sent,
                          .received = received};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_nonblocking_collective(OTF2_LocationRef location, OTF2_TimeStamp time,
                                                   uint64_t position, void *user_data,
                                                   OTF2_AttributeList *attributes,
                                                   OTF2_CollectiveOp op, OTF2_CommRef comm,
                                                   uint32_t root, uint64_t sent, uint64_t received,
                                                   uint64_t request_id)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_NONBLOCKING_COLLECTIVE_END,
                          .op = op,
                          .ref = comm,
                          .root = root,
                          .bytes = sent,
                          .received = received,
                          .request = request_id};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef location, OTF2_TimeStamp time,
                                   uint64_t position, void *user_data,
                                   OTF2_AttributeList *attributes, OTF2_MetricRef metric,
                                   uint8_t count, const OTF2_Type *types,
                                   const OTF2_MetricValue *values)
{
    UNUSED_COMMON;
    (void)count, (void)types, (void)values;
    weft_trace_event e = {.kind = WEFT_TRACE_METRIC, .ref = metric};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_on_off(OTF2_LocationRef location, OTF2_TimeStamp time,
                                   uint64_t position, void *user_data,
                                   OTF2_AttributeList *attributes, OTF2_MeasurementMode mode)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_MEASUREMENT_ON_OFF, .op = mode};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_flush(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_TimeStamp stop)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_BUFFER_FLUSH, .bytes = stop};
    return deliver(user_data, &e, time, position);
}

weft_status weft__trace_set_callbacks(weft_trace_reader *reader, OTF2_EvtReaderCallbacks *cb)
{
    OTF2_ErrorCode codes[] = {
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
        OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend),
        OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv),
        OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv),
        OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request),
        OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete),
        OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test),
        OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled),
        OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_collective_begin),
        OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end),
        OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb,
                                                                         on_nonblocking_collective),
        OTF2_EvtReaderCallbacks_SetMetricCallback(cb, on_metric),
        OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_on_off),
        OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_flush),
        weft__trace_set_io_rma_callbacks(cb),
    };
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (!weft__trace_otf2_ok(reader, codes[i], "cannot set up reading the events of"))
            return WEFT_ERR_OTF2;
    }
    return WEFT_OK;
}
