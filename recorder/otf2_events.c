/* SPDX-License-Identifier: BSD-3-Clause */
/* One event of the generic model as an OTF2 event record; see
 * otf2_events.h. */
#include "otf2_events.h"

#include "weft/alloc.h"
#include "weft/definitions_otf2.h"
#include "weft/recorder.h"

static OTF2_CollectiveOp collective_to_otf2(uint8_t op)
{
#define OP_ENTRY(name) OTF2_COLLECTIVE_OP_##name,
    static const OTF2_CollectiveOp map[] = {WEFT_COLLECTIVE_LIST(OP_ENTRY)};
#undef OP_ENTRY
    return op < WEFT_COLLECTIVE_COUNT ? map[op] : OTF2_COLLECTIVE_OP_BARRIER;
}

/* A task creation with dependences: the ThreadTaskCreate event with the
 * string that describes them as its "OpenMP task dependences" attribute. */
static OTF2_ErrorCode write_task_create_with_dependences(OTF2_EvtWriter *w, const weft_event *e)
{
    OTF2_AttributeList *attributes = OTF2_AttributeList_New();
    if (!attributes)
        return OTF2_ERROR_MEM_ALLOC_FAILED;
    OTF2_ErrorCode code = OTF2_AttributeList_AddStringRef(
        attributes, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES, e->attribute_string);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtWriter_ThreadTaskCreate(w, attributes, e->time, e->ref, e->a, e->b);
    OTF2_AttributeList_Delete(attributes);
    return code;
}

