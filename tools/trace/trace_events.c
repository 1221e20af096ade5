/* SPDX-License-Identifier: BSD-3-Clause */
/* weft's one set of OTF2 event callbacks: each record of a kind the tools
 * tell apart (trace_reader.h) becomes a weft_trace_event for the
 * weft_trace_delivery its event reader was registered with. weft summary,
 * check and view get them through trace_locations.c, weft recover through
 * its reader of leftover event files, so that no command writes OTF2
 * callbacks of its own. Each callback only moves the record's fields into
 * the event; what an event means is its reader's business. */
#include "trace_reader.h"

/* What every event callback gets from OTF2, and the same handed on. */
#define COMMON                                                                                     \
    OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *user_data,            \
        OTF2_AttributeList *attributes
#define PASS location, time, position, user_data, attributes

/* Hands E, at the record's time and position, to the delivery. The reader
 * knows the location. */
static OTF2_CallbackCode deliver(weft_trace_event e, COMMON)
{
    (void)location;
    const weft_trace_delivery *d = user_data;
    e.time = time;
    e.position = position;
    e.attributes = attributes;
    return d->deliver(&e, d->context);
}

/* A record with one field besides the common ones, as an event of KIND
 * with FIELD set. */
#define ONE_FIELD(name, kind_, type, field)                                                        \
    static OTF2_CallbackCode name(COMMON, type value)                                              \
    {                                                                                              \
        return deliver((weft_trace_event){.kind = kind_, .field = value}, PASS);                   \
    }

/* ---- the shapes several records share ---------------------------------------------- */

static weft_trace_event task(weft_trace_kind kind, OTF2_CommRef team, uint32_t thread,
                             uint32_t generation)
{
    return (weft_trace_event){
        .kind = kind, .ref = team, .number = thread, .generation = generation};
}

static weft_trace_event message(weft_trace_kind kind, uint32_t peer, OTF2_CommRef comm,
                                uint32_t tag, uint64_t bytes, uint64_t request)
{
    return (weft_trace_event){
        .kind = kind, .peer = peer, .ref = comm, .tag = tag, .bytes = bytes, .request = request};
}

/* A collective's end, MPI's or RMA's; REF is the communicator or the window. */
static weft_trace_event collective(weft_trace_kind kind, OTF2_CollectiveOp op, uint64_t ref,
                                   uint32_t root, uint64_t sent, uint64_t received)
{
    return (weft_trace_event){
        .kind = kind, .op = op, .ref = ref, .root = root, .bytes = sent, .received = received};
}

static weft_trace_event thread_lock(weft_trace_kind kind, OTF2_Paradigm paradigm, uint32_t lock_id,
                                    uint32_t order)
{
    return (weft_trace_event){.kind = kind, .paradigm = paradigm, .ref = lock_id, .number = order};
}

static weft_trace_event rma_lock(weft_trace_kind kind, OTF2_RmaWinRef win, uint32_t remote,
                                 uint64_t id, OTF2_LockType type)
{
    return (weft_trace_event){
        .kind = kind, .ref = win, .peer = remote, .request = id, .op = (uint8_t)type};
}

static weft_trace_event transfer(weft_trace_kind kind, OTF2_RmaWinRef win, uint32_t remote,
                                 uint64_t bytes, uint64_t id)
{
    return (weft_trace_event){
        .kind = kind, .ref = win, .peer = remote, .bytes = bytes, .request = id};
}

/* ---- regions, program, threads, tasks, locks --------------------------------------- */

ONE_FIELD(on_enter, WEFT_TRACE_ENTER, OTF2_RegionRef, ref)
ONE_FIELD(on_leave, WEFT_TRACE_LEAVE, OTF2_RegionRef, ref)

static OTF2_CallbackCode on_program_begin(COMMON, OTF2_StringRef name, uint32_t argc,
                                          const OTF2_StringRef *args)
{
    weft_trace_event e = {
        .kind = WEFT_TRACE_PROGRAM_BEGIN, .ref = name, .argc = argc, .args = args};
    return deliver(e, PASS);
}

ONE_FIELD(on_program_end, WEFT_TRACE_PROGRAM_END, int64_t, value)

static OTF2_CallbackCode on_fork(COMMON, OTF2_Paradigm paradigm, uint32_t threads)
{
    weft_trace_event e = {.kind = WEFT_TRACE_FORK, .paradigm = paradigm, .number = threads};
    return deliver(e, PASS);
}

