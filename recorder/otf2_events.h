/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing one event of the generic model (weft/event.h) as its OTF2 event
 * record: shared by the recorder's sink and the trace writer of
 * `weft convert`, so both write events the same way. */
#ifndef WEFT_RECORDER_OTF2_EVENTS_H
#define WEFT_RECORDER_OTF2_EVENTS_H

#include <otf2/otf2.h>

#include "weft/event.h"

/* The creating thread a task event names: the adapters number an implicit
 * task (generation 0) by the thread's number in its team, but Scalasca's
 * analyzer takes a location's implicit task to be the one named by the
 * location's own thread index (the upper half of its OTF2 id) and mistook
 * the blocks of the implicit task for another task's where the two differ
 * (three or more threads, which libomp numbers in another order than the
 * threads started): SIGSEGV. So an implicit task is named by the location. */
static inline uint32_t weft__otf2_task_thread(uint32_t thread, uint32_t generation,
                                              uint32_t location_thread)
{
    return generation == 0 ? location_thread : thread;
}

/* Writes e with w; OTF2's verdict. An unknown kind: OTF2_ERROR_INVALID_ARGUMENT. */
OTF2_ErrorCode weft__otf2_write_event(OTF2_EvtWriter *w, const weft_event *e);

#endif /* WEFT_RECORDER_OTF2_EVENTS_H */
