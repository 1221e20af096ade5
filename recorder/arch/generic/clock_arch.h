/* SPDX-License-Identifier: BSD-3-Clause */
/* Machines without a known cycle counter: no TSC, clock_gettime only. */
#ifndef WEFT_RECORDER_CLOCK_ARCH_H
#define WEFT_RECORDER_CLOCK_ARCH_H

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t weft__arch_ticks(void)
{
    return 0;
}

static inline uint64_t weft__arch_ticks_after_prior(void)
{
    return 0;
}

static inline uint64_t weft__arch_ticks_before_later(void)
{
    return 0;
}

static inline bool weft__arch_has_invariant_tsc(void)
{
    return false;
}

#endif /* WEFT_RECORDER_CLOCK_ARCH_H */
