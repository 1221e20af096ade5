/* SPDX-License-Identifier: BSD-3-Clause */
/* The generic event model's entry points (weft/recorder.h): each reserves
 * slots in the calling thread's buffer, encodes the event, and publishes it.
 *
 * This is the hot path: one relaxed load of the recording flag, the
 * thread-local location, a bounds check, a timestamp and a few stores. All
 * rare cases (first event, full chunk) are out of line. */
#include "weft/compiler.h"
#include "weft/recorder.h"

#include "clock.h"
#include "event_codec.h"
#include "lifecycle.h"
#include "location.h"
#include "events_io_rma.h"
#include "reserve_slow.h"


/* Where the next event of `slots` slots goes, or NULL when it must not be
 * recorded. *loc_out receives the calling thread's location. The fast path
 * needs the location's `fast` flag and room in its chunk; everything else
 * (the first event, a full chunk, a pause, metrics, recording stopped) is
 * weft__reserve_slow's. `kind` and `ref` tell the slow path what the event
 * opens or closes; `time` is the timestamp of an explicit-time event, which
 * the slow path may move forward (see there), or NULL. */
static inline weft_slot *reserve(uint8_t kind, uint32_t ref, size_t slots, weft_loc **loc_out,
                                 uint64_t *time)
{
    weft_loc *loc = weft__tls_loc;
    if (WEFT_LIKELY(loc && atomic_load_explicit(&loc->fast, memory_order_relaxed))) {
        /* Relaxed: only this thread stores the cursor. */
        weft_slot *at = atomic_load_explicit(&loc->cursor, memory_order_relaxed);
        if (WEFT_LIKELY((size_t)(loc->limit - at) >= slots)) {
            *loc_out = loc;
            return at;
        }
    }
    return weft__reserve_slow(kind, ref, slots, loc_out, time);
}