ONE_FIELD(on_join, WEFT_TRACE_JOIN, OTF2_Paradigm, paradigm)
ONE_FIELD(on_team_begin, WEFT_TRACE_TEAM_BEGIN, OTF2_CommRef, ref)
ONE_FIELD(on_team_end, WEFT_TRACE_TEAM_END, OTF2_CommRef, ref)

static OTF2_CallbackCode on_task_create(COMMON, OTF2_CommRef team, uint32_t thread,
                                        uint32_t generation)
{
    return deliver(task(WEFT_TRACE_TASK_CREATE, team, thread, generation), PASS);
}

static OTF2_CallbackCode on_task_switch(COMMON, OTF2_CommRef team, uint32_t thread,
                                        uint32_t generation)
{
    return deliver(task(WEFT_TRACE_TASK_SWITCH, team, thread, generation), PASS);
}

static OTF2_CallbackCode on_task_complete(COMMON, OTF2_CommRef team, uint32_t thread,
                                          uint32_t generation)
{
    return deliver(task(WEFT_TRACE_TASK_COMPLETE, team, thread, generation), PASS);
}

static OTF2_CallbackCode on_acquire(COMMON, OTF2_Paradigm paradigm, uint32_t lock_id,
                                    uint32_t order)
{
    return deliver(thread_lock(WEFT_TRACE_LOCK_ACQUIRE, paradigm, lock_id, order), PASS);
}

static OTF2_CallbackCode on_release(COMMON, OTF2_Paradigm paradigm, uint32_t lock_id,
                                    uint32_t order)
{
    return deliver(thread_lock(WEFT_TRACE_LOCK_RELEASE, paradigm, lock_id, order), PASS);
}

/* ---- MPI ------------------------------------------------------------------------------ */

static OTF2_CallbackCode on_send(COMMON, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t bytes)
{
    return deliver(message(WEFT_TRACE_SEND, receiver, comm, tag, bytes, 0), PASS);
}

static OTF2_CallbackCode on_isend(COMMON, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t request)
{
    return deliver(message(WEFT_TRACE_ISEND, receiver, comm, tag, bytes, request), PASS);
}

static OTF2_CallbackCode on_recv(COMMON, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t bytes)
{
    return deliver(message(WEFT_TRACE_RECV, sender, comm, tag, bytes, 0), PASS);
}

static OTF2_CallbackCode on_irecv(COMMON, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t request)
{
    return deliver(message(WEFT_TRACE_IRECV, sender, comm, tag, bytes, request), PASS);
}

ONE_FIELD(on_irecv_request, WEFT_TRACE_IRECV_REQUEST, uint64_t, request)
ONE_FIELD(on_isend_complete, WEFT_TRACE_ISEND_COMPLETE, uint64_t, request)
ONE_FIELD(on_request_test, WEFT_TRACE_REQUEST_TEST, uint64_t, request)
ONE_FIELD(on_request_cancelled, WEFT_TRACE_REQUEST_CANCELLED, uint64_t, request)

static OTF2_CallbackCode on_collective_begin(COMMON)
{
    return deliver((weft_trace_event){.kind = WEFT_TRACE_COLLECTIVE_BEGIN}, PASS);
}

static OTF2_CallbackCode on_collective_end(COMMON, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                           uint32_t root, uint64_t sent, uint64_t received)
{
    return deliver(collective(WEFT_TRACE_COLLECTIVE_END, op, comm, root, sent, received), PASS);
}

static OTF2_CallbackCode on_nonblocking_collective(COMMON, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                                   uint32_t root, uint64_t sent, uint64_t received,
                                                   uint64_t request)
{
    weft_trace_event e =
        collective(WEFT_TRACE_NONBLOCKING_COLLECTIVE_END, op, comm, root, sent, received);
    e.request = request;
    return deliver(e, PASS);
}

/* ---- measurement ---------------------------------------------------------------------- */

static OTF2_CallbackCode on_metric(COMMON, OTF2_MetricRef metric, uint8_t count,
                                   const OTF2_Type *types, const OTF2_MetricValue *values)
{
    weft_trace_event e = {.kind = WEFT_TRACE_METRIC,
                          .ref = metric,
                          .number = count,
                          .types = types,
                          .values = values};
    return deliver(e, PASS);
}

ONE_FIELD(on_on_off, WEFT_TRACE_MEASUREMENT_ON_OFF, OTF2_MeasurementMode, op)
ONE_FIELD(on_flush, WEFT_TRACE_BUFFER_FLUSH, OTF2_TimeStamp, bytes)

