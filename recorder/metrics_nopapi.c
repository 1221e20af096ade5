/* SPDX-License-Identifier: BSD-3-Clause */
/* A build without PAPI (libpapi-dev was not found): WEFT_METRIC_PAPI says
 * so once and records nothing. See metrics_source.h. */
#include "metrics_source.h"
#include "weft/log.h"

void weft__papi_configure(const char *list, weft_metric_member_desc *members, uint32_t *count)
{
    (void)members;
    (void)count;
    if (list)
        weft_log_error("WEFT_METRIC_PAPI is set, but this weft was built without PAPI; no PAPI "
                       "metrics are recorded");
}

bool weft__papi_thread_start(int *state)
{
    *state = -1;
    return true;
}

uint32_t weft__papi_read(int state, uint64_t *values)
{
    (void)state;
    (void)values;
    return 0;
}

void weft__papi_thread_end(int state)
{
    (void)state;
}
