/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft recover DIR`: turns what a recording that never finished left in
 * its experiment directory (OTF2 event files without traces.otf2 and the
 * definitions, and the recorder's journal, weft/journal.h) into a sound
 * trace of everything that reached the disk, in DIR itself, with a report
 * of what was lost (docs/FAULTS.md, docs/COMMANDS.md).
 *
 *   recover.c        the command: options, moving the leftovers aside,
 *                    the steps below, the report
 *   recover_shadow.c an OTF2 anchor and minimal definitions for the
 *                    leftover event files, so that OTF2 can read them
 *   recover_read.c   reading one location's events as weft_events, through
 *                    the trace reader's OTF2 event callbacks (tools/trace)
 *   recover_match.c  MPI: messages and collectives whose partner's events
 *                    did not reach the disk, to be left out
 *   recover_write.c  writing a location's events into the new trace: ids
 *                    and clocks of its process made global, what is open
 *                    at its end closed, the program's end added */
#ifndef WEFT_TOOLS_RECOVER_H
#define WEFT_TOOLS_RECOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/definitions.h"
#include "weft/event.h"
#include "weft/journal.h"
#include "weft/status.h"
#include "weft/trace_writer.h"

#define RECOVER "weft recover"

/* One location of the leftovers. */
typedef struct recover_location {
    weft_location loc;       /* in the new trace's registry */
    uint64_t otf2_id;        /* its event file: traces/<otf2_id>.evt */
    size_t part;             /* index of its process's journal */
    uint64_t bytes_cut;      /* a last, partly written chunk left out */
    uint64_t events_on_disk; /* in the whole chunks of its file */
    bool has_file;
    /* What reading and writing it gave. */
    uint64_t events_read, events_written, events_dropped, scopes_closed;
    bool damaged; /* reading stopped at a damaged record */
    bool program_end_added;
    uint64_t first_time, last_time; /* global ticks; valid when events_written */
} recover_location;

/* Everything the steps share. */
typedef struct recover_state {
    const char *dir;
    char leftovers[4200]; /* DIR/leftovers: the old traces/ and journal/ */
    char shadow[4300];    /* DIR/leftovers/shadow: the archive OTF2 reads them through */
    weft_trace_writer *writer;
    weft_registry *reg; /* the writer's */
    weft_journal_part *parts;
    size_t part_count;
    recover_location *locations;
    size_t location_count;
    struct recover_drops *drops; /* recover_match.c; NULL when nothing is left out */
    uint64_t *cuts; /* per location, the first position cut (recover_teams.c); NULL: none */
    uint64_t events_written, events_dropped;
} recover_state;

/* recover_shadow.c: writes the shadow archive for every location of the
 * registry (filling st->locations), links the event files into it and cuts
 * a partly written last chunk off each. Reports failures. */
weft_status recover_shadow_create(recover_state *st);

/* recover_read.c: reads the events of location INDEX from the shadow
 * archive, handing each to FN with CONTEXT; stops quietly at the first
 * record OTF2 cannot read (marking the location damaged). The events carry
 * the location's own ids and ticks. */
typedef weft_status recover_event_fn(recover_state *st, size_t index, uint64_t position,
                                     const weft_event *e, void *context);
weft_status recover_read_location(recover_state *st, size_t index, recover_event_fn *fn,
                                  void *context);
/* Makes *VALUES (room for *CAPACITY) hold at least COUNT, growing it;
 * false when out of memory. For the copies of a ProgramBegin's arguments
 * reading and writing make. */
bool recover_reserve(uint64_t **values, uint32_t *capacity, uint32_t count);

/* recover.c: whether the trace defines a communicator of PARADIGM (MPI:
 * messages may lose their partner; OpenMP: thread teams to plan). */
bool recover_has_comm(const recover_state *st, weft_paradigm paradigm);

/* recover_teams.c: a pass (two when needed) over every location that
 * finds where each must end so that its OpenMP teams end alike on every
 * thread; recover_cut tells whether the event at POSITION of location INDEX
 * comes after that (left out, and not matched). */
weft_status recover_plan_teams(recover_state *st);
bool recover_cut(const recover_state *st, size_t index, uint64_t position);

/* recover_match.c: for MPI traces (more than one process, or message or
 * collective events at all), a first pass over every location that decides
 * which message and collective events lose their partner and must be left
 * out. recover_dropped tells whether the event at POSITION (from 1) of
 * location INDEX is one of them. */
weft_status recover_match(recover_state *st);
bool recover_dropped(const recover_state *st, size_t index, uint64_t position);
void recover_match_free(recover_state *st);

/* recover_write.c: copies location INDEX into the new trace. */
weft_status recover_write_location(recover_state *st, size_t index);

/* The id maps and clock of a location's process (recover_write.c, also
 * used by recover_match.c). */
uint32_t recover_map_comm(const recover_state *st, size_t part, uint32_t comm);
uint32_t recover_map_region(const recover_state *st, size_t part, uint32_t region);
uint64_t recover_global_time(const recover_state *st, size_t part, uint64_t ticks);

#endif /* WEFT_TOOLS_RECOVER_H */
