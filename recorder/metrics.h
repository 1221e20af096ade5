/* SPDX-License-Identifier: BSD-3-Clause */
/* Metrics read at every region enter and leave: getrusage fields
 * (WEFT_METRIC_RUSAGE) and PAPI counters (WEFT_METRIC_PAPI).
 *
 * At initialisation the configured names are checked once (unknown names,
 * counters the machine lacks or cannot count together each get one line on
 * stderr and are left out) and the remaining ones are defined as one metric
 * class. Each thread then reads them into a METRIC event written just before
 * each of its enter and leave events. With no metric configured, locations
 * keep the fast path and none of this costs anything. */
#ifndef WEFT_RECORDER_METRICS_H
#define WEFT_RECORDER_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "location.h"
#include "weft/config.h"

/* Parses and checks cfg's metric lists and defines the metric class. */
void weft__metrics_configure(const weft_config *cfg);

/* True when metrics are recorded (some configured name was usable). */
bool weft__metrics_enabled(void);

/* Sets up the calling thread's counters on its new location (loc->metrics
 * stays NULL when there are no metrics, or they fail on this thread). */
void weft__metrics_thread_start(weft_loc *loc);

/* Releases the thread's counters when it ends. */
void weft__metrics_thread_end(weft_loc *loc);

/* Slots of the location's METRIC event. */
size_t weft__metrics_slots(const weft_loc *loc);

/* Reads the thread's metrics and encodes them as a METRIC event at `at`. */
void weft__metrics_write(weft_loc *loc, weft_slot *at, uint64_t time);

#endif /* WEFT_RECORDER_METRICS_H */
