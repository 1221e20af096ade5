/* SPDX-License-Identifier: BSD-3-Clause */
/* The one recording function behind the MPI-IO and one-sided entry points
 * (events_io_rma.c); it lives in events.c beside the hot path's reserve. */
#ifndef WEFT_RECORDER_EVENTS_IO_RMA_H
#define WEFT_RECORDER_EVENTS_IO_RMA_H

#include <stdint.h>

/* Records an event of an I/O or RMA kind with the fields of weft_event
 * (event.h says which mean what for each kind). */
void weft__record_io_rma(uint8_t kind, uint8_t small, uint32_t ref, uint32_t a, uint32_t b,
                         uint64_t bytes, uint64_t bytes_received, uint64_t request);

#endif /* WEFT_RECORDER_EVENTS_IO_RMA_H */
