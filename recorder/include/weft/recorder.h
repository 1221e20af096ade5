/* SPDX-License-Identifier: BSD-3-Clause */
/* The generic event model: the one API every adapter calls.
 *
 * Adapters (POMP2, OMPT, PMPI) translate their paradigm's events into these
 * calls and nothing else; the recorder takes the timestamp, finds the calling
 * thread's location (created on its first event), and appends the event to
 * that location's buffer without a lock. All event functions are safe to call
 * from any thread at any time, including before weft_init and after
 * weft_finalize (then they do nothing), and never fail: trouble is reported
 * once on stderr and recording stops, the program runs on.
 *
 * Handles (regions, communicators) come from the definition registry and are
 * cached by the adapter; the event functions never look anything up. */
#ifndef WEFT_RECORDER_RECORDER_H
#define WEFT_RECORDER_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/config.h"
#include "weft/definitions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MPI collective operations, as OTF2's classic seventeen (the ones Scalasca's
 * OTF2 2.x reader accepts). Stored in one byte. */
/* clang-format off */
#define WEFT_COLLECTIVE_LIST(X)                                                   \
    X(BARRIER) X(BCAST) X(GATHER) X(GATHERV) X(SCATTER) X(SCATTERV)           \
    X(ALLGATHER) X(ALLGATHERV) X(ALLTOALL) X(ALLTOALLV) X(ALLTOALLW)              \
    X(ALLREDUCE) X(REDUCE) X(REDUCE_SCATTER) X(SCAN) X(EXSCAN)                    \
    X(REDUCE_SCATTER_BLOCK)
/* clang-format on */
#define WEFT_COLLECTIVE_ENUM(name) WEFT_COLLECTIVE_##name,
enum { WEFT_COLLECTIVE_LIST(WEFT_COLLECTIVE_ENUM) WEFT_COLLECTIVE_COUNT };
#undef WEFT_COLLECTIVE_ENUM
typedef uint8_t weft_collective_op;

/* Root argument of a collective without a root. */
#define WEFT_NO_ROOT UINT32_MAX

/* ---- lifecycle ---------------------------------------------------------- */

/* Starts recording: reads the configuration, sets up the clock, registers the
 * exit handler. Called implicitly by the first event; calling it again is a
 * no-op. Thread-safe. */
WEFT_EXPORT void weft_init(void);

/* Ends recording and writes the trace: every location's remaining events,
 * the definitions, the clock properties. Runs at exit by itself; an adapter
 * calls it earlier when its paradigm ends (MPI_Finalize). Later events are
 * ignored. Idempotent; thread-safe. */
WEFT_EXPORT void weft_finalize(void);

/* Turns recording on or off for the whole process. Each switch is written on
 * the calling thread as a MeasurementOnOff event. */
WEFT_EXPORT void weft_recording_set(bool on);

/* Hands the calling thread's buffered events to the writer now, instead of
 * when its buffer chunk fills or the program ends (omp_control_tool's
 * flush). Other threads' buffers are theirs alone and are not touched. */
WEFT_EXPORT void weft_flush_thread(void);

/* True while events are being recorded. */
WEFT_EXPORT bool weft_recording_is_on(void);

/* True when WEFT_FILTERING_FILE excludes user regions called NAME defined
 * in FILE (NULL: none). Adapters ask once per region, when they define it,
 * and keep no handle for an excluded one, so its events cost one branch.
 * Starts recording (weft_init) if it has not started. */
WEFT_EXPORT bool weft_region_filtered(const char *name, const char *file);

/* ---- region enter and leave (the hot path) ------------------------------ */

WEFT_EXPORT void weft_enter(weft_region region);
WEFT_EXPORT void weft_leave(weft_region region);

/* ---- explicit timestamps ------------------------------------------------- */

/* The recorder's clock, in the ticks events carry. */
WEFT_EXPORT uint64_t weft_now(void);

/* Variants of the calling thread's events with a timestamp taken earlier
 * (weft_now), for events an adapter learns of late. The time must not be
 * earlier than the thread's previous event: each location's events stay in
 * time order. Each returns the time it recorded, which is later than the one
 * given when making room for the event made the thread wait for a buffer
 * (the wait is recorded first): a caller that records several events at one
 * time passes the returned time on to the next. */
