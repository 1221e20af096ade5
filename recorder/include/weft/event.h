/* SPDX-License-Identifier: BSD-3-Clause */
/* The generic event model's events as data: the kinds of event weft
 * records, and one event with named fields. The recorder decodes its
 * buffers into these before writing them as OTF2 events; `weft convert`
 * builds them from old traces and writes them the same way
 * (weft/trace_writer.h). */
#ifndef WEFT_RECORDER_EVENT_H
#define WEFT_RECORDER_EVENT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
/* X(KIND, payload slots in the recorder's buffers) */
#define WEFT_EVENT_LIST(X)                                                                  \
    X(ENTER, 0) X(LEAVE, 0) X(THREAD_FORK, 0) X(THREAD_JOIN, 0)                            \
    X(THREAD_TEAM_BEGIN, 0) X(THREAD_TEAM_END, 0)                                          \
    X(LOCK_ACQUIRE, 1) X(LOCK_RELEASE, 1)                                                  \
    X(TASK_CREATE, 1) X(TASK_SWITCH, 1) X(TASK_COMPLETE, 1)                                \
    X(MPI_SEND, 1) X(MPI_RECV, 1) X(MPI_ISEND, 2) X(MPI_ISEND_COMPLETE, 1)                \
    X(MPI_IRECV_REQUEST, 1) X(MPI_IRECV, 2) X(MPI_REQUEST_TEST, 1)                         \
    X(MPI_REQUEST_CANCELLED, 1) X(MPI_COLLECTIVE_BEGIN, 0) X(MPI_COLLECTIVE_END, 2)        \
    X(METRIC, 0) X(MEASUREMENT_ON_OFF, 0) X(BUFFER_FLUSH, 1) X(PARAMETER, 1)              \
    X(PROGRAM_BEGIN, 0) X(PROGRAM_END, 1)                                                 \
    X(IO_CREATE_HANDLE, 2) X(IO_DESTROY_HANDLE, 2) X(IO_OPERATION_BEGIN, 2)                \
    X(IO_OPERATION_ISSUED, 2) X(IO_OPERATION_COMPLETE, 2) X(IO_SEEK, 2)                    \
    X(RMA_WIN_CREATE, 2) X(RMA_WIN_DESTROY, 2) X(RMA_COLLECTIVE_BEGIN, 2)                  \
    X(RMA_COLLECTIVE_END, 2) X(RMA_GROUP_SYNC, 2) X(RMA_REQUEST_LOCK, 2)                   \
    X(RMA_ACQUIRE_LOCK, 2) X(RMA_RELEASE_LOCK, 2) X(RMA_SYNC, 2) X(RMA_PUT, 2)            \
    X(RMA_GET, 2) X(RMA_ATOMIC, 2) X(RMA_OP_COMPLETE_BLOCKING, 2)
/* clang-format on */

/* The I/O and RMA kinds, which share one encoding (event_codec.h). */
#define WEFT_EVENT_IS_IO_RMA(kind)                                                                 \
    ((kind) >= WEFT_EVENT_IO_CREATE_HANDLE && (kind) <= WEFT_EVENT_RMA_OP_COMPLETE_BLOCKING)

#define WEFT_EVENT_ENUM(kind, payload) WEFT_EVENT_##kind,
enum { WEFT_EVENT_NONE = 0, WEFT_EVENT_LIST(WEFT_EVENT_ENUM) WEFT_EVENT_KIND_COUNT };
#undef WEFT_EVENT_ENUM

