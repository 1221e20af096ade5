/* SPDX-License-Identifier: BSD-3-Clause */
/* Metrics at region enter and leave; see metrics.h. */
#include "metrics.h"

#include "metrics_source.h"
#include "weft/alloc.h"
#include "weft/log.h"

struct weft_thread_metrics {
    int papi_state; /* the thread's PAPI event set */
};

/* Decided once by weft__metrics_configure, before any location exists. */
static weft_metric metric_class = {WEFT_INVALID_ID};
static uint32_t value_count;

void weft__metrics_configure(const weft_config *cfg)
{
    weft_metric_member_desc members[WEFT_METRIC_MAX_MEMBERS];
    uint32_t count = 0;
    weft__rusage_configure(cfg->metric_rusage, members, &count);
    weft__papi_configure(cfg->metric_papi, members, &count);
    if (count == 0)
        return;
    if (weft_registry_metric_class(weft_defs_global(), members, count, &metric_class) != WEFT_OK) {
        weft_log_error("out of memory defining the metrics; none are recorded");
        return;
    }
    value_count = count;
    weft_log_verbose("recording %u metric values at every region enter and leave", count);
}

bool weft__metrics_enabled(void)
{
    return value_count > 0;
}

void weft__metrics_thread_start(weft_loc *loc)
{
    if (value_count == 0)
        return;
    struct weft_thread_metrics *m = weft_calloc(1, sizeof(*m));
    if (m && weft__papi_thread_start(&m->papi_state)) {
        loc->metrics = m;
        return;
    }
    weft_free(m);
    weft_log_error("thread %u cannot count its metrics (%s); its events carry none",
                   loc->thread_number, m ? "PAPI refused its event set" : "out of memory");
}

void weft__metrics_thread_end(weft_loc *loc)
{
    struct weft_thread_metrics *m = loc->metrics;
    if (!m)
        return;
    loc->metrics = NULL;
    weft__papi_thread_end(m->papi_state);
    weft_free(m);
}

size_t weft__metrics_slots(const weft_loc *loc)
{
    (void)loc;
    return weft__event_slots(WEFT_EVENT_METRIC, value_count);
}

void weft__metrics_write(weft_loc *loc, weft_slot *at, uint64_t time)
{
    uint64_t values[WEFT_METRIC_MAX_MEMBERS];
    uint32_t n = weft__rusage_read(values);
    n += weft__papi_read(loc->metrics->papi_state, values + n);
    weft__encode_metric(at, time, metric_class.id, (uint16_t)n, values);
}