WEFT_EXPORT uint64_t weft_enter_at(weft_region region, uint64_t time);
WEFT_EXPORT uint64_t weft_leave_at(weft_region region, uint64_t time);
WEFT_EXPORT uint64_t weft_lock_acquire_at(weft_paradigm paradigm, uint32_t lock_id,
                                          uint32_t acquisition_order, uint64_t time);
WEFT_EXPORT uint64_t weft_lock_release_at(weft_paradigm paradigm, uint32_t lock_id,
                                          uint32_t acquisition_order, uint64_t time);

/* ---- threads ------------------------------------------------------------ */

/* On the forking thread, before the team exists: team_size threads asked. */
WEFT_EXPORT void weft_thread_fork(weft_paradigm paradigm, uint32_t team_size);
/* On the forking thread, after the team ended. */
WEFT_EXPORT void weft_thread_join(weft_paradigm paradigm);
/* On every team member, at the start and end of its part in the team;
 * thread_in_team is its number in the team (omp_get_thread_num), which
 * places its location in the team's group definition. */
WEFT_EXPORT void weft_thread_team_begin(weft_comm team, uint32_t thread_in_team);
WEFT_EXPORT void weft_thread_team_end(weft_comm team);
/* The same with a timestamp taken earlier (see weft_enter_at): a member's
 * team begin and its enter of the parallel region, and its leave and team
 * end, follow each other with nothing in between. */
WEFT_EXPORT uint64_t weft_thread_team_begin_at(weft_comm team, uint32_t thread_in_team,
                                               uint64_t time);
WEFT_EXPORT uint64_t weft_thread_team_end_at(weft_comm team, uint64_t time);

/* ---- locks -------------------------------------------------------------- */

/* Lock ids and acquisition orders come from weft_lock_* below, so every
 * adapter numbers locks the same way. */
WEFT_EXPORT void weft_lock_acquire(weft_paradigm paradigm, uint32_t lock_id,
                                   uint32_t acquisition_order);
WEFT_EXPORT void weft_lock_release(weft_paradigm paradigm, uint32_t lock_id,
                                   uint32_t acquisition_order);

/* ---- tasks -------------------------------------------------------------- */

/* A task is named by the thread that created it and that thread's running
 * number of created tasks (OTF2's creatingThread and generationNumber). */
WEFT_EXPORT void weft_task_create(weft_comm team, uint32_t creating_thread, uint32_t generation);
/* weft_task_create for a task with dependences: `dependences` is a string
 * of the registry describing them (registered with
 * weft_registry_attribute_use for WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES);
 * it becomes that attribute of the ThreadTaskCreate event. */
WEFT_EXPORT void weft_task_create_with_dependences(weft_comm team, uint32_t creating_thread,
                                                   uint32_t generation, weft_string dependences);
WEFT_EXPORT void weft_task_switch(weft_comm team, uint32_t creating_thread, uint32_t generation);
WEFT_EXPORT void weft_task_complete(weft_comm team, uint32_t creating_thread,
                                    uint32_t generation);
/* The task events with a timestamp taken earlier (see weft_enter_at): a
 * task's creation, start and end each record several events with nothing
 * in between, which then share one reading of the clock. */
WEFT_EXPORT uint64_t weft_task_create_at(weft_comm team, uint32_t creating_thread,
                                         uint32_t generation, uint64_t time);
WEFT_EXPORT uint64_t weft_task_switch_at(weft_comm team, uint32_t creating_thread,
                                         uint32_t generation, uint64_t time);
WEFT_EXPORT uint64_t weft_task_complete_at(weft_comm team, uint32_t creating_thread,
                                           uint32_t generation, uint64_t time);
/* Task switches an adapter may take back when they turn out to say
 * nothing: a switch away from a task followed, with nothing recorded in
 * between, by the switch straight back; or a task's start (the switch into
 * it and the Enter of its region) followed by the switch away with nothing
 * recorded in between (clang runs an untied task's first part only to
 * queue the task again). weft_event_position, called just before recording
 * the switch, says where it goes (NULL before the thread's first event);
 * weft_task_switch_undo removes the ThreadTaskSwitch to (team,
 * creating_thread, generation) recorded there, and the Enter of `entered`
 * after it unless that is WEFT_REGION_INVALID, if they are still the
 * calling thread's last events and not yet handed to the writer, and
 * returns whether it did. */
