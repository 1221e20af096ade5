/* SPDX-License-Identifier: BSD-3-Clause */
/* POMP2 events shared by the C and the Fortran entry points; see
 * pomp_events.c. Handles are the application's handle variables. */
#ifndef WEFT_ADAPTERS_POMP_EVENTS_H
#define WEFT_ADAPTERS_POMP_EVENTS_H

#include <stdbool.h>

#include "omp_runtime.h"
#include "pomp_internal.h"

void weft__pomp_parallel_fork(void **handle, int if_clause, int num_threads, pomp_task *old_task,
                              const char *ctc, size_t ctc_len);
void weft__pomp_parallel_begin(void **handle);
void weft__pomp_parallel_end(void **handle);

/* Barriers and taskwait: `part` is POMP_MAIN for explicit ones, POMP_BARRIER
 * for the implicit barrier of a construct. */
void weft__pomp_sync_enter(void **handle, pomp_task *old_task, const char *ctc, size_t ctc_len,
                           pomp_part part);
void weft__pomp_sync_exit(void **handle, pomp_task old_task, pomp_part part);

void weft__pomp_critical_begin(void **handle);
void weft__pomp_critical_end(void **handle);
/* The same for a construct already resolved. */
void weft__pomp_critical_acquired(const pomp_region *r);
void weft__pomp_critical_releasing(const pomp_region *r);

/* Tasks; untied: called through POMP2_Untied_task_* (regions TASK_UNTIED). */
void weft__pomp_task_create_begin(void **handle, pomp_task *new_task, pomp_task *old_task,
                                  const char *ctc, size_t ctc_len, bool untied);
void weft__pomp_task_create_end(void **handle, pomp_task old_task, bool untied);
void weft__pomp_task_begin(void **handle, pomp_task task, bool untied);
void weft__pomp_task_end(void **handle, bool untied);

/* The region of an OpenMP lock routine ("omp_set_lock", file "OMP"). */
weft_region weft__pomp_lock_region(omp_lock_call call);

/* The lock events of one lock id (acquisition order counted per lock). */
void weft__pomp_lock_acquired(uint32_t id);
void weft__pomp_lock_releasing(uint32_t id);

/* One OpenMP lock routine with its events; returns the routine's result. */
int weft__pomp_lock(omp_lock_call call, void *lock, bool fortran);

#endif /* WEFT_ADAPTERS_POMP_EVENTS_H */
