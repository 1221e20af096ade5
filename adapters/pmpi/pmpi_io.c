/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-IO as OTF2 I/O records; see pmpi_hooks.h.
 *
 * Each MPI_File_open that succeeds defines the file (one per name in the
 * job) and an I/O handle of its own (one per opening and process, on the
 * communicator it was opened on) and records IoCreateHandle; every read or
 * write is an IoOperationBegin with the bytes asked for and an
 * IoOperationComplete with the bytes the status reports, tied by a
 * matching id unique in the process. Non-blocking operations record
 * IoOperationIssued when the call returns and their completion in the
 * Wait/Test call that completes the request (pmpi_completion.c); split
 * collectives (read_all_begin ... read_all_end) complete at their _end.
 *
 * The open files are few: a short array under a mutex, searched by handle
 * (MPI handles are reused after MPI_File_close, which drops the entry). A
 * file weft did not see being opened (before MPI_Init, or through PMPI by a
 * library) records nothing. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi_hooks.h"
#include "weft/log.h"

typedef struct open_file {
    MPI_File fh;
    weft_object handle;
    /* a split collective begun and not yet ended (at most one per file) */
    bool split_active;
    uint64_t split_id;
} open_file;

static pthread_mutex_t files_mutex = PTHREAD_MUTEX_INITIALIZER;
static open_file *files; /* files_mutex */
static size_t file_count, file_capacity;

/* Openings by this process: the key of each handle. */
static atomic_uint_fast64_t openings;
/* Matching ids of this process's I/O operations. */
static atomic_uint_fast64_t next_matching_id = 1;

static void report_once(const char *what)
{
    static atomic_bool reported;
    if (!atomic_exchange_explicit(&reported, true, memory_order_relaxed))
        weft_log_error("%s; some MPI-IO calls are not recorded as I/O", what);
}

/* files_mutex held. */
static open_file *find_locked(MPI_File fh)
{
    for (size_t i = 0; i < file_count; i++) {
        if (files[i].fh == fh)
            return &files[i];
    }
    return NULL;
}

static bool remember(MPI_File fh, weft_object handle)
{
    pthread_mutex_lock(&files_mutex);
    bool ok = true;
    open_file *f = find_locked(fh); /* a stale entry of a reused handle */
    if (!f && file_count == file_capacity) {
        size_t capacity = file_capacity ? 2 * file_capacity : 8;
        open_file *grown = realloc(files, capacity * sizeof(*grown));
        ok = grown != NULL;
        if (ok) {
            files = grown;
            file_capacity = capacity;
        }
    }
    if (ok) {
        if (!f)
            f = &files[file_count++];
        *f = (open_file){.fh = fh, .handle = handle};
    }
    pthread_mutex_unlock(&files_mutex);
    return ok;
}

static weft_object handle_of(MPI_File fh)
{
    pthread_mutex_lock(&files_mutex);
    open_file *f = find_locked(fh);
    weft_object handle = f ? f->handle : WEFT_OBJECT_INVALID;
    pthread_mutex_unlock(&files_mutex);
    return handle;
}

/* The name as C text: a Fortran CHARACTER argument (length given, not
 * NUL-terminated) loses its trailing blanks. */
static char *copy_name(const char *name, size_t len)
{
    if (!name)
        return NULL;
    if (len == SIZE_MAX)
        len = strlen(name);
    while (len > 0 && name[len - 1] == ' ')
        len--;
    char *text = malloc(len + 1);
    if (text) {
        memcpy(text, name, len);
        text[len] = '\0';
    }
    return text;
}

static uint8_t access_mode(int amode)
{
    if (amode & MPI_MODE_RDONLY)
        return WEFT_IO_ACCESS_READ_ONLY;
    if (amode & MPI_MODE_WRONLY)
        return WEFT_IO_ACCESS_WRITE_ONLY;
    return WEFT_IO_ACCESS_READ_WRITE;
}

void weft__pmpi_file_open(int ret, MPI_Comm comm, const char *name, size_t name_len, int amode,
                          const MPI_File *fh)
{
    if (ret != MPI_SUCCESS || *fh == MPI_FILE_NULL)
        return;
    weft_registry *reg = weft_defs_global();
    char *text = copy_name(name, name_len);
    weft_object file = WEFT_OBJECT_INVALID, handle = WEFT_OBJECT_INVALID;
    if (text && reg) {
        weft_object_desc f = {.kind = WEFT_OBJECT_IO_FILE,
                              .name = text,
                              .file = WEFT_OBJECT_INVALID,
                              .comm = WEFT_COMM_INVALID};
        weft_object_desc h = {.kind = WEFT_OBJECT_IO_HANDLE,
                              .name = text,
                              .key = atomic_fetch_add_explicit(&openings, 1, memory_order_relaxed),
                              .comm = weft__pmpi_comm_of(comm)};
        if (weft_registry_object(reg, &f, &file) == WEFT_OK) {
            h.file = file;
            weft_registry_object(reg, &h, &handle);
        }
    }
    free(text);
    if (handle.id == WEFT_INVALID_ID || !remember(*fh, handle)) {
        report_once("cannot define an MPI file's I/O handle (out of memory)");
        return;
    }
    uint32_t creation = (amode & MPI_MODE_CREATE ? WEFT_IO_CREATE : 0) |
                        (amode & MPI_MODE_EXCL ? WEFT_IO_CREATE_EXCLUSIVE : 0);
    uint32_t status = (amode & MPI_MODE_APPEND ? WEFT_IO_STATUS_APPEND : 0) |
                      (amode & MPI_MODE_DELETE_ON_CLOSE ? WEFT_IO_STATUS_DELETE_ON_CLOSE : 0);
    weft_io_create_handle(handle, access_mode(amode), creation, status);
}