WEFT_EXPORT const void *weft_event_position(void);
WEFT_EXPORT bool weft_task_switch_undo(const void *position, weft_comm team,
                                       uint32_t creating_thread, uint32_t generation,
                                       weft_region entered);

/* ---- MPI ---------------------------------------------------------------- */

/* Ranks are ranks in comm; bytes are the message size in bytes. */
WEFT_EXPORT void weft_mpi_send(uint32_t receiver, weft_comm comm, uint32_t tag, uint64_t bytes);
WEFT_EXPORT void weft_mpi_recv(uint32_t sender, weft_comm comm, uint32_t tag, uint64_t bytes);
WEFT_EXPORT void weft_mpi_isend(uint32_t receiver, weft_comm comm, uint32_t tag, uint64_t bytes,
                                uint64_t request_id);
WEFT_EXPORT void weft_mpi_isend_complete(uint64_t request_id);
WEFT_EXPORT void weft_mpi_irecv_request(uint64_t request_id);
WEFT_EXPORT void weft_mpi_irecv(uint32_t sender, weft_comm comm, uint32_t tag, uint64_t bytes,
                                uint64_t request_id);
WEFT_EXPORT void weft_mpi_request_test(uint64_t request_id);
WEFT_EXPORT void weft_mpi_request_cancelled(uint64_t request_id);
WEFT_EXPORT void weft_mpi_collective_begin(void);
WEFT_EXPORT void weft_mpi_collective_end(weft_collective_op op, weft_comm comm, uint32_t root,
                                         uint64_t bytes_sent, uint64_t bytes_received);

/* ---- MPI-IO and one-sided communication --------------------------------- */

/* Values of the I/O and RMA events; each equals OTF2's (OTF2_IO_*,
 * OTF2_RMA_*, OTF2_LOCK_*), so adapters need not include OTF2. */
/* clang-format off */
enum {
    WEFT_IO_MODE_READ = 0, WEFT_IO_MODE_WRITE = 1, WEFT_IO_MODE_FLUSH = 2,
    WEFT_IO_FLAG_NONE = 0, WEFT_IO_FLAG_NON_BLOCKING = 1, WEFT_IO_FLAG_COLLECTIVE = 2,
    WEFT_IO_ACCESS_READ_ONLY = 0, WEFT_IO_ACCESS_WRITE_ONLY = 1, WEFT_IO_ACCESS_READ_WRITE = 2,
    WEFT_IO_CREATE = 1, WEFT_IO_CREATE_EXCLUSIVE = 8,
    WEFT_IO_STATUS_APPEND = 2, WEFT_IO_STATUS_DELETE_ON_CLOSE = 256,
    WEFT_IO_SEEK_SET = 0, WEFT_IO_SEEK_CUR = 1, WEFT_IO_SEEK_END = 2,
    WEFT_RMA_SYNC_PROCESS = 1, WEFT_RMA_SYNC_MEMORY = 2,
    WEFT_RMA_LOCK_EXCLUSIVE = 0, WEFT_RMA_LOCK_SHARED = 1,
    WEFT_RMA_ATOMIC_ACCUMULATE = 0, WEFT_RMA_ATOMIC_COMPARE_AND_SWAP = 3,
    WEFT_RMA_ATOMIC_FETCH_AND_ACCUMULATE = 7,
    WEFT_RMA_SYNC_TYPE_MEMORY = 0,
};
/* clang-format on */
/* The remote of a lock or sync on every rank of the window (lock_all). */
#define WEFT_RMA_ALL_RANKS UINT32_MAX

/* I/O on a handle (an IO_HANDLE object); matching ids tie an operation's
 * begin, issue and completion together (unique per location). */
WEFT_EXPORT void weft_io_create_handle(weft_object handle, uint8_t access_mode,
                                       uint32_t creation_flags, uint32_t status_flags);
WEFT_EXPORT void weft_io_destroy_handle(weft_object handle);
WEFT_EXPORT void weft_io_operation_begin(weft_object handle, uint8_t mode, uint32_t flags,
                                         uint64_t bytes_requested, uint64_t matching_id);
