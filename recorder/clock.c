/* Clock selection and TSC calibration; see clock.h. */
#include "clock.h"

#include "weft/log.h"

bool weft__clock_uses_tsc;

/* The start pair, taken at init; read at finalisation only. */
static uint64_t start_ticks, start_mono_ns, start_real_ns;

/* Shortest span the TSC rate is measured over: the error of two
 * clock_gettime reads (~100 ns) over 20 ms is 5 ppm. */
#define MIN_CALIBRATION_NS 20000000u

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
    start_mono_ns = weft__monotonic_ns();
    start_real_ns = realtime_ns();
    start_ticks = weft_clock_now();
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
    uint64_t end_ticks = weft_clock_now();
    uint64_t end_mono = weft__monotonic_ns();
    double rate = (double)(end_ticks - start_ticks) * 1e9 / (double)(end_mono - start_mono_ns);
    out->ticks_per_second = (uint64_t)(rate + 0.5);
    double since_start_ns = ((double)first - (double)start_ticks) * 1e9 / rate;
    out->realtime_ns = start_real_ns + (uint64_t)(since_start_ns > 0 ? since_start_ns : 0);
}
