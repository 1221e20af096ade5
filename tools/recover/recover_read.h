/* SPDX-License-Identifier: BSD-3-Clause */
/* What recover_read.c and recover_read_io_rma.c share: handing a record,
 * made back into the weft_event it was written from, to the reading's
 * callback. */
#ifndef WEFT_TOOLS_RECOVER_READ_H
#define WEFT_TOOLS_RECOVER_READ_H

#include <otf2/otf2.h>
#include <stdbool.h>

#include "weft/event.h"

/* E at TIME, the POSITION-th record of the location being read
 * (user_data is the reading). */
OTF2_CallbackCode recover_deliver(void *user_data, uint64_t position, weft_event *e,
                                  OTF2_TimeStamp time);

/* The collective operation weft numbers as OTF2's OP. */
uint8_t recover_collective_of(OTF2_CollectiveOp op);

/* Registers the MPI-IO and one-sided records (recover_read_io_rma.c). */
bool recover_set_io_rma_callbacks(OTF2_EvtReaderCallbacks *cb);

#endif /* WEFT_TOOLS_RECOVER_READ_H */
