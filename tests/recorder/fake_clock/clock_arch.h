/* Test double of recorder/arch/<arch>/clock_arch.h, for unit tests that
 * compile a recorder source file against it (see tests/recorder/
 * CMakeLists.txt): every tick read calls test_clock_ticks(), which the test
 * defines, so the test decides what each clock read returns, and when.
 * The test sets weft__clock_uses_tsc, so that clock.h reads these. */
#ifndef WEFT_RECORDER_CLOCK_ARCH_H
#define WEFT_RECORDER_CLOCK_ARCH_H

#include <stdbool.h>
#include <stdint.h>

uint64_t test_clock_ticks(void);

static inline uint64_t weft__arch_ticks(void)
{
    return test_clock_ticks();
}

static inline uint64_t weft__arch_ticks_after_prior(void)
{
    return test_clock_ticks();
}

static inline uint64_t weft__arch_ticks_before_later(void)
{
    return test_clock_ticks();
}

static inline bool weft__arch_has_invariant_tsc(void)
{
    return true;
}

#endif /* WEFT_RECORDER_CLOCK_ARCH_H */
/* SPDX-License-Identifier: BSD-3-Clause */
