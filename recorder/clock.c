/* SPDX-License-Identifier: BSD-3-Clause */
/* Clock selection and TSC calibration; see clock.h. */
#include "clock.h"

#include "weft/log.h"

bool weft__clock_uses_tsc;

/* The start pair, taken at init; read at finalisation only. */
static uint64_t start_ticks, start_mono_ns, start_real_ns;

/* The TSC rate is the ratio of the ticks and the CLOCK_MONOTONIC time
 * between the start pair and a pair taken at finalisation. Each pair is off
 * by at most half the gap between its two counter reads (tens of
 * nanoseconds); converted with the measured rate, a timestamp inside the
 * measured span is then off by no more than that, however short the span:
 * the rate's relative error is that error over the span, and no event is
 * further from the start than the span is long. So there is no minimum
 * span to wait for (it was 20 ms), only this floor against a degenerate
 * one (a run of a few microseconds). */
#define MIN_CALIBRATION_NS 100000u

/* Reads of the counter around one CLOCK_MONOTONIC read, of which the pair
 * with the shortest gap is kept (a read can be interrupted). */
#define PAIR_TRIES 5

static void read_pair(uint64_t *ticks, uint64_t *mono_ns)
{
    uint64_t best_gap = UINT64_MAX;
    *ticks = *mono_ns = 0; /* (the first try always replaces them) */
    for (int i = 0; i < PAIR_TRIES; i++) {
        uint64_t before = weft__arch_ticks_after_prior();
        uint64_t mono = weft__monotonic_ns();
        uint64_t after = weft__arch_ticks_after_prior();
        if (after - before < best_gap) {
            best_gap = after - before;
            *ticks = before + (after - before) / 2;
            *mono_ns = mono;
        }
    }
}

static uint64_t realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void weft_clock_init(weft_timer_kind requested)
{
    bool invariant = weft__arch_has_invariant_tsc();
    if (requested == WEFT_TIMER_TSC && !invariant)
        weft_log_error("WEFT_TIMER=tsc but this CPU has no invariant TSC; using monotonic");
    weft__clock_uses_tsc = invariant && requested != WEFT_TIMER_MONOTONIC;
    start_real_ns = realtime_ns();
    if (weft__clock_uses_tsc)
        read_pair(&start_ticks, &start_mono_ns);
    else
        start_ticks = start_mono_ns = weft__monotonic_ns();
}

double weft__clock_ticks_per_ns(bool *reliable)
{
    *reliable = !weft__clock_uses_tsc;
    if (!weft__clock_uses_tsc)
        return 1.0;
    uint64_t ticks = weft_clock_now();
    uint64_t mono = weft__monotonic_ns();
    if (mono <= start_mono_ns || ticks <= start_ticks)
        return 1.0;
    *reliable = mono - start_mono_ns >= MIN_CALIBRATION_NS;
    return (double)(ticks - start_ticks) / (double)(mono - start_mono_ns);
}

void weft_clock_start_readings(uint64_t *ticks, uint64_t *mono_ns, uint64_t *real_ns)
{
    *ticks = start_ticks;
    *mono_ns = start_mono_ns;
    *real_ns = start_real_ns;
}

const char *weft_clock_name(void)
{
    return weft__clock_uses_tsc ? "tsc" : "monotonic";
}

void weft_clock_describe(uint64_t first, uint64_t last, weft_clock_properties *out)
{
    out->global_offset = first;
    out->trace_length = last >= first ? last - first : 0;
    if (!weft__clock_uses_tsc) {
        out->ticks_per_second = 1000000000u;
        out->realtime_ns = start_real_ns + (first - start_mono_ns);
        return;
    }
    uint64_t mono = weft__monotonic_ns();
    if (mono - start_mono_ns < MIN_CALIBRATION_NS) {
        struct timespec rest = {0, (long)(MIN_CALIBRATION_NS - (mono - start_mono_ns))};
        nanosleep(&rest, NULL);
    }
    uint64_t end_ticks, end_mono;
    read_pair(&end_ticks, &end_mono);
    double rate = (double)(end_ticks - start_ticks) * 1e9 / (double)(end_mono - start_mono_ns);
    out->ticks_per_second = (uint64_t)(rate + 0.5);
    double since_start_ns = ((double)first - (double)start_ticks) * 1e9 / rate;
    out->realtime_ns = start_real_ns + (uint64_t)(since_start_ns > 0 ? since_start_ns : 0);
}