weft_object weft__pmpi_file_close_begin(const MPI_File *fh)
{
    pthread_mutex_lock(&files_mutex);
    open_file *f = find_locked(*fh);
    weft_object handle = WEFT_OBJECT_INVALID;
    if (f) {
        handle = f->handle;
        *f = files[--file_count];
    }
    pthread_mutex_unlock(&files_mutex);
    return handle;
}

void weft__pmpi_file_close_end(int ret, weft_object handle)
{
    /* A failed close leaves the file open in MPI's eyes, but its entry is
     * gone: later operations on it record nothing rather than guess. */
    if (ret == MPI_SUCCESS && handle.id != WEFT_INVALID_ID)
        weft_io_destroy_handle(handle);
}

weft_pmpi_io weft__pmpi_io_begin(MPI_File fh, uint8_t mode, uint32_t flags, int count,
                                 MPI_Datatype datatype)
{
    weft_pmpi_io io = {.handle = handle_of(fh), .id = 0};
    if (io.handle.id == WEFT_INVALID_ID)
        return io;
    io.id = atomic_fetch_add_explicit(&next_matching_id, 1, memory_order_relaxed);
    weft_io_operation_begin(io.handle, mode, flags, weft__pmpi_type_bytes(count, datatype), io.id);
    return io;
}

void weft__pmpi_io_end(int ret, const weft_pmpi_io *io, const MPI_Status *status)
{
    if (io->handle.id == WEFT_INVALID_ID)
        return;
    uint64_t bytes = ret == MPI_SUCCESS && status ? weft__pmpi_status_bytes(status) : 0;
    weft_io_operation_complete(io->handle, bytes, io->id);
}

void weft__pmpi_io_issued(int ret, const weft_pmpi_io *io, const MPI_Request *request)
{
    if (io->handle.id == WEFT_INVALID_ID)
        return;
    if (ret != MPI_SUCCESS || *request == MPI_REQUEST_NULL) {
        weft_io_operation_complete(io->handle, 0, io->id); /* nothing was started */
        return;
    }
    weft_io_operation_issued(io->handle, io->id);
    weft_pmpi_request req = {.id = io->id,
                             .comm = WEFT_COMM_INVALID,
                             .peer = io->handle.id,
                             .kind = WEFT_PMPI_REQUEST_IO,
                             .flags = WEFT_PMPI_REQUEST_ACTIVE};
    weft__pmpi_request_remember(*request, &req);
}

void weft__pmpi_io_split_begun(int ret, const weft_pmpi_io *io, MPI_File fh)
{
    if (io->handle.id == WEFT_INVALID_ID)
        return;
    if (ret != MPI_SUCCESS) {
        weft_io_operation_complete(io->handle, 0, io->id);
        return;
    }
    weft_io_operation_issued(io->handle, io->id);
    pthread_mutex_lock(&files_mutex);
    open_file *f = find_locked(fh);
    if (f) {
        f->split_active = true;
        f->split_id = io->id;
    }
    pthread_mutex_unlock(&files_mutex);
}

void weft__pmpi_io_split_end(int ret, MPI_File fh, const MPI_Status *status)
{
    pthread_mutex_lock(&files_mutex);
    open_file *f = find_locked(fh);
    weft_pmpi_io io = {.handle = WEFT_OBJECT_INVALID};
    if (f && f->split_active) {
        io = (weft_pmpi_io){.handle = f->handle, .id = f->split_id};
        f->split_active = false;
    }
    pthread_mutex_unlock(&files_mutex);
    weft__pmpi_io_end(ret, &io, status);
}

void weft__pmpi_io_seek(int ret, MPI_File fh, MPI_Offset offset, int whence, bool shared)
{
    weft_object handle = handle_of(fh);
    if (ret != MPI_SUCCESS || handle.id == WEFT_INVALID_ID)
        return;
    MPI_Offset position = 0;
    if ((shared ? PMPI_File_get_position_shared(fh, &position)
                : PMPI_File_get_position(fh, &position)) != MPI_SUCCESS)
        position = 0;
    uint8_t option = whence == MPI_SEEK_CUR   ? WEFT_IO_SEEK_CUR
                     : whence == MPI_SEEK_END ? WEFT_IO_SEEK_END
                                              : WEFT_IO_SEEK_SET;
    weft_io_seek(handle, (int64_t)offset, option, (uint64_t)position);
}
