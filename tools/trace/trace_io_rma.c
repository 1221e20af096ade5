/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-IO and one-sided definitions for the trace reader: IoRegularFile,
 * IoHandle and RmaWin, kept as read and looked up by ref (their event
 * records are trace_events.c's). Kept apart from trace_defs.c, which it
 * extends. */
#include <stdlib.h>
#include <string.h>

#include "trace_reader.h"
#include "grow.h"

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
    if (!weft__cli_grow(&t->items, &t->capacity, t->count + 1, sizeof(*t->items)))
        return false;
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
