/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing one event of the generic model (weft/event.h) as its OTF2 event
 * record: shared by the recorder's sink and the trace writer of
 * `weft convert`, so both write events the same way. */
#ifndef WEFT_RECORDER_OTF2_EVENTS_H
#define WEFT_RECORDER_OTF2_EVENTS_H

#include <otf2/otf2.h>

#include "weft/event.h"

/* Writes e with w; OTF2's verdict. An unknown kind: OTF2_ERROR_INVALID_ARGUMENT. */
OTF2_ErrorCode weft__otf2_write_event(OTF2_EvtWriter *w, const weft_event *e);

#endif /* WEFT_RECORDER_OTF2_EVENTS_H */
