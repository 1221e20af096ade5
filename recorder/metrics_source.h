/* SPDX-License-Identifier: BSD-3-Clause */
/* The sources metrics.c reads: getrusage (metrics_rusage.c) and PAPI
 * (metrics_papi.c, or metrics_nopapi.c in a build without PAPI). Each
 * parses its WEFT_METRIC_* list once, reports what it leaves out, and
 * appends the descriptions of what it keeps. */
#ifndef WEFT_RECORDER_METRICS_SOURCE_H
#define WEFT_RECORDER_METRICS_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/definitions.h"

/* Appends the members for the rusage names in `list` to members[*count]
 * (room for WEFT_METRIC_MAX_MEMBERS). */
void weft__rusage_configure(const char *list, weft_metric_member_desc *members, uint32_t *count);

/* Reads the configured rusage values of the calling thread into values;
 * returns how many. */
uint32_t weft__rusage_read(uint64_t *values);

/* Checks the PAPI events in `list` on the calling thread and appends the
 * members of those that can be counted together. */
void weft__papi_configure(const char *list, weft_metric_member_desc *members, uint32_t *count);

/* Per-thread PAPI counters: starts them (false when they cannot be started
 * on this thread), reads them, stops them. *state is the thread's event
 * set. */
bool weft__papi_thread_start(int *state);
uint32_t weft__papi_read(int state, uint64_t *values);
void weft__papi_thread_end(int state);

#endif /* WEFT_RECORDER_METRICS_SOURCE_H */
