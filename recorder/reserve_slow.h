/* SPDX-License-Identifier: BSD-3-Clause */
/* The slow path of every event (see events.c's reserve). */
#ifndef WEFT_RECORDER_RESERVE_SLOW_H
#define WEFT_RECORDER_RESERVE_SLOW_H

#include <stddef.h>
#include <stdint.h>

#include "location.h"

/* Initialises the recorder on the very first event, creates the calling
 * thread's location on its first, applies a pause (pause.h), writes the
 * metrics that precede an enter or leave (metrics.h), and hands a full
 * chunk over. Returns where the event of `slots` slots goes, or NULL when
 * it is not recorded. With `time` (an explicit-time event): when the thread
 * had to wait for a buffer, the buffer-flush record in front of the event
 * was timed then, so *time moves up to the current time to keep the
 * location's events in order; metrics are stamped with *time. */
weft_slot *weft__reserve_slow(uint8_t kind, uint32_t ref, size_t slots, weft_loc **loc_out,
                              uint64_t *time);

#endif /* WEFT_RECORDER_RESERVE_SLOW_H */
