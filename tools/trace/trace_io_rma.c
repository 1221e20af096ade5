/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-IO and one-sided records for the trace reader: the IoRegularFile,
 * IoHandle and RmaWin definitions (looked up by ref) and the I/O and RMA
 * event records as weft_trace_events (see trace_reader.h for the fields).
 * Kept apart from trace_defs.c and trace_events.c, which it extends. */
#include <stdlib.h>
#include <string.h>

#include "trace_reader.h"

typedef struct io_rma_def {
    uint64_t ref;
    uint64_t name;  /* a string ref */
    uint64_t other; /* a handle's file ref, a window's comm ref */
} io_rma_def;

typedef struct def_table {
    io_rma_def *items;
    size_t count, capacity;
} def_table;

struct weft_trace_io_rma_defs {
    def_table files, handles, windows;
};

static bool add(weft_trace_reader *reader, def_table *(*which)(struct weft_trace_io_rma_defs *),
                uint64_t ref, uint64_t name, uint64_t other)
{
    if (!reader->io_rma) {
        reader->io_rma = calloc(1, sizeof(*reader->io_rma));
        if (!reader->io_rma)
            return false;
    }
    def_table *t = which(reader->io_rma);
    if (t->count == t->capacity) {
        size_t capacity = t->capacity ? 2 * t->capacity : 16;
        io_rma_def *grown = realloc(t->items, capacity * sizeof(*grown));
        if (!grown)
            return false;
        t->items = grown;
        t->capacity = capacity;
    }
    t->items[t->count++] = (io_rma_def){ref, name, other};
    return true;
}

static def_table *files_of(struct weft_trace_io_rma_defs *d)
{
    return &d->files;
}

static def_table *handles_of(struct weft_trace_io_rma_defs *d)
{
    return &d->handles;
}

static def_table *windows_of(struct weft_trace_io_rma_defs *d)
{
    return &d->windows;
}

static const io_rma_def *find(const def_table *t, uint64_t ref)
{
    for (size_t i = 0; t && i < t->count; i++) {
        if (t->items[i].ref == ref)
            return &t->items[i];
    }
    return NULL;
}

static OTF2_CallbackCode stored(weft_trace_reader *reader, bool ok)
{
    return ok ? OTF2_CALLBACK_SUCCESS : weft__trace_interrupt(reader, WEFT_ERR_NO_MEMORY);
}

static OTF2_CallbackCode on_file(void *user_data, OTF2_IoFileRef self, OTF2_StringRef name,
                                 OTF2_SystemTreeNodeRef scope)
{
    (void)scope;
    return stored(user_data, add(user_data, files_of, self, name, 0));
}

static OTF2_CallbackCode on_handle(void *user_data, OTF2_IoHandleRef self, OTF2_StringRef name,
                                   OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm,
                                   OTF2_IoHandleFlag flags, OTF2_CommRef comm,
                                   OTF2_IoHandleRef parent)
{
    (void)paradigm, (void)flags, (void)comm, (void)parent;
    return stored(user_data, add(user_data, handles_of, self, name, file));
}

static OTF2_CallbackCode on_window(void *user_data, OTF2_RmaWinRef self, OTF2_StringRef name,
                                   OTF2_CommRef comm, OTF2_RmaWinFlag flags)
{
    (void)flags;
    return stored(user_data, add(user_data, windows_of, self, name, comm));
}

OTF2_ErrorCode weft__trace_set_io_rma_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_ErrorCode code = OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(cb, on_file);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(cb, on_handle);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, on_window);
    return code;
}

const char *weft__trace_io_handle_file(const weft_trace_reader *reader, uint64_t handle)
{
    const io_rma_def *h = reader->io_rma ? find(&reader->io_rma->handles, handle) : NULL;
    if (!h)
        return "?";
    const io_rma_def *f = find(&reader->io_rma->files, h->other);
    const char *name = weft__trace_string(reader, f ? f->name : h->name);
    return name ? name : "?";
}

bool weft__trace_rma_win_defined(const weft_trace_reader *reader, uint64_t win)
{
    return reader->io_rma && find(&reader->io_rma->windows, win) != NULL;
}

uint64_t weft__trace_rma_win_comm(const weft_trace_reader *reader, uint64_t win)
{
    const io_rma_def *w = reader->io_rma ? find(&reader->io_rma->windows, win) : NULL;
    return w ? w->other : OTF2_UNDEFINED_COMM;
}

void weft__trace_io_rma_free(weft_trace_reader *reader)
{
    if (!reader->io_rma)
        return;
    free(reader->io_rma->files.items);
    free(reader->io_rma->handles.items);
    free(reader->io_rma->windows.items);
    free(reader->io_rma);
    reader->io_rma = NULL;
}

/* ---- events --------------------------------------------------------------------------- */

static OTF2_CallbackCode deliver(void *user_data, weft_trace_event *e, OTF2_TimeStamp time,
                                 uint64_t position)
{
    weft_trace_reader *reader = user_data;
    e->time = time;
    e->position = position;
    weft_status status = reader->handler(reader, e);
    return status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : weft__trace_interrupt(reader, status);
}

#define COMMON                                                                                     \
    OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *user_data,            \
        OTF2_AttributeList *attributes
#define UNUSED_COMMON (void)location, (void)attributes

