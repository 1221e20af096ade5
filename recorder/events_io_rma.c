/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI-IO and one-sided entry points of weft/recorder.h: each is one
 * event of an I/O or RMA kind, its fields as weft/event.h lists them. */
#include "events_io_rma.h"

#include "weft/event.h"
#include "weft/recorder.h"

void weft_io_create_handle(weft_object handle, uint8_t access_mode, uint32_t creation_flags,
                           uint32_t status_flags)
{
    weft__record_io_rma(WEFT_EVENT_IO_CREATE_HANDLE, access_mode, handle.id, creation_flags,
                        status_flags, 0, 0, 0);
}

void weft_io_destroy_handle(weft_object handle)
{
    weft__record_io_rma(WEFT_EVENT_IO_DESTROY_HANDLE, 0, handle.id, 0, 0, 0, 0, 0);
}

void weft_io_operation_begin(weft_object handle, uint8_t mode, uint32_t flags,
                             uint64_t bytes_requested, uint64_t matching_id)
{
    weft__record_io_rma(WEFT_EVENT_IO_OPERATION_BEGIN, mode, handle.id, flags, 0, bytes_requested,
                        0, matching_id);
}

void weft_io_operation_issued(weft_object handle, uint64_t matching_id)
{
    weft__record_io_rma(WEFT_EVENT_IO_OPERATION_ISSUED, 0, handle.id, 0, 0, 0, 0, matching_id);
}

void weft_io_operation_complete(weft_object handle, uint64_t bytes, uint64_t matching_id)
{
    weft__record_io_rma(WEFT_EVENT_IO_OPERATION_COMPLETE, 0, handle.id, 0, 0, bytes, 0,
                        matching_id);
}

void weft_io_seek(weft_object handle, int64_t offset, uint8_t whence, uint64_t result)
{
    weft__record_io_rma(WEFT_EVENT_IO_SEEK, whence, handle.id, 0, 0, (uint64_t)offset, result, 0);
}

void weft_rma_win_create(weft_object win)
{
    weft__record_io_rma(WEFT_EVENT_RMA_WIN_CREATE, 0, win.id, 0, 0, 0, 0, 0);
}

void weft_rma_win_destroy(weft_object win)
{
    weft__record_io_rma(WEFT_EVENT_RMA_WIN_DESTROY, 0, win.id, 0, 0, 0, 0, 0);
}

void weft_rma_collective_begin(void)
{
    weft__record_io_rma(WEFT_EVENT_RMA_COLLECTIVE_BEGIN, 0, 0, 0, 0, 0, 0, 0);
}

void weft_rma_collective_end(weft_object win, weft_collective_op op, uint8_t sync_level,
                             uint32_t root, uint64_t bytes_sent, uint64_t bytes_received)
{
    weft__record_io_rma(WEFT_EVENT_RMA_COLLECTIVE_END, op, win.id, root, sync_level, bytes_sent,
                        bytes_received, 0);
}

void weft_rma_group_sync(weft_object win, uint8_t sync_level, weft_comm group)
{
    weft__record_io_rma(WEFT_EVENT_RMA_GROUP_SYNC, sync_level, win.id, group.id, 0, 0, 0, 0);
}

void weft_rma_request_lock(weft_object win, uint32_t remote, uint64_t lock_id, uint8_t lock_type)
{
    weft__record_io_rma(WEFT_EVENT_RMA_REQUEST_LOCK, lock_type, win.id, remote, 0, 0, 0, lock_id);
}

void weft_rma_acquire_lock(weft_object win, uint32_t remote, uint64_t lock_id, uint8_t lock_type)
{
    weft__record_io_rma(WEFT_EVENT_RMA_ACQUIRE_LOCK, lock_type, win.id, remote, 0, 0, 0, lock_id);
}

void weft_rma_release_lock(weft_object win, uint32_t remote, uint64_t lock_id)
{
    weft__record_io_rma(WEFT_EVENT_RMA_RELEASE_LOCK, 0, win.id, remote, 0, 0, 0, lock_id);
}

void weft_rma_sync(weft_object win, uint32_t remote, uint8_t sync_type)
{
    weft__record_io_rma(WEFT_EVENT_RMA_SYNC, sync_type, win.id, remote, 0, 0, 0, 0);
}

void weft_rma_put(weft_object win, uint32_t remote, uint64_t bytes, uint64_t matching_id)
{
    weft__record_io_rma(WEFT_EVENT_RMA_PUT, 0, win.id, remote, 0, bytes, 0, matching_id);
}

void weft_rma_get(weft_object win, uint32_t remote, uint64_t bytes, uint64_t matching_id)
{
    weft__record_io_rma(WEFT_EVENT_RMA_GET, 0, win.id, remote, 0, bytes, 0, matching_id);
}

void weft_rma_atomic(weft_object win, uint32_t remote, uint8_t type, uint64_t bytes_sent,
                     uint64_t bytes_received, uint64_t matching_id)
{
    weft__record_io_rma(WEFT_EVENT_RMA_ATOMIC, type, win.id, remote, 0, bytes_sent, bytes_received,
                        matching_id);
}

void weft_rma_op_complete_blocking(weft_object win, uint64_t matching_id)
{
    weft__record_io_rma(WEFT_EVENT_RMA_OP_COMPLETE_BLOCKING, 0, win.id, 0, 0, 0, 0, matching_id);
}