/* One event. Which fields mean something depends on kind (the others are
 * ignored):
 *   ENTER, LEAVE             ref = region
 *   THREAD_FORK              small = paradigm, ref = requested team size
 *   THREAD_JOIN              small = paradigm
 *   THREAD_TEAM_BEGIN, _END  ref = the team's comm
 *   LOCK_ACQUIRE, _RELEASE   small = paradigm, ref = lock id, a = acquisition order
 *   TASK_*                   ref = team comm, a = creating thread, b = generation;
 *                            TASK_CREATE: attribute_string (WEFT_INVALID_ID: none)
 *   MPI_SEND, MPI_RECV       ref = comm, a = peer's rank in comm, b = tag, bytes
 *   MPI_ISEND, MPI_IRECV     the same and request
 *   MPI_ISEND_COMPLETE, MPI_IRECV_REQUEST, MPI_REQUEST_TEST, MPI_REQUEST_CANCELLED: request
 *   MPI_COLLECTIVE_END       small = op, ref = comm, a = root rank (UINT32_MAX: none),
 *                            bytes = sent, bytes_received
 *   METRIC                   ref = metric class, value_count, values
 *   MEASUREMENT_ON_OFF       small = 1 for on, 0 for off
 *   BUFFER_FLUSH             bytes = the time the flush ended
 *   PARAMETER                ref = parameter (WEFT_PARAMETER_*), bytes = the int64 value
 *   PROGRAM_BEGIN            ref = the program's path (a string), value_count = argument
 *                            count, values = the arguments' strings (weft/program.h); it
 *                            enters the program region, on a process's master thread only
 *   PROGRAM_END              bytes = the exit status (as int64), or WEFT_EXIT_STATUS_UNKNOWN;
 *                            it leaves the program region
 * MPI-IO (ref = the I/O handle, an object of weft_registry_object; values as
 * OTF2's, see weft/recorder.h):
 *   IO_CREATE_HANDLE         small = access mode, a = creation flags, b = status flags
 *   IO_DESTROY_HANDLE        -
 *   IO_OPERATION_BEGIN       small = mode, a = operation flags, bytes = requested,
 *                            request = matching id
 *   IO_OPERATION_ISSUED      request = matching id
 *   IO_OPERATION_COMPLETE    bytes = transferred, request = matching id
 *   IO_SEEK                  small = whence, bytes = requested offset (int64),
 *                            bytes_received = resulting offset
 * One-sided (ref = the window, an object; remote ranks are ranks in its comm):
 *   RMA_WIN_CREATE, _DESTROY, RMA_COLLECTIVE_BEGIN  -
 *   RMA_COLLECTIVE_END       small = collective op, a = root (UINT32_MAX: none),
 *                            b = sync level, bytes = sent, bytes_received
 *   RMA_GROUP_SYNC           small = sync level, a = the comm whose group synchronises
 *   RMA_REQUEST_LOCK, RMA_ACQUIRE_LOCK  small = lock type, a = remote, request = lock id
 *   RMA_RELEASE_LOCK         a = remote, request = lock id
 *   RMA_SYNC                 small = sync type, a = remote
 *   RMA_PUT, RMA_GET         a = remote, bytes, request = matching id
 *   RMA_ATOMIC               small = atomic type, a = remote, bytes = sent,
 *                            bytes_received, request = matching id
 *   RMA_OP_COMPLETE_BLOCKING request = matching id
 * For a remote of "all ranks" (lock_all) a is UINT32_MAX. */
typedef struct weft_event {
    uint8_t kind;
    uint64_t time;
    uint32_t ref; /* region, comm, lock id, metric or team size */
    uint8_t small;
    uint32_t a;   /* peer rank, creating thread, root, acquisition order */
    uint32_t b;   /* tag, generation number */
    uint64_t bytes;        /* message bytes, bytes sent, flush stop time,
                              a parameter's value (as int64) */
    uint64_t bytes_received;
    uint64_t request;
    uint32_t attribute_string; /* TASK_CREATE: dependences, WEFT_INVALID_ID for none */
    uint32_t value_count;
    const uint64_t *values; /* metric values, pointing into the buffer; or
                               PROGRAM_BEGIN's argument strings */
} weft_event;

/* PROGRAM_END's exit status when the process ends in a way that does not
 * tell it (an exit handler cannot learn it): OTF2's undefined int64. */
#define WEFT_EXIT_STATUS_UNKNOWN ((uint64_t)INT64_MIN)

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECORDER_EVENT_H */
