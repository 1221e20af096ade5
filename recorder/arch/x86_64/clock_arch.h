/* SPDX-License-Identifier: BSD-3-Clause */
/* x86-64 time-stamp counter: read inline, invariance from CPUID. */
#ifndef WEFT_RECORDER_CLOCK_ARCH_H
#define WEFT_RECORDER_CLOCK_ARCH_H

#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>
#include <x86intrin.h>

/* rdtsc without serialisation: events need ordering per thread, which the
 * counter's monotonicity already gives, not fencing against the pipeline. */
static inline uint64_t weft__arch_ticks(void)
{
    return __rdtsc();
}

/* rdtsc ordered against the code around it, for events that other threads'
 * events must be ordered against (lock acquisitions and releases). Without
 * it, a release recorded before the unlock was seen stamped ~100 ticks after
 * another thread's acquisition. One lfence each: after_prior waits until
 * the instructions before it (taking the lock) have completed;
 * before_later keeps those after it (letting the lock go) from starting
 * before the counter is read. */
static inline uint64_t weft__arch_ticks_after_prior(void)
{
    _mm_lfence();
    return __rdtsc();
}

static inline uint64_t weft__arch_ticks_before_later(void)
{
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

/* True when CPUID advertises an invariant TSC (leaf 0x80000007, EDX bit 8):
 * constant rate in every P-, C- and T-state, so ticks convert to time. */
static inline bool weft__arch_has_invariant_tsc(void)
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
        return false;
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    return (edx >> 8) & 1u;
}

#endif /* WEFT_RECORDER_CLOCK_ARCH_H */
