/* The slow path of every event; see reserve_slow.h. */
#include "reserve_slow.h"

#include "clock.h"
#include "lifecycle.h"
#include "metrics.h"

weft_slot *weft__reserve_slow(uint8_t kind, uint32_t ref, size_t slots, weft_loc **loc_out,
                              uint64_t *time)
{
    bool paused;
    if (!weft__gate_slow(&paused))
        return NULL;
    weft_loc *loc = weft__tls_loc;
    if (!loc) {
        if (!(loc = weft__loc_create()))
            return NULL;
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
        at = weft__loc_refill(loc, needed);
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
