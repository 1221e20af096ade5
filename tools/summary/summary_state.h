/* SPDX-License-Identifier: BSD-3-Clause */
/* What `weft summary` gathers while the shared reader (trace/) reads a
 * trace: summary_events.c fills it event by event, summary_result.c turns
 * it into a weft_summary. Private to summary/. */
#ifndef WEFT_TOOLS_SUMMARY_STATE_H
#define WEFT_TOOLS_SUMMARY_STATE_H

#include "summary.h"
#include "trace_reader.h"

typedef struct summary_state {
    weft_trace_reader read;          /* first: the event handler gets the reader */
    weft_summary_builder *builder;   /* region times, OpenMP waiting */
    weft_summary_table *pairs;       /* sender << 32 | receiver: the 4 weft_summary_p2p fields */
    weft_summary_table *comm_p2p;    /* comm ref: the 4 weft_summary_p2p fields */
    weft_summary_table *collectives; /* comm ref << 32 | op: calls, sent, received */
    weft_summary_omp *location_omp;  /* per location, indexed like read.locations */
    size_t program_region;           /* what the location's ProgramBegin entered, or NOT_FOUND */
    weft_summary_table *io_ops;      /* rank << 32 | handle: reads, bytes, writes, bytes */
    weft_summary_table *io_time;     /* rank << 32 | handle: ticks, flushes */
    struct summary_io_open *io_open; /* this location's operations begun, not completed */
    size_t io_open_count, io_open_capacity;
    uint64_t undefined_region_count;
    uint64_t undefined_comm_count;
} summary_state;

/* Reads every location's events into the builder and the tables. Reports
 * and returns an error status. */
weft_status weft__summary_read_events(summary_state *s, OTF2_Reader *reader);

/* summary_io.c: an I/O record of the current location (the others are
 * ignored); the I/O rows of the result; freeing the I/O tables. */
weft_status weft__summary_io_event(summary_state *s, const weft_trace_event *e);
weft_status weft__summary_io_begin_location(summary_state *s);
weft_status weft__summary_io_result(const summary_state *s, weft_summary *out);
void weft__summary_io_free(summary_state *s);

/* Frees everything the state owns, the reader's definitions included. */
void weft__summary_state_free(summary_state *s);

#endif /* WEFT_TOOLS_SUMMARY_STATE_H */