static OTF2_CallbackCode on_parameter(COMMON, OTF2_ParameterRef parameter, int64_t value)
{
    weft_trace_event e = {.kind = WEFT_TRACE_PARAMETER, .ref = parameter, .value = value};
    return deliver(e, PASS);
}

/* ---- MPI-IO --------------------------------------------------------------------------- */

static OTF2_CallbackCode on_create(COMMON, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
                                   OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status)
{
    weft_trace_event e = {.kind = WEFT_TRACE_IO_CREATE_HANDLE,
                          .ref = handle,
                          .op = (uint8_t)mode,
                          .number = creation,
                          .status_flags = status};
    return deliver(e, PASS);
}

ONE_FIELD(on_destroy, WEFT_TRACE_IO_DESTROY_HANDLE, OTF2_IoHandleRef, ref)

static OTF2_CallbackCode on_io_begin(COMMON, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
                                     OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t id)
{
    weft_trace_event e = {.kind = WEFT_TRACE_IO_BEGIN,
                          .ref = handle,
                          .op = (uint8_t)mode,
                          .number = flags,
                          .bytes = bytes,
                          .request = id};
    return deliver(e, PASS);
}

static OTF2_CallbackCode on_io_issued(COMMON, OTF2_IoHandleRef handle, uint64_t id)
{
    weft_trace_event e = {.kind = WEFT_TRACE_IO_ISSUED, .ref = handle, .request = id};
    return deliver(e, PASS);
}

static OTF2_CallbackCode on_io_complete(COMMON, OTF2_IoHandleRef handle, uint64_t bytes,
                                        uint64_t id)
{
    weft_trace_event e = {
        .kind = WEFT_TRACE_IO_COMPLETE, .ref = handle, .bytes = bytes, .request = id};
    return deliver(e, PASS);
}

static OTF2_CallbackCode on_seek(COMMON, OTF2_IoHandleRef handle, int64_t offset,
                                 OTF2_IoSeekOption whence, uint64_t result)
{
    weft_trace_event e = {.kind = WEFT_TRACE_IO_SEEK,
                          .ref = handle,
                          .op = (uint8_t)whence,
                          .value = offset,
                          .bytes = result};
    return deliver(e, PASS);
}

/* ---- one-sided ------------------------------------------------------------------------ */

ONE_FIELD(on_win_create, WEFT_TRACE_RMA_WIN_CREATE, OTF2_RmaWinRef, ref)
ONE_FIELD(on_win_destroy, WEFT_TRACE_RMA_WIN_DESTROY, OTF2_RmaWinRef, ref)

static OTF2_CallbackCode on_rma_begin(COMMON)
{
    return deliver((weft_trace_event){.kind = WEFT_TRACE_RMA_COLLECTIVE_BEGIN}, PASS);
}

static OTF2_CallbackCode on_rma_end(COMMON, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
                                    OTF2_RmaWinRef win, uint32_t root, uint64_t sent,
                                    uint64_t received)
{
    weft_trace_event e = collective(WEFT_TRACE_RMA_COLLECTIVE_END, op, win, root, sent, received);
    e.number = level;
    return deliver(e, PASS);
}

static OTF2_CallbackCode on_group_sync(COMMON, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                       OTF2_GroupRef group)
{
    weft_trace_event e = {
        .kind = WEFT_TRACE_RMA_GROUP_SYNC, .ref = win, .op = (uint8_t)level, .number = group};
    return deliver(e, PASS);
}

static OTF2_CallbackCode on_request_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                                         OTF2_LockType type)
{
    return deliver(rma_lock(WEFT_TRACE_RMA_REQUEST_LOCK, win, remote, id, type), PASS);
}

static OTF2_CallbackCode on_acquire_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                                         OTF2_LockType type)
{
    return deliver(rma_lock(WEFT_TRACE_RMA_ACQUIRE_LOCK, win, remote, id, type), PASS);
}

static OTF2_CallbackCode on_release_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id)
{
    return deliver(rma_lock(WEFT_TRACE_RMA_RELEASE_LOCK, win, remote, id, 0), PASS);
}

static OTF2_CallbackCode on_sync(COMMON, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type)
{
    weft_trace_event e = {
        .kind = WEFT_TRACE_RMA_SYNC, .ref = win, .peer = remote, .op = (uint8_t)type};
    return deliver(e, PASS);
}

static OTF2_CallbackCode on_put(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t id)
{
    return deliver(transfer(WEFT_TRACE_RMA_PUT, win, remote, bytes, id), PASS);
}