/* ProgramBegin: the arguments' strings as OTF2 wants them, 32 bits each. */
static OTF2_ErrorCode write_program_begin(OTF2_EvtWriter *w, const weft_event *e)
{
    OTF2_StringRef few[16] = {0};
    OTF2_StringRef *args = few;
    if (e->value_count > sizeof(few) / sizeof(few[0])) {
        args = weft_calloc(e->value_count, sizeof(*args));
        if (!args)
            return OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    for (uint32_t i = 0; i < e->value_count; i++)
        args[i] = (OTF2_StringRef)e->values[i];
    OTF2_ErrorCode code =
        OTF2_EvtWriter_ProgramBegin(w, NULL, e->time, e->ref, e->value_count, args);
    if (args != few)
        weft_free(args);
    return code;
}

/* weft's I/O and RMA values are OTF2's (weft/recorder.h). */
_Static_assert((int)WEFT_IO_MODE_READ == (int)OTF2_IO_OPERATION_MODE_READ &&
                   (int)WEFT_IO_MODE_WRITE == (int)OTF2_IO_OPERATION_MODE_WRITE &&
                   (int)WEFT_IO_MODE_FLUSH == (int)OTF2_IO_OPERATION_MODE_FLUSH &&
                   (int)WEFT_IO_FLAG_NON_BLOCKING == (int)OTF2_IO_OPERATION_FLAG_NON_BLOCKING &&
                   (int)WEFT_IO_FLAG_COLLECTIVE == (int)OTF2_IO_OPERATION_FLAG_COLLECTIVE &&
                   (int)WEFT_IO_ACCESS_READ_ONLY == (int)OTF2_IO_ACCESS_MODE_READ_ONLY &&
                   (int)WEFT_IO_ACCESS_WRITE_ONLY == (int)OTF2_IO_ACCESS_MODE_WRITE_ONLY &&
                   (int)WEFT_IO_ACCESS_READ_WRITE == (int)OTF2_IO_ACCESS_MODE_READ_WRITE &&
                   (int)WEFT_IO_CREATE == (int)OTF2_IO_CREATION_FLAG_CREATE &&
                   (int)WEFT_IO_CREATE_EXCLUSIVE == (int)OTF2_IO_CREATION_FLAG_EXCLUSIVE &&
                   (int)WEFT_IO_STATUS_APPEND == (int)OTF2_IO_STATUS_FLAG_APPEND &&
                   (int)WEFT_IO_STATUS_DELETE_ON_CLOSE ==
                       (int)OTF2_IO_STATUS_FLAG_DELETE_ON_CLOSE &&
                   (int)WEFT_IO_SEEK_SET == (int)OTF2_IO_SEEK_FROM_START &&
                   (int)WEFT_IO_SEEK_CUR == (int)OTF2_IO_SEEK_FROM_CURRENT &&
                   (int)WEFT_IO_SEEK_END == (int)OTF2_IO_SEEK_FROM_END,
               "weft's I/O values are OTF2's");
_Static_assert((int)WEFT_RMA_SYNC_PROCESS == (int)OTF2_RMA_SYNC_LEVEL_PROCESS &&
                   (int)WEFT_RMA_SYNC_MEMORY == (int)OTF2_RMA_SYNC_LEVEL_MEMORY &&
                   (int)WEFT_RMA_LOCK_EXCLUSIVE == (int)OTF2_LOCK_EXCLUSIVE &&
                   (int)WEFT_RMA_LOCK_SHARED == (int)OTF2_LOCK_SHARED &&
                   (int)WEFT_RMA_ATOMIC_ACCUMULATE == (int)OTF2_RMA_ATOMIC_TYPE_ACCUMULATE &&
                   (int)WEFT_RMA_ATOMIC_COMPARE_AND_SWAP ==
                       (int)OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP &&
                   (int)WEFT_RMA_ATOMIC_FETCH_AND_ACCUMULATE ==
                       (int)OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE &&
                   (int)WEFT_RMA_SYNC_TYPE_MEMORY == (int)OTF2_RMA_SYNC_TYPE_MEMORY,
               "weft's RMA values are OTF2's");

/* MPI-IO and one-sided events (WEFT_EVENT_IS_IO_RMA); fields as event.h. */
static OTF2_ErrorCode write_io_rma(OTF2_EvtWriter *w, const weft_event *e)
{
    OTF2_TimeStamp t = e->time;
    switch (e->kind) {
    case WEFT_EVENT_IO_CREATE_HANDLE:
        return OTF2_EvtWriter_IoCreateHandle(w, NULL, t, e->ref, e->small, e->a, e->b);
    case WEFT_EVENT_IO_DESTROY_HANDLE:
        return OTF2_EvtWriter_IoDestroyHandle(w, NULL, t, e->ref);
    case WEFT_EVENT_IO_OPERATION_BEGIN:
        return OTF2_EvtWriter_IoOperationBegin(w, NULL, t, e->ref, e->small, e->a, e->bytes,
                                               e->request);
    case WEFT_EVENT_IO_OPERATION_ISSUED:
        return OTF2_EvtWriter_IoOperationIssued(w, NULL, t, e->ref, e->request);
    case WEFT_EVENT_IO_OPERATION_COMPLETE:
        return OTF2_EvtWriter_IoOperationComplete(w, NULL, t, e->ref, e->bytes, e->request);
    case WEFT_EVENT_IO_SEEK:
        return OTF2_EvtWriter_IoSeek(w, NULL, t, e->ref, (int64_t)e->bytes, e->small,
                                     e->bytes_received);
    case WEFT_EVENT_RMA_WIN_CREATE:
        return OTF2_EvtWriter_RmaWinCreate(w, NULL, t, e->ref);
    case WEFT_EVENT_RMA_WIN_DESTROY:
        return OTF2_EvtWriter_RmaWinDestroy(w, NULL, t, e->ref);
    case WEFT_EVENT_RMA_COLLECTIVE_BEGIN:
        return OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t);
    case WEFT_EVENT_RMA_COLLECTIVE_END:
        return OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t, collective_to_otf2(e->small), e->b,
                                               e->ref, e->a, e->bytes, e->bytes_received);
    case WEFT_EVENT_RMA_GROUP_SYNC:
        /* a is a comm; the local definitions map it to that comm's group */
        return OTF2_EvtWriter_RmaGroupSync(w, NULL, t, e->small, e->ref, e->a);
    case WEFT_EVENT_RMA_REQUEST_LOCK:
        return OTF2_EvtWriter_RmaRequestLock(w, NULL, t, e->ref, e->a, e->request, e->small);
    case WEFT_EVENT_RMA_ACQUIRE_LOCK:
        return OTF2_EvtWriter_RmaAcquireLock(w, NULL, t, e->ref, e->a, e->request, e->small);
    case WEFT_EVENT_RMA_RELEASE_LOCK:
        return OTF2_EvtWriter_RmaReleaseLock(w, NULL, t, e->ref, e->a, e->request);
    case WEFT_EVENT_RMA_SYNC:
        return OTF2_EvtWriter_RmaSync(w, NULL, t, e->ref, e->a, e->small);
    case WEFT_EVENT_RMA_PUT:
        return OTF2_EvtWriter_RmaPut(w, NULL, t, e->ref, e->a, e->bytes, e->request);
    case WEFT_EVENT_RMA_GET:
        return OTF2_EvtWriter_RmaGet(w, NULL, t, e->ref, e->a, e->bytes, e->request);
    case WEFT_EVENT_RMA_ATOMIC:
        return OTF2_EvtWriter_RmaAtomic(w, NULL, t, e->ref, e->a, e->small, e->bytes,
                                        e->bytes_received, e->request);
    case WEFT_EVENT_RMA_OP_COMPLETE_BLOCKING:
        return OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, t, e->ref, e->request);
    default:
        return OTF2_ERROR_INVALID_ARGUMENT;
    }
}

