/* SPDX-License-Identifier: BSD-3-Clause */
/* What the OpenMP adapters (POMP2, OMPT) record, decided once for both:
 *
 *   - WEFT_OPENMP_EVENTS leaves out groups of events (flush, atomic, locks,
 *     tasks, ...; weft/openmp.h), parallel regions never;
 *   - the filter file (WEFT_FILTERING_FILE) leaves out OpenMP regions by
 *     name, with rules whose pattern starts with "!$omp";
 *   - throttling (WEFT_THROTTLE, WEFT_THROTTLE_NUMCALLS,
 *     WEFT_THROTTLE_PERCALL) stops recording a region on a thread once it
 *     was entered more than NUMCALLS times there for less than PERCALL on
 *     average, as TAU does it; the end of the run names the regions.
 *     Never a barrier (every thread of a team must record the same ones:
 *     Scalasca's analyzer meets its own threads at each), a critical
 *     section or a lock routine (their lock events need their region and
 *     every acquisition of the lock).
 *
 * Only regions whose enter and leave are all they record can be left out
 * one by one (weft_omp_region_optional): never parallel regions, whose
 * forks, joins and thread teams the trace's structure hangs on, nor tasks.
 * A region left out or throttled loses enter and leave together, so every
 * trace stays balanced. */
#ifndef WEFT_RECORDER_OPENMP_CONTROL_H
#define WEFT_RECORDER_OPENMP_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/definitions.h"
#include "weft/openmp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defines the region DESC of an OpenMP construct of kind KIND for an
 * adapter and returns it, or WEFT_REGION_INVALID when its group is left
 * out (WEFT_OPENMP_EVENTS) or the filter file excludes its name: its
 * events then cost a branch. A region that cannot be registered is
 * reported once and INVALID too. Starts recording (weft_init) when it has
 * not started. Thread-safe; call it once per region, not per event. */
WEFT_EXPORT weft_region weft_openmp_region(const weft_region_desc *desc, weft_omp_region kind);

/* True when WEFT_OPENMP_EVENTS records GROUP: for the events that are not
 * regions (the lock events of locks and critical sections, the creation,
 * switch and completion events of tasks). */
WEFT_EXPORT bool weft_openmp_group_recorded(weft_omp_group group);

/* weft_enter and weft_leave (and their _at forms) for the regions of
 * weft_openmp_region, throttled: a region throttled on the calling thread
 * records nothing there from then on, enter and leave alike. An INVALID
 * region records nothing. The _at forms return the time recorded, as
 * weft_enter_at does (the time given when nothing is recorded). */
WEFT_EXPORT void weft_openmp_enter(weft_region region);
WEFT_EXPORT void weft_openmp_leave(weft_region region);
WEFT_EXPORT uint64_t weft_openmp_enter_at(weft_region region, uint64_t time);
WEFT_EXPORT uint64_t weft_openmp_leave_at(weft_region region, uint64_t time);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECORDER_OPENMP_CONTROL_H */
