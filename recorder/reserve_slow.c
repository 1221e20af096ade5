/* SPDX-License-Identifier: BSD-3-Clause */
/* The slow path of every event; see reserve_slow.h. */
#include "reserve_slow.h"

#include <errno.h>

#include "clock.h"
#include "lifecycle.h"
#include "metrics.h"
#include "signals.h"

/* The calling thread could not get a location (out of memory): it records
 * nothing rather than try again at every event. */
static __thread bool without_location;

/* The parts of the slow path that take weft's locks run with signals held
 * back (signals.h): a chunk's hand-over takes microseconds, a wait for a
 * free chunk lasts until the writer returns one. */
static weft_loc *create_location(void)
{
    weft_signals_held before;
    weft__signals_hold(&before);
    weft_loc *loc = weft__loc_create();
    weft__signals_release(&before);
    return loc;
}

static weft_slot *refill(weft_loc *loc, size_t slots)
{
    weft_signals_held before;
    weft__signals_hold(&before);
    weft_slot *at = weft__loc_refill(loc, slots);
    weft__signals_release(&before);
    return at;
}

static weft_slot *reserve(uint8_t kind, uint32_t ref, size_t slots, weft_loc **loc_out,
                         uint64_t *time)
{
    bool paused;
    if (!weft__gate_slow(&paused))
        return NULL;
    weft_loc *loc = weft__tls_loc;
    if (!loc) {
        if (without_location || !(loc = create_location())) {
            without_location = true;
            return NULL;
        }
        /* A reused location: its events stay in time order across owners. */
        if (time && *time < loc->idle_since)
            *time = loc->idle_since;
    }
    bool admitted = weft__pause_admit(&loc->pause, kind, ref, paused);
    weft__loc_update_fast(loc);
    if (!admitted)
        return NULL;

    size_t metric_slots = 0;
    if (loc->metrics && (kind == WEFT_EVENT_ENTER || kind == WEFT_EVENT_LEAVE))
        metric_slots = weft__metrics_slots(loc);
    size_t needed = metric_slots + slots;
    weft_slot *at = atomic_load_explicit(&loc->cursor, memory_order_relaxed);
    if (!at || (size_t)(loc->limit - at) < needed) {
        at = refill(loc, needed);
        if (!at)
            return NULL;
        if (time && at != loc->chunk->slots) {
            /* The refill waited and put a buffer-flush record first. */
            uint64_t now = weft_clock_now();
            *time = *time > now ? *time : now;
        }
    }
    if (metric_slots) {
        weft__metrics_write(loc, at, time ? *time : weft_clock_now());
        weft__loc_commit(loc, at, metric_slots);
        at += metric_slots;
    }
    *loc_out = loc;
    return at;
}

/* The program's errno is its own: starting the recorder (files, threads),
 * creating a location or waiting for a buffer must not change what the
 * program sees after an event. */
weft_slot *weft__reserve_slow(uint8_t kind, uint32_t ref, size_t slots, weft_loc **loc_out,
                              uint64_t *time)
{
    int saved_errno = errno;
    weft_slot *at = reserve(kind, ref, slots, loc_out, time);
    errno = saved_errno;
    return at;
}