OTF2_ErrorCode weft__otf2_write_event(OTF2_EvtWriter *w, const weft_event *e)
{
    OTF2_TimeStamp t = e->time;
    switch (e->kind) {
    case WEFT_EVENT_ENTER:
        return OTF2_EvtWriter_Enter(w, NULL, t, e->ref);
    case WEFT_EVENT_LEAVE:
        return OTF2_EvtWriter_Leave(w, NULL, t, e->ref);
    case WEFT_EVENT_THREAD_FORK:
        return OTF2_EvtWriter_ThreadFork(w, NULL, t, weft_paradigm_to_otf2(e->small), e->ref);
    case WEFT_EVENT_THREAD_JOIN:
        return OTF2_EvtWriter_ThreadJoin(w, NULL, t, weft_paradigm_to_otf2(e->small));
    case WEFT_EVENT_THREAD_TEAM_BEGIN:
        return OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t, e->ref);
    case WEFT_EVENT_THREAD_TEAM_END:
        return OTF2_EvtWriter_ThreadTeamEnd(w, NULL, t, e->ref);
    case WEFT_EVENT_LOCK_ACQUIRE:
        return OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t, weft_paradigm_to_otf2(e->small), e->ref,
                                                e->a);
    case WEFT_EVENT_LOCK_RELEASE:
        return OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t, weft_paradigm_to_otf2(e->small), e->ref,
                                                e->a);
    case WEFT_EVENT_TASK_CREATE:
        if (e->attribute_string != WEFT_INVALID_ID)
            return write_task_create_with_dependences(w, e);
        return OTF2_EvtWriter_ThreadTaskCreate(w, NULL, t, e->ref, e->a, e->b);
    case WEFT_EVENT_TASK_SWITCH:
    case WEFT_EVENT_TASK_COMPLETE: {
        uint64_t location = 0;
        OTF2_EvtWriter_GetLocationID(w, &location);
        uint32_t thread = weft__otf2_task_thread(e->a, e->b, (uint32_t)(location >> 32));
        return (e->kind == WEFT_EVENT_TASK_SWITCH
                    ? OTF2_EvtWriter_ThreadTaskSwitch
                    : OTF2_EvtWriter_ThreadTaskComplete)(w, NULL, t, e->ref, thread, e->b);
    }
    case WEFT_EVENT_MPI_SEND:
        return OTF2_EvtWriter_MpiSend(w, NULL, t, e->a, e->ref, e->b, e->bytes);
    case WEFT_EVENT_MPI_RECV:
        return OTF2_EvtWriter_MpiRecv(w, NULL, t, e->a, e->ref, e->b, e->bytes);
    case WEFT_EVENT_MPI_ISEND:
        return OTF2_EvtWriter_MpiIsend(w, NULL, t, e->a, e->ref, e->b, e->bytes, e->request);
    case WEFT_EVENT_MPI_IRECV:
        return OTF2_EvtWriter_MpiIrecv(w, NULL, t, e->a, e->ref, e->b, e->bytes, e->request);
    case WEFT_EVENT_MPI_ISEND_COMPLETE:
        return OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, e->request);
    case WEFT_EVENT_MPI_IRECV_REQUEST:
        return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, e->request);
    case WEFT_EVENT_MPI_REQUEST_TEST:
        return OTF2_EvtWriter_MpiRequestTest(w, NULL, t, e->request);
    case WEFT_EVENT_MPI_REQUEST_CANCELLED:
        return OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t, e->request);
    case WEFT_EVENT_MPI_COLLECTIVE_BEGIN:
        return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
    case WEFT_EVENT_MPI_COLLECTIVE_END:
        return OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, collective_to_otf2(e->small), e->ref,
                                               e->a, e->bytes, e->bytes_received);
    case WEFT_EVENT_METRIC: {
        OTF2_Type types[WEFT_METRIC_MAX_MEMBERS];
        OTF2_MetricValue values[WEFT_METRIC_MAX_MEMBERS];
        uint32_t n =
            e->value_count < WEFT_METRIC_MAX_MEMBERS ? e->value_count : WEFT_METRIC_MAX_MEMBERS;
        for (uint32_t i = 0; i < n; i++) {
            types[i] = OTF2_TYPE_UINT64;
            values[i].unsigned_int = e->values[i];
        }
        return OTF2_EvtWriter_Metric(w, NULL, t, e->ref, (uint8_t)n, types, values);
    }
    case WEFT_EVENT_MEASUREMENT_ON_OFF:
        return OTF2_EvtWriter_MeasurementOnOff(
            w, NULL, t, e->small ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF);
    case WEFT_EVENT_BUFFER_FLUSH:
        return OTF2_EvtWriter_BufferFlush(w, NULL, t, e->bytes);
    case WEFT_EVENT_PARAMETER:
        return OTF2_EvtWriter_ParameterInt(w, NULL, t, e->ref, (int64_t)e->bytes);
    case WEFT_EVENT_PROGRAM_BEGIN:
        return write_program_begin(w, e);
    case WEFT_EVENT_PROGRAM_END:
        return OTF2_EvtWriter_ProgramEnd(w, NULL, t, (int64_t)e->bytes);
    default:
        if (WEFT_EVENT_IS_IO_RMA(e->kind))
            return write_io_rma(w, e);
        return OTF2_ERROR_INVALID_ARGUMENT;
    }
}
