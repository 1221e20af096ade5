/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI-IO and one-sided records of a leftover event file as the
 * weft_events they were written from (the reverse of write_io_rma in
 * recorder/otf2_events.c; fields as weft/event.h). Their handles and
 * windows are the process's object ids, a group sync's group its
 * communicator: recover_write.c maps them like the other ids. */
#include "recover_read.h"

#define COMMON                                                                                     \
    OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *user_data,            \
        OTF2_AttributeList *attributes
#define UNUSED_COMMON (void)location, (void)attributes

static OTF2_CallbackCode on_create(COMMON, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
                                   OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_IO_CREATE_HANDLE,
                    .ref = handle,
                    .small = (uint8_t)mode,
                    .a = creation,
                    .b = status};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_destroy(COMMON, OTF2_IoHandleRef handle)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_IO_DESTROY_HANDLE, .ref = handle};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_io_begin(COMMON, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
                                     OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t id)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_IO_OPERATION_BEGIN,
                    .ref = handle,
                    .small = (uint8_t)mode,
                    .a = flags,
                    .bytes = bytes,
                    .request = id};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_io_issued(COMMON, OTF2_IoHandleRef handle, uint64_t id)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_IO_OPERATION_ISSUED, .ref = handle, .request = id};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_io_complete(COMMON, OTF2_IoHandleRef handle, uint64_t bytes,
                                        uint64_t id)
{
    UNUSED_COMMON;
    weft_event e = {
        .kind = WEFT_EVENT_IO_OPERATION_COMPLETE, .ref = handle, .bytes = bytes, .request = id};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_seek(COMMON, OTF2_IoHandleRef handle, int64_t offset,
                                 OTF2_IoSeekOption whence, uint64_t result)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_IO_SEEK,
                    .ref = handle,
                    .small = (uint8_t)whence,
                    .bytes = (uint64_t)offset,
                    .bytes_received = result};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode window(uint8_t kind, void *user_data, OTF2_TimeStamp time,
                                uint64_t position, OTF2_RmaWinRef win)
{
    weft_event e = {.kind = kind, .ref = win};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_win_create(COMMON, OTF2_RmaWinRef win)
{
    UNUSED_COMMON;
    return window(WEFT_EVENT_RMA_WIN_CREATE, user_data, time, position, win);
}

static OTF2_CallbackCode on_win_destroy(COMMON, OTF2_RmaWinRef win)
{
    UNUSED_COMMON;
    return window(WEFT_EVENT_RMA_WIN_DESTROY, user_data, time, position, win);
}

static OTF2_CallbackCode on_rma_begin(COMMON)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_RMA_COLLECTIVE_BEGIN};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_rma_end(COMMON, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
                                    OTF2_RmaWinRef win, uint32_t root, uint64_t sent,
                                    uint64_t received)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_RMA_COLLECTIVE_END,
                    .ref = win,
                    .small = recover_collective_of(op),
                    .a = root,
                    .b = level,
                    .bytes = sent,
                    .bytes_received = received};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_group_sync(COMMON, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                       OTF2_GroupRef group)
{
    UNUSED_COMMON;
    weft_event e = {
        .kind = WEFT_EVENT_RMA_GROUP_SYNC, .ref = win, .small = (uint8_t)level, .a = group};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode lock(uint8_t kind, void *user_data, OTF2_TimeStamp time,
                              uint64_t position, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                              OTF2_LockType type)
{
    weft_event e = {.kind = kind, .ref = win, .a = remote, .request = id, .small = (uint8_t)type};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_request_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                                         OTF2_LockType type)
{
    UNUSED_COMMON;
    return lock(WEFT_EVENT_RMA_REQUEST_LOCK, user_data, time, position, win, remote, id, type);
}

static OTF2_CallbackCode on_acquire_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                                         OTF2_LockType type)
{
    UNUSED_COMMON;
    return lock(WEFT_EVENT_RMA_ACQUIRE_LOCK, user_data, time, position, win, remote, id, type);
}

static OTF2_CallbackCode on_release_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id)
{
    UNUSED_COMMON;
    return lock(WEFT_EVENT_RMA_RELEASE_LOCK, user_data, time, position, win, remote, id, 0);
}

static OTF2_CallbackCode on_sync(COMMON, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_RMA_SYNC, .ref = win, .a = remote, .small = (uint8_t)type};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode transfer(uint8_t kind, void *user_data, OTF2_TimeStamp time,
                                  uint64_t position, OTF2_RmaWinRef win, uint32_t remote,
                                  uint64_t bytes, uint64_t id)
{
    weft_event e = {.kind = kind, .ref = win, .a = remote, .bytes = bytes, .request = id};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_put(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t id)
{
    UNUSED_COMMON;
    return transfer(WEFT_EVENT_RMA_PUT, user_data, time, position, win, remote, bytes, id);
}

static OTF2_CallbackCode on_get(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t id)
{
    UNUSED_COMMON;
    return transfer(WEFT_EVENT_RMA_GET, user_data, time, position, win, remote, bytes, id);
}

static OTF2_CallbackCode on_atomic(COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                   OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                                   uint64_t id)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_RMA_ATOMIC,
                    .ref = win,
                    .a = remote,
                    .small = (uint8_t)type,
                    .bytes = sent,
                    .bytes_received = received,
                    .request = id};
    return recover_deliver(user_data, position, &e, time);
}

static OTF2_CallbackCode on_complete_blocking(COMMON, OTF2_RmaWinRef win, uint64_t id)
{
    UNUSED_COMMON;
    weft_event e = {.kind = WEFT_EVENT_RMA_OP_COMPLETE_BLOCKING, .ref = win, .request = id};
    return recover_deliver(user_data, position, &e, time);
}

bool recover_set_io_rma_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_ErrorCode codes[] = {
        OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(cb, on_create),
        OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(cb, on_destroy),
        OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(cb, on_io_begin),
        OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(cb, on_io_issued),
        OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(cb, on_io_complete),
        OTF2_EvtReaderCallbacks_SetIoSeekCallback(cb, on_seek),
        OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, on_win_create),
        OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, on_win_destroy),
        OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, on_rma_begin),
        OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, on_rma_end),
        OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, on_group_sync),
        OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, on_request_lock),
        OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, on_acquire_lock),
        OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, on_release_lock),
        OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, on_sync),
        OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, on_put),
        OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, on_get),
        OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, on_atomic),
        OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, on_complete_blocking),
    };
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (codes[i] != OTF2_SUCCESS)
            return false;
    }
    return true;
}
