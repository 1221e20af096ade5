/* SPDX-License-Identifier: BSD-3-Clause */
/* The event clock: an invariant TSC or CLOCK_MONOTONIC, chosen once.
 *
 * weft_clock_now() is inline and used on the hot path. The TSC rate is not
 * measured at start (that would delay the program): the clock keeps a
 * (ticks, CLOCK_MONOTONIC) pair from weft_clock_init and another from
 * finalisation, and the rate is their ratio over the whole run (see
 * clock.c for why a short run needs no longer span). */
#ifndef WEFT_RECORDER_CLOCK_H
#define WEFT_RECORDER_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "weft/compiler.h"
#include "clock_arch.h"
#include "weft/config.h"
#include "weft/definitions.h"

/* Resolved at weft_clock_init (before any event is recorded, ordered by the
 * recorder's init once) and constant afterwards: plain reads are safe. */
extern bool weft__clock_uses_tsc;

static inline uint64_t weft__monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The current timestamp in clock ticks. Hot-path safe. */
static inline uint64_t weft_clock_now(void)
{
    if (WEFT_LIKELY(weft__clock_uses_tsc))
        return weft__arch_ticks();
    return weft__monotonic_ns();
}

/* The current timestamp, read after the code before it completed, or before
 * the code after it starts (see clock_arch.h): for events that must be
 * ordered across threads, a lock's acquisition and its release. */
static inline uint64_t weft_clock_now_after_prior(void)
{
    if (WEFT_LIKELY(weft__clock_uses_tsc))
        return weft__arch_ticks_after_prior();
    return weft__monotonic_ns();
}

static inline uint64_t weft_clock_now_before_later(void)
{
    if (WEFT_LIKELY(weft__clock_uses_tsc))
        return weft__arch_ticks_before_later();
    return weft__monotonic_ns();
}

/* Picks the clock (AUTO: TSC when invariant) and records the start pair.
 * Says in one line when a requested TSC is not available. */
void weft_clock_init(weft_timer_kind requested);

/* Clock ticks per nanosecond as measured from the start until now (1 for
 * the monotonic clock): for converting durations during the run, which
 * the trace's own rate (weft_clock_describe) is not known for. *RELIABLE
 * tells whether the run was long enough for the measurement (20 ms). Takes
 * two clock reads; not for the hot path. */
double weft__clock_ticks_per_ns(bool *reliable);

/* Name of the clock in use, for diagnostics ("tsc", "monotonic"). */
const char *weft_clock_name(void);

/* The readings taken when the clock was set up: ticks, CLOCK_MONOTONIC and
 * the wall clock (ns). With a later pair they give the tick rate (the
 * recovery journal keeps them for traces that are never finalised). */
void weft_clock_start_readings(uint64_t *ticks, uint64_t *mono_ns, uint64_t *real_ns);

/* Calibrates (the TSC rate) and fills the OTF2 clock properties for a trace
 * whose events span [first, last]. Call once, at finalisation. */
void weft_clock_describe(uint64_t first, uint64_t last, weft_clock_properties *out);

#endif /* WEFT_RECORDER_CLOCK_H */