WEFT_EXPORT void weft_io_operation_issued(weft_object handle, uint64_t matching_id);
WEFT_EXPORT void weft_io_operation_complete(weft_object handle, uint64_t bytes,
                                            uint64_t matching_id);
WEFT_EXPORT void weft_io_seek(weft_object handle, int64_t offset, uint8_t whence, uint64_t result);

/* One-sided communication on a window (an RMA_WIN object); remote ranks
 * are ranks in the window's communicator. */
WEFT_EXPORT void weft_rma_win_create(weft_object win);
WEFT_EXPORT void weft_rma_win_destroy(weft_object win);
WEFT_EXPORT void weft_rma_collective_begin(void);
WEFT_EXPORT void weft_rma_collective_end(weft_object win, weft_collective_op op, uint8_t sync_level,
                                         uint32_t root, uint64_t bytes_sent,
                                         uint64_t bytes_received);
/* group: a communicator whose members are the synchronising group. */
WEFT_EXPORT void weft_rma_group_sync(weft_object win, uint8_t sync_level, weft_comm group);
WEFT_EXPORT void weft_rma_request_lock(weft_object win, uint32_t remote, uint64_t lock_id,
                                       uint8_t lock_type);
WEFT_EXPORT void weft_rma_acquire_lock(weft_object win, uint32_t remote, uint64_t lock_id,
                                       uint8_t lock_type);
WEFT_EXPORT void weft_rma_release_lock(weft_object win, uint32_t remote, uint64_t lock_id);
WEFT_EXPORT void weft_rma_sync(weft_object win, uint32_t remote, uint8_t sync_type);
WEFT_EXPORT void weft_rma_put(weft_object win, uint32_t remote, uint64_t bytes,
                              uint64_t matching_id);
WEFT_EXPORT void weft_rma_get(weft_object win, uint32_t remote, uint64_t bytes,
                              uint64_t matching_id);
WEFT_EXPORT void weft_rma_atomic(weft_object win, uint32_t remote, uint8_t type,
                                 uint64_t bytes_sent, uint64_t bytes_received,
                                 uint64_t matching_id);
WEFT_EXPORT void weft_rma_op_complete_blocking(weft_object win, uint64_t matching_id);

/* Records the value of a parameter (WEFT_PARAMETER_*) for the region just
 * entered (OTF2 ParameterInt). Mark the parameter used first, once:
 * weft_registry_parameter_use(weft_defs_global(), parameter). */
WEFT_EXPORT void weft_parameter_int(uint32_t parameter, int64_t value);

/* ---- metrics ------------------------------------------------------------ */

/* Records value_count values of the metric set `metric` (at most 64). */
WEFT_EXPORT void weft_metric_values(weft_metric metric, uint32_t value_count,
                                    const uint64_t *values);

/* ---- shared helpers for adapters ---------------------------------------- */

/* Lock numbering shared by every adapter: the id of a lock object (stable
 * for the object's address, dense from 0), and the next acquisition order
 * for that lock (counting from 1, as Scalasca requires). Call
 * weft_lock_next_order while holding the lock, after acquiring it. */
WEFT_EXPORT uint32_t weft_lock_id(const void *lock_object);
WEFT_EXPORT uint32_t weft_lock_next_order(uint32_t lock_id);
/* The order of the latest acquisition of lock_id (for its release event). */
WEFT_EXPORT uint32_t weft_lock_current_order(uint32_t lock_id);
/* For runtimes that report a release only after the next holder may have
 * acquired the lock (OMPT): the time to record acquisition `order` at (the
 * clock, read after the previous code completed, and kept for the release
 * of order - 1), and the time to record the release of acquisition `order`
 * at: now, or one tick before acquisition order + 1 when that one was
 * recorded already (the last eight acquisitions per lock are kept), or,
 * when eight more have been since, the calling thread's latest event: that
 * came before it let the lock go, so before acquisition order + 1, and the
 * thread's events stay in time order. */
WEFT_EXPORT uint64_t weft_lock_acquired_time(uint32_t lock_id, uint32_t order);
WEFT_EXPORT uint64_t weft_lock_release_time(uint32_t lock_id, uint32_t order);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECORDER_RECORDER_H */