static OTF2_CallbackCode on_get(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t id)
{
    return deliver(transfer(WEFT_TRACE_RMA_GET, win, remote, bytes, id), PASS);
}

static OTF2_CallbackCode on_atomic(COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                   OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                                   uint64_t id)
{
    weft_trace_event e = transfer(WEFT_TRACE_RMA_ATOMIC, win, remote, sent, id);
    e.op = (uint8_t)type;
    e.received = received;
    return deliver(e, PASS);
}

static OTF2_CallbackCode complete(uint8_t which, COMMON, OTF2_RmaWinRef win, uint64_t id)
{
    weft_trace_event e = {
        .kind = WEFT_TRACE_RMA_OP_COMPLETE, .ref = win, .request = id, .op = which};
    return deliver(e, PASS);
}

static OTF2_CallbackCode on_complete_blocking(COMMON, OTF2_RmaWinRef win, uint64_t id)
{
    return complete(WEFT_TRACE_RMA_COMPLETE_BLOCKING, PASS, win, id);
}

static OTF2_CallbackCode on_complete_non_blocking(COMMON, OTF2_RmaWinRef win, uint64_t id)
{
    return complete(WEFT_TRACE_RMA_COMPLETE_NON_BLOCKING, PASS, win, id);
}

static OTF2_CallbackCode on_complete_remote(COMMON, OTF2_RmaWinRef win, uint64_t id)
{
    return complete(WEFT_TRACE_RMA_COMPLETE_REMOTE, PASS, win, id);
}

/* ---- registration --------------------------------------------------------------------- */

#define SET(record, callback) OTF2_EvtReaderCallbacks_Set##record##Callback(cb, callback)

OTF2_ErrorCode weft__trace_set_event_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_ErrorCode codes[] = {
        SET(Enter, on_enter),
        SET(Leave, on_leave),
        SET(ProgramBegin, on_program_begin),
        SET(ProgramEnd, on_program_end),
        SET(ThreadFork, on_fork),
        SET(ThreadJoin, on_join),
        SET(ThreadTeamBegin, on_team_begin),
        SET(ThreadTeamEnd, on_team_end),
        SET(ThreadTaskCreate, on_task_create),
        SET(ThreadTaskSwitch, on_task_switch),
        SET(ThreadTaskComplete, on_task_complete),
        SET(ThreadAcquireLock, on_acquire),
        SET(ThreadReleaseLock, on_release),
        SET(MpiSend, on_send),
        SET(MpiIsend, on_isend),
        SET(MpiRecv, on_recv),
        SET(MpiIrecv, on_irecv),
        SET(MpiIrecvRequest, on_irecv_request),
        SET(MpiIsendComplete, on_isend_complete),
        SET(MpiRequestTest, on_request_test),
        SET(MpiRequestCancelled, on_request_cancelled),
        SET(MpiCollectiveBegin, on_collective_begin),
        SET(MpiCollectiveEnd, on_collective_end),
        SET(NonBlockingCollectiveComplete, on_nonblocking_collective),
        SET(Metric, on_metric),
        SET(MeasurementOnOff, on_on_off),
        SET(BufferFlush, on_flush),
        SET(ParameterInt, on_parameter),
        SET(IoCreateHandle, on_create),
        SET(IoDestroyHandle, on_destroy),
        SET(IoOperationBegin, on_io_begin),
        SET(IoOperationIssued, on_io_issued),
        SET(IoOperationComplete, on_io_complete),
        SET(IoSeek, on_seek),
        SET(RmaWinCreate, on_win_create),
        SET(RmaWinDestroy, on_win_destroy),
        SET(RmaCollectiveBegin, on_rma_begin),
        SET(RmaCollectiveEnd, on_rma_end),
        SET(RmaGroupSync, on_group_sync),
        SET(RmaRequestLock, on_request_lock),
        SET(RmaAcquireLock, on_acquire_lock),
        SET(RmaReleaseLock, on_release_lock),
        SET(RmaSync, on_sync),
        SET(RmaPut, on_put),
        SET(RmaGet, on_get),
        SET(RmaAtomic, on_atomic),
        SET(RmaOpCompleteBlocking, on_complete_blocking),
        SET(RmaOpCompleteNonBlocking, on_complete_non_blocking),
        SET(RmaOpCompleteRemote, on_complete_remote),
    };
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (codes[i] != OTF2_SUCCESS)
            return codes[i];
    }
    return OTF2_SUCCESS;
}