/* The common shape: one head slot and nothing else. */
static inline void record_head(uint8_t kind, uint8_t small, uint32_t ref)
{
    weft_loc *loc;
    weft_slot *at = reserve(kind, ref, 1, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_head(at, kind, weft_clock_now(), small, ref);
    weft__loc_commit(loc, at, 1);
}

static uint64_t record_head_at(uint8_t kind, uint8_t small, uint32_t ref, uint64_t time)
{
    weft_loc *loc;
    weft_slot *at = reserve(kind, ref, 1, &loc, &time);
    if (WEFT_UNLIKELY(!at))
        return time;
    weft__encode_head(at, kind, time, small, ref);
    weft__loc_commit(loc, at, 1);
    return time;
}

void weft_enter(weft_region region)
{
    record_head(WEFT_EVENT_ENTER, 0, region.id);
}

void weft_leave(weft_region region)
{
    record_head(WEFT_EVENT_LEAVE, 0, region.id);
}

uint64_t weft_now(void)
{
    return weft_clock_now();
}

uint64_t weft_enter_at(weft_region region, uint64_t time)
{
    return record_head_at(WEFT_EVENT_ENTER, 0, region.id, time);
}

uint64_t weft_leave_at(weft_region region, uint64_t time)
{
    return record_head_at(WEFT_EVENT_LEAVE, 0, region.id, time);
}

void weft_thread_fork(weft_paradigm paradigm, uint32_t team_size)
{
    record_head(WEFT_EVENT_THREAD_FORK, paradigm, team_size);
    if (paradigm == WEFT_PARADIGM_OPENMP)
        weft__recording_fork_counted();
}

void weft_thread_join(weft_paradigm paradigm)
{
    record_head(WEFT_EVENT_THREAD_JOIN, paradigm, 0);
    if (paradigm == WEFT_PARADIGM_OPENMP)
        weft__recording_join_counted();
}

uint64_t weft_thread_team_begin_at(weft_comm team, uint32_t thread_in_team, uint64_t time)
{
    weft_loc *loc;
    weft_slot *at = reserve(WEFT_EVENT_THREAD_TEAM_BEGIN, team.id, 1, &loc, &time);
    if (WEFT_UNLIKELY(!at))
        return time;
    weft__encode_head(at, WEFT_EVENT_THREAD_TEAM_BEGIN, time, 0, team.id);
    at->head.count = thread_in_team < UINT16_MAX ? (uint16_t)thread_in_team : UINT16_MAX;
    weft__loc_commit(loc, at, 1);
    return time;
}

void weft_thread_team_begin(weft_comm team, uint32_t thread_in_team)
{
    weft_thread_team_begin_at(team, thread_in_team, weft_clock_now());
}

uint64_t weft_thread_team_end_at(weft_comm team, uint64_t time)
{
    return record_head_at(WEFT_EVENT_THREAD_TEAM_END, 0, team.id, time);
}

void weft_thread_team_end(weft_comm team)
{
    record_head(WEFT_EVENT_THREAD_TEAM_END, 0, team.id);
}

void weft_mpi_collective_begin(void)
{
    record_head(WEFT_EVENT_MPI_COLLECTIVE_BEGIN, 0, 0);
}

void weft__measurement_on_off(bool on)
{
    record_head(WEFT_EVENT_MEASUREMENT_ON_OFF, on ? 1 : 0, 0);
}

/* Events with one payload word pair (two slots). */
enum { PAIR_SLOTS = 2 };

/* A task completion reserves room for the task switch that follows it: a
 * full buffer's flush record then comes before the completion, never
 * between the two, where Scalasca's analyzer takes the completed task's
 * events for the implicit task's (weft check reports it). */
static inline size_t pair_room(uint8_t kind)
{
    return kind == WEFT_EVENT_TASK_COMPLETE ? 2 * PAIR_SLOTS : PAIR_SLOTS;
}

static inline void record_pair(uint8_t kind, uint8_t small, uint32_t ref, uint32_t a, uint32_t b)
{
    weft_loc *loc;
    weft_slot *at = reserve(kind, ref, pair_room(kind), &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_pair(at, kind, weft_clock_now(), small, ref, a, b);
    weft__loc_commit(loc, at, PAIR_SLOTS);
}

static uint64_t record_pair_at(uint8_t kind, uint8_t small, uint32_t ref, uint32_t a, uint32_t b,
                               uint64_t time)
{
    weft_loc *loc;
    weft_slot *at = reserve(kind, ref, pair_room(kind), &loc, &time);
    if (WEFT_UNLIKELY(!at))
        return time;
    weft__encode_pair(at, kind, time, small, ref, a, b);
    weft__loc_commit(loc, at, PAIR_SLOTS);
    return time;
}

uint64_t weft_lock_acquire_at(weft_paradigm paradigm, uint32_t lock_id, uint32_t acquisition_order,
                              uint64_t time)
{
    return record_pair_at(WEFT_EVENT_LOCK_ACQUIRE, paradigm, lock_id, acquisition_order, 0, time);
}

uint64_t weft_lock_release_at(weft_paradigm paradigm, uint32_t lock_id, uint32_t acquisition_order,
                              uint64_t time)
{
    return record_pair_at(WEFT_EVENT_LOCK_RELEASE, paradigm, lock_id, acquisition_order, 0, time);
}

/* Lock events take an ordered timestamp: another thread's acquisition must
 * never appear before the release that allowed it. */
void weft_lock_acquire(weft_paradigm paradigm, uint32_t lock_id, uint32_t acquisition_order)
{
    weft_lock_acquire_at(paradigm, lock_id, acquisition_order, weft_clock_now_after_prior());
}

void weft_lock_release(weft_paradigm paradigm, uint32_t lock_id, uint32_t acquisition_order)
{
    weft_lock_release_at(paradigm, lock_id, acquisition_order, weft_clock_now_before_later());
}

void weft_task_create_with_dependences(weft_comm team, uint32_t creating_thread,
                                       uint32_t generation, weft_string dependences)
{
    weft_loc *loc;
    weft_slot *at = reserve(WEFT_EVENT_TASK_CREATE, team.id, 2, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_pair(at, WEFT_EVENT_TASK_CREATE, weft_clock_now(), 0, team.id, creating_thread,
                      generation);
    if (dependences.id != WEFT_INVALID_ID)
        at[1].word[1] = (uint64_t)dependences.id + 1;
    weft__loc_commit(loc, at, 2);
}

void weft_task_create(weft_comm team, uint32_t creating_thread, uint32_t generation)
{
    weft_task_create_with_dependences(team, creating_thread, generation, WEFT_STRING_INVALID);
}

void weft_task_switch(weft_comm team, uint32_t creating_thread, uint32_t generation)
{
    record_pair(WEFT_EVENT_TASK_SWITCH, 0, team.id, creating_thread, generation);
}

void weft_task_complete(weft_comm team, uint32_t creating_thread, uint32_t generation)
{
    record_pair(WEFT_EVENT_TASK_COMPLETE, 0, team.id, creating_thread, generation);
}

uint64_t weft_task_create_at(weft_comm team, uint32_t creating_thread, uint32_t generation,
                             uint64_t time)
{
    return record_pair_at(WEFT_EVENT_TASK_CREATE, 0, team.id, creating_thread, generation, time);
}

uint64_t weft_task_switch_at(weft_comm team, uint32_t creating_thread, uint32_t generation,
                             uint64_t time)
{
    return record_pair_at(WEFT_EVENT_TASK_SWITCH, 0, team.id, creating_thread, generation, time);
}

uint64_t weft_task_complete_at(weft_comm team, uint32_t creating_thread, uint32_t generation,
                               uint64_t time)
{
    return record_pair_at(WEFT_EVENT_TASK_COMPLETE, 0, team.id, creating_thread, generation,
                          time);
}

const void *weft_event_position(void)
{
    weft_loc *loc = weft__tls_loc;
    return loc ? (const void *)atomic_load_explicit(&loc->cursor, memory_order_relaxed) : NULL;
}

bool weft_task_switch_undo(const void *position, weft_comm team, uint32_t creating_thread,
                           uint32_t generation, weft_region entered)
{
    weft_loc *loc = weft__tls_loc;
    if (!loc || !loc->chunk || !position)
        return false;
    /* Relaxed: only this thread stores the cursor. The events must lie in
     * the current chunk (a chunk handed over may be written already) and be
     * the last ones: both hold when the cursor is right after them. */
    size_t slots = entered.id == WEFT_INVALID_ID ? 2 : 3;
    weft_slot *end = atomic_load_explicit(&loc->cursor, memory_order_relaxed);
    const weft_slot *at = position;
    if ((uintptr_t)at < (uintptr_t)loc->chunk->slots ||
        (uintptr_t)end - (uintptr_t)at != slots * sizeof(weft_slot) ||
        at->head.kind != WEFT_EVENT_TASK_SWITCH || at->head.ref != team.id ||
        at[1].word[0] != weft__pack32(creating_thread, generation))
        return false;
    if (slots == 3 && (at[2].head.kind != WEFT_EVENT_ENTER || at[2].head.ref != entered.id))
        return false;
    /* Release, as weft__loc_commit: a snapshot sees the chunk up to here. */
    atomic_store_explicit(&loc->cursor, (weft_slot *)at, memory_order_release);
    return true;
}

/* MPI messages, blocking and non-blocking. */
static inline void record_message(uint8_t kind, uint32_t peer, weft_comm comm, uint32_t tag,
                                  uint64_t bytes, uint64_t request)
{
    size_t slots = weft__event_slots(kind, 0);
    weft_loc *loc;
    weft_slot *at = reserve(kind, comm.id, slots, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_message(at, kind, weft_clock_now(), peer, comm.id, tag, bytes, request);
    weft__loc_commit(loc, at, slots);
}

void weft_mpi_send(uint32_t receiver, weft_comm comm, uint32_t tag, uint64_t bytes)
{
    record_message(WEFT_EVENT_MPI_SEND, receiver, comm, tag, bytes, 0);
}

void weft_mpi_recv(uint32_t sender, weft_comm comm, uint32_t tag, uint64_t bytes)
{
    record_message(WEFT_EVENT_MPI_RECV, sender, comm, tag, bytes, 0);
}

void weft_mpi_isend(uint32_t receiver, weft_comm comm, uint32_t tag, uint64_t bytes,
                    uint64_t request_id)
{
    record_message(WEFT_EVENT_MPI_ISEND, receiver, comm, tag, bytes, request_id);
}

void weft_mpi_irecv(uint32_t sender, weft_comm comm, uint32_t tag, uint64_t bytes,
                    uint64_t request_id)
{
    record_message(WEFT_EVENT_MPI_IRECV, sender, comm, tag, bytes, request_id);
}

/* Events that carry one 64-bit word. */
static inline void record_word(uint8_t kind, uint64_t word)
{
    weft_loc *loc;
    weft_slot *at = reserve(kind, 0, 2, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_word(at, kind, weft_clock_now(), word);
    weft__loc_commit(loc, at, 2);
}

void weft_parameter_int(uint32_t parameter, int64_t value)
{
    weft_loc *loc;
    weft_slot *at = reserve(WEFT_EVENT_PARAMETER, parameter, 2, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_word(at, WEFT_EVENT_PARAMETER, weft_clock_now(), (uint64_t)value);
    at->head.ref = parameter;
    weft__loc_commit(loc, at, 2);
}

void weft_mpi_isend_complete(uint64_t request_id)
{
    record_word(WEFT_EVENT_MPI_ISEND_COMPLETE, request_id);
}

void weft_mpi_irecv_request(uint64_t request_id)
{
    record_word(WEFT_EVENT_MPI_IRECV_REQUEST, request_id);
}

void weft_mpi_request_test(uint64_t request_id)
{
    record_word(WEFT_EVENT_MPI_REQUEST_TEST, request_id);
}

void weft_mpi_request_cancelled(uint64_t request_id)
{
    record_word(WEFT_EVENT_MPI_REQUEST_CANCELLED, request_id);
}

void weft_mpi_collective_end(weft_collective_op op, weft_comm comm, uint32_t root,
                             uint64_t bytes_sent, uint64_t bytes_received)
{
    weft_loc *loc;
    weft_slot *at = reserve(WEFT_EVENT_MPI_COLLECTIVE_END, comm.id, 3, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_collective_end(at, weft_clock_now(), op, comm.id, root, bytes_sent,
                                bytes_received);
    weft__loc_commit(loc, at, 3);
}

void weft_metric_values(weft_metric metric, uint32_t value_count, const uint64_t *values)
{
    if (value_count > WEFT_METRIC_MAX_VALUES)
        value_count = WEFT_METRIC_MAX_VALUES;
    size_t slots = weft__event_slots(WEFT_EVENT_METRIC, value_count);
    weft_loc *loc;
    weft_slot *at = reserve(WEFT_EVENT_METRIC, metric.id, slots, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_metric(at, weft_clock_now(), metric.id, (uint16_t)value_count, values);
    weft__loc_commit(loc, at, slots);
}

/* MPI-IO and one-sided events (events_io_rma.c): all of one shape, a head
 * and two payload slots (weft__encode_io_rma). */
void weft__record_io_rma(uint8_t kind, uint8_t small, uint32_t ref, uint32_t a, uint32_t b,
                         uint64_t bytes, uint64_t bytes_received, uint64_t request)
{
    weft_loc *loc;
    weft_slot *at = reserve(kind, ref, 3, &loc, NULL);
    if (WEFT_UNLIKELY(!at))
        return;
    weft__encode_io_rma(at, kind, weft_clock_now(), small, ref, a, b, bytes, bytes_received,
                        request);
    weft__loc_commit(loc, at, 3);
}