static OTF2_CallbackCode on_create(COMMON, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
                                   OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status)
{
    UNUSED_COMMON;
    (void)status;
    weft_trace_event e = {.kind = WEFT_TRACE_IO_CREATE_HANDLE,
                          .ref = handle,
                          .op = (uint8_t)mode,
                          .number = creation};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_destroy(COMMON, OTF2_IoHandleRef handle)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_IO_DESTROY_HANDLE, .ref = handle};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_io_begin(COMMON, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
                                     OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t id)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_IO_BEGIN,
                          .ref = handle,
                          .op = (uint8_t)mode,
                          .number = flags,
                          .bytes = bytes,
                          .request = id};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_io_issued(COMMON, OTF2_IoHandleRef handle, uint64_t id)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_IO_ISSUED, .ref = handle, .request = id};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_io_complete(COMMON, OTF2_IoHandleRef handle, uint64_t bytes,
                                        uint64_t id)
{
    UNUSED_COMMON;
    weft_trace_event e = {
        .kind = WEFT_TRACE_IO_COMPLETE, .ref = handle, .bytes = bytes, .request = id};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_seek(COMMON, OTF2_IoHandleRef handle, int64_t offset,
                                 OTF2_IoSeekOption whence, uint64_t result)
{
    UNUSED_COMMON;
    (void)offset;
    weft_trace_event e = {
        .kind = WEFT_TRACE_IO_SEEK, .ref = handle, .op = (uint8_t)whence, .bytes = result};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode window(weft_trace_kind kind, COMMON, OTF2_RmaWinRef win)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = kind, .ref = win};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_win_create(COMMON, OTF2_RmaWinRef win)
{
    return window(WEFT_TRACE_RMA_WIN_CREATE, location, time, position, user_data, attributes, win);
}

static OTF2_CallbackCode on_win_destroy(COMMON, OTF2_RmaWinRef win)
{
    return window(WEFT_TRACE_RMA_WIN_DESTROY, location, time, position, user_data, attributes, win);
}

static OTF2_CallbackCode on_rma_begin(COMMON)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_RMA_COLLECTIVE_BEGIN};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_rma_end(COMMON, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
                                    OTF2_RmaWinRef win, uint32_t root, uint64_t sent,
                                    uint64_t received)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_RMA_COLLECTIVE_END,
                          .ref = win,
                          .op = op,
                          .number = level,
                          .root = root,
                          .bytes = sent,
                          .received = received};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_group_sync(COMMON, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                       OTF2_GroupRef group)
{
    UNUSED_COMMON;
    weft_trace_event e = {
        .kind = WEFT_TRACE_RMA_GROUP_SYNC, .ref = win, .op = (uint8_t)level, .number = group};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode lock(weft_trace_kind kind, void *user_data, OTF2_TimeStamp time,
                              uint64_t position, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                              OTF2_LockType type)
{
    weft_trace_event e = {
        .kind = kind, .ref = win, .peer = remote, .request = id, .op = (uint8_t)type};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_request_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                                         OTF2_LockType type)
{
    UNUSED_COMMON;
    return lock(WEFT_TRACE_RMA_REQUEST_LOCK, user_data, time, position, win, remote, id, type);
}

static OTF2_CallbackCode on_acquire_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id,
                                         OTF2_LockType type)
{
    UNUSED_COMMON;
    return lock(WEFT_TRACE_RMA_ACQUIRE_LOCK, user_data, time, position, win, remote, id, type);
}

static OTF2_CallbackCode on_release_lock(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t id)
{
    UNUSED_COMMON;
    return lock(WEFT_TRACE_RMA_RELEASE_LOCK, user_data, time, position, win, remote, id, 0);
}

static OTF2_CallbackCode on_sync(COMMON, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type)
{
    UNUSED_COMMON;
    weft_trace_event e = {
        .kind = WEFT_TRACE_RMA_SYNC, .ref = win, .peer = remote, .op = (uint8_t)type};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode transfer(weft_trace_kind kind, void *user_data, OTF2_TimeStamp time,
                                  uint64_t position, OTF2_RmaWinRef win, uint32_t remote,
                                  uint64_t bytes, uint64_t id)
{
    weft_trace_event e = {.kind = kind, .ref = win, .peer = remote, .bytes = bytes, .request = id};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_put(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t id)
{
    UNUSED_COMMON;
    return transfer(WEFT_TRACE_RMA_PUT, user_data, time, position, win, remote, bytes, id);
}

static OTF2_CallbackCode on_get(COMMON, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t id)
{
    UNUSED_COMMON;
    return transfer(WEFT_TRACE_RMA_GET, user_data, time, position, win, remote, bytes, id);
}

static OTF2_CallbackCode on_atomic(COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                   OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                                   uint64_t id)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_RMA_ATOMIC,
                          .ref = win,
                          .peer = remote,
                          .op = (uint8_t)type,
                          .bytes = sent,
                          .received = received,
                          .request = id};
    return deliver(user_data, &e, time, position);
}

static OTF2_CallbackCode on_complete(COMMON, OTF2_RmaWinRef win, uint64_t id)
{
    UNUSED_COMMON;
    weft_trace_event e = {.kind = WEFT_TRACE_RMA_OP_COMPLETE, .ref = win, .request = id};
    return deliver(user_data, &e, time, position);
}

OTF2_ErrorCode weft__trace_set_io_rma_callbacks(OTF2_EvtReaderCallbacks *cb)
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
        OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, on_complete),
        OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, on_complete),
        OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb, on_complete),
    };
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (codes[i] != OTF2_SUCCESS)
            return codes[i];
    }
    return OTF2_SUCCESS;
}
