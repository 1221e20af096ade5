/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-memory event encoding of the per-location buffers.
 *
 * An event is one 16-byte head slot, followed by 0-2 payload slots (32 for
 * a metric event with 64 values). Fixed-size slots keep the hot path to a
 * few stores; the on-disk encoding is OTF2's, written off the hot path.
 *
 *   head:    | time (u64) | kind (u8) | small (u8) | count (u16) | ref (u32) |
 *   payload: | word[0] (u64)          | word[1] (u64)                       |
 *
 * The kinds and their slot counts are listed once, in WEFT_EVENT_LIST. */
#ifndef WEFT_RECORDER_EVENT_CODEC_H
#define WEFT_RECORDER_EVENT_CODEC_H

#include <stddef.h>
#include <stdint.h>

typedef union weft_slot {
    struct {
        uint64_t time;
        uint8_t kind;
        uint8_t small; /* paradigm, collective op, measurement mode */
        uint16_t count; /* metric value count; THREAD_TEAM_BEGIN: thread
                           number in the team (65535 and above saturate) */
        uint32_t ref;   /* region, comm, lock id, metric, team size */
    } head;
    uint64_t word[2];
} weft_slot;

_Static_assert(sizeof(weft_slot) == 16, "a slot is 16 bytes");

#include "weft/event.h"

/* Most values one metric event carries, and its largest size in slots. */
#define WEFT_METRIC_MAX_VALUES 64
#define WEFT_EVENT_MAX_SLOTS (1 + WEFT_METRIC_MAX_VALUES / 2)

/* Slots an event of this kind takes (metric: with value_count values). */
size_t weft__event_slots(uint8_t kind, uint32_t value_count);

/* Decodes the event at slots[0]; returns the number of slots it took, or 0
 * when the slots do not hold a valid event (unknown kind, cut short). */
size_t weft__event_decode(const weft_slot *slots, size_t available, weft_event *out);

/* Name of a kind ("ENTER"), for diagnostics and tests. */
const char *weft__event_kind_name(uint8_t kind);

/* ---- encoders: fill reserved slots; the caller publishes them ---------- */

static inline void weft__encode_head(weft_slot *s, uint8_t kind, uint64_t time, uint8_t small,
                                     uint32_t ref)
{
    s->head.time = time;
    s->head.kind = kind;
    s->head.small = small;
    s->head.count = 0;
    s->head.ref = ref;
}

/* Two 32-bit fields in one payload word: a in the low half. */
static inline uint64_t weft__pack32(uint32_t a, uint32_t b)
{
    return (uint64_t)a | ((uint64_t)b << 32);
}

/* LOCK_*: ref = lock id, small = paradigm, word[0] = acquisition order.
 * TASK_*: ref = team comm, word[0] = creating thread | generation << 32;
 * TASK_CREATE: word[1] = 1 + the string of the task's dependences, 0 for
 * none (see weft_task_create_with_dependences). */
static inline void weft__encode_pair(weft_slot *s, uint8_t kind, uint64_t time, uint8_t small,
                                     uint32_t ref, uint32_t a, uint32_t b)
{
    weft__encode_head(s, kind, time, small, ref);
    s[1].word[0] = weft__pack32(a, b);
    s[1].word[1] = 0;
}

/* MPI_SEND/RECV/ISEND/IRECV: ref = comm, word[0] = peer | tag << 32,
 * word[1] = bytes, and for the non-blocking ones s[2].word[0] = request. */
static inline void weft__encode_message(weft_slot *s, uint8_t kind, uint64_t time,
                                        uint32_t peer, uint32_t comm, uint32_t tag,
                                        uint64_t bytes, uint64_t request)
{
    weft__encode_head(s, kind, time, 0, comm);
    s[1].word[0] = weft__pack32(peer, tag);
    s[1].word[1] = bytes;
    if (kind == WEFT_EVENT_MPI_ISEND || kind == WEFT_EVENT_MPI_IRECV) {
        s[2].word[0] = request;
        s[2].word[1] = 0;
    }
}

/* Request events: word[0] = request id. BUFFER_FLUSH: word[0] = stop time.
 * PARAMETER: ref = parameter (WEFT_PARAMETER_*), word[0] = the int64 value. */
static inline void weft__encode_word(weft_slot *s, uint8_t kind, uint64_t time, uint64_t word)
{
    weft__encode_head(s, kind, time, 0, 0);
    s[1].word[0] = word;
    s[1].word[1] = 0;
}

/* MPI_COLLECTIVE_END: small = op, ref = comm, word[0] = sent,
 * word[1] = received, s[2].word[0] = root. */
static inline void weft__encode_collective_end(weft_slot *s, uint64_t time, uint8_t op,
                                               uint32_t comm, uint32_t root, uint64_t sent,
                                               uint64_t received)
{
    weft__encode_head(s, WEFT_EVENT_MPI_COLLECTIVE_END, time, op, comm);
    s[1].word[0] = sent;
    s[1].word[1] = received;
    s[2].word[0] = root;
    s[2].word[1] = 0;
}

/* I/O and RMA events (WEFT_EVENT_IS_IO_RMA): ref = handle or window,
 * small = mode/type, word[0] = a | b << 32, word[1] = bytes,
 * s[2].word[0] = bytes_received, s[2].word[1] = request (matching id). */
static inline void weft__encode_io_rma(weft_slot *s, uint8_t kind, uint64_t time, uint8_t small,
                                       uint32_t ref, uint32_t a, uint32_t b, uint64_t bytes,
                                       uint64_t bytes_received, uint64_t request)
{
    weft__encode_head(s, kind, time, small, ref);
    s[1].word[0] = weft__pack32(a, b);
    s[1].word[1] = bytes;
    s[2].word[0] = bytes_received;
    s[2].word[1] = request;
}

/* METRIC: ref = metric, count = number of values, values two per slot. */
static inline void weft__encode_metric(weft_slot *s, uint64_t time, uint32_t metric,
                                       uint16_t count, const uint64_t *values)
{
    weft__encode_head(s, WEFT_EVENT_METRIC, time, 0, metric);
    s->head.count = count;
    uint64_t *out = s[1].word;
    for (uint16_t i = 0; i < count; i++)
        out[i] = values[i];
    if (count & 1u)
        out[count] = 0;
}

#endif /* WEFT_RECORDER_EVENT_CODEC_H */
