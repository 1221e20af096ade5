/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft convert` for EPILOG: a merged EPILOG trace (all definitions with
 * global ids, then the events of all locations in time order) into an OTF2
 * trace through weft's trace writer. convert_epilog_defs.c reads the
 * definitions into the tables below; convert_epilog.c makes the registry's
 * definitions and converts the events. docs/dev/LEGACY-FORMATS.md, section
 * 1, describes the format and the mapping. Private to tools/. */
#ifndef WEFT_TOOLS_CONVERT_EPILOG_H
#define WEFT_TOOLS_CONVERT_EPILOG_H

#include <stdbool.h>
#include <stdint.h>

#include "convert_output.h"
#include "epilog_reader.h"
#include "weft/trace_writer.h"

#define ELG_MAX_METRICS 64

typedef struct elg_node {
    bool defined;
    uint32_t name; /* string id */
} elg_node;

typedef struct elg_location {
    bool defined;
    uint32_t node, process, thread;
} elg_location;

typedef struct elg_region {
    bool defined;
    uint32_t name, file, begin_line, end_line; /* file: a FILE id */
    uint8_t type;                              /* EPILOG region type */
} elg_region;

typedef struct elg_metric {
    uint32_t name, description;
    bool float_values;
    uint8_t mode, interval;
} elg_metric;

typedef struct elg_comm {
    bool defined, world, self; /* self: MPI_COMM_SELF of each rank (EPIK archives) */
    uint32_t *ranks;           /* members' global ranks, in rank order */
    uint32_t size;
} elg_comm;

/* An MPI group of an EPIK archive's definitions (MPI_GROUP): its comms
 * name it (MPI_COMM_REF). */
typedef struct elg_group {
    bool defined;
    uint8_t mode; /* bit 0: world, bit 1: self */
    uint32_t *ranks, size, capacity;
} elg_group;

/* The definitions, each table indexed by the EPILOG id (count = capacity). */
typedef struct elg_defs {
    char **strings;
    uint32_t string_count;
    elg_node *nodes;
    uint32_t node_count;
    elg_location *locations;
    uint32_t location_count;
    uint32_t *files; /* string id + 1 of each FILE; 0: undefined */
    uint32_t file_count;
    elg_region *regions;
    uint32_t region_count;
    uint32_t *call_sites; /* entered region + 1; 0: undefined */
    uint32_t call_site_count;
    elg_comm *comms;
    uint32_t comm_count;
    elg_group *groups;
    uint32_t group_count;
    uint32_t *comm_groups; /* EPIK archives: group + 1 of each comm; 0: none */
    uint32_t comm_group_count;
    elg_metric metrics[ELG_MAX_METRICS];
    uint32_t metric_count;
} elg_defs;

/* One event record, decoded. */
typedef struct elg_event {
    uint8_t type;
    uint32_t lid;
    double time;
    uint32_t region;                 /* ENTER (ENTER_CS: the call site's region) */
    uint32_t peer, comm, tag, bytes; /* MPI_SEND (peer = dest), MPI_RECV (peer = source) */
    uint32_t root, sent, received;   /* MPI_COLLEXIT (root: a location, or ELG_NO_ID) */
    uint32_t lock;                   /* OMP_ALOCK, OMP_RLOCK */
    bool peers_are_ranks; /* peer and root are ranks in comm (EPIK archives' local files),
                             not global locations (merged traces) */
    bool has_metrics;
    uint64_t metrics[ELG_MAX_METRICS];
} elg_event;

/* EPILOG's times are seconds; the trace counts nanoseconds. */
#define ELG_TICKS_PER_SECOND 1000000000u

/* The converting state of one EPILOG location. */
typedef struct elg_location_state {
    convert_lane lane; /* stack: open EPILOG regions (CONVERT_TEAM_BIT: began a team) */
    uint32_t process, thread;
    uint64_t tracing_since; /* ENTER_TRACING's time, while tracing */
} elg_location_state;

/* The converting state of one process (EPILOG's process = MPI rank). */
typedef struct elg_process_state {
    bool defined;
    weft_location *threads; /* by thread number, teams.thread_count of them */
    convert_teams teams;
} elg_process_state;

/* A conversion in progress. */
typedef struct elg_convert {
    epilog_reader *reader;
    elg_defs defs;
    char err[512];
    /* definition records continued by the next ones */
    uint8_t string_continuations;
    uint32_t continued_string;
    uint32_t comm_bytes_left, continued_comm;
    size_t comm_bytes_seen;
    uint32_t group_ranks_left, continued_group;
    uint64_t unknown_definitions, unknown_events;
    bool counting;     /* the first pass: skipped records are counted */
    bool have_pending; /* merged traces: an event read with the definitions */
    epilog_record pending;
    struct elg_archive *archive; /* EPIK archives (convert_epik.c); NULL for merged traces */
    /* Damage that loses events without stopping the reading (an archive's
     * rank without its map section, no events at all): an error unless
     * --keep-partial asks for what can be converted. Empty when none. */
    char salvage[512];
    /* the events */
    convert_output out;
    weft_registry *reg;
    weft_region *regions;          /* by EPILOG region id */
    weft_comm *comms;              /* by EPILOG comm id */
    weft_metric metric;            /* WEFT_INVALID_ID without metrics */
    elg_location_state *locations; /* by EPILOG location id */
    elg_process_state *processes;  /* by EPILOG process id */
    uint32_t process_count;
    struct convert_channels *channels; /* convert_common.h */
    struct elg_lock *locks;
    uint32_t lock_count;
    uint64_t receives_without_size, exits_without_enter, collectives_unknown;
} elg_convert;

/* The first pass over the EPILOG file PATH: opens it (c->reader), reads the
 * definitions, sets up the per-process tables, decodes every event and
 * counts the threads of every fork. 0 with *events the number of events;
 * -2 when the file cannot be opened or is not EPILOG, -1 when it is
 * damaged (c->err says where and how). */
int weft__elg_scan(elg_convert *c, const char *path, uint64_t *events);

/* Decodes an event record of a merged trace: weft__elg_decode_raw, then
 * weft__elg_check_references. -1 with c->err when it is damaged, 1 for a record
 * type weft does not convert. */
int weft__elg_decode_event(elg_convert *c, const epilog_record *rec, elg_event *e);

/* Decodes the fields of an event record, its ids as they are in the file. */
int weft__elg_decode_raw(elg_convert *c, const epilog_record *rec, elg_event *e);

/* Checks that the (global) ids an event refers to are defined. */
int weft__elg_check_references(elg_convert *c, const epilog_record *rec, elg_event *e);

/* First pass over one event: the team size of every fork. */
int weft__elg_count_event(elg_convert *c, const elg_event *e);

/* Second pass: converts one event into the trace writer's events. */
int weft__elg_convert_event(elg_convert *c, const elg_event *e);

/* Closes what the input left open, at each location's last time. */
int weft__elg_close_open_regions(elg_convert *c, uint64_t *closed);

void weft__elg_events_free(elg_convert *c);

/* Reads one definition record into c->defs; -1 with c->err set when it is
 * damaged. */
int weft__elg_read_definition(elg_convert *c, const epilog_record *rec);

/* After the definitions: -1 with c->err when a string, communicator or
 * group still waits for continuation records announced (cut or damaged). */
int weft__elg_definitions_complete(elg_convert *c);

/* EPIK archives: makes the communicators of the MPI_COMM_REF records from
 * their groups (processes ranks in all). -1 when one names an undefined
 * group. */
int weft__elg_resolve_comm_groups(elg_convert *c, uint32_t processes);

/* The ids a definition record at byte OFFSET of its file may define (below
 * the result): a bound proportional to the input, so that a damaged id is
 * damage rather than a table of millions of entries. */
uint32_t weft__elg_id_limit(uint64_t offset);

/* The text of string id, or NULL. */
const char *weft__elg_string(const elg_defs *d, uint32_t id);

void weft__elg_defs_free(elg_defs *d);

/* EPIK archive directories (convert_epik.c): the definitions and maps;
 * each rank's event file, opened for one pass; the next event of all ranks
 * in time order, in global ids and time (1; 0 at the end; -1 on damage). */
int weft__elg_archive_read_definitions(elg_convert *c, const char *dir);
int weft__elg_archive_open_events(elg_convert *c);
int weft__elg_archive_next(elg_convert *c, elg_event *e);
void weft__elg_archive_close_events(elg_convert *c);
void weft__elg_archive_free(elg_convert *c);

/* What weft convert asks for. */
typedef struct elg_options {
    const char *input, *output;
    bool keep_partial;
    int progress; /* weft_progress_mode */
} elg_options;

/* Converts; returns the exit status (0, or 1 after one line on stderr). */
int weft__convert_epilog(const elg_options *options);

#endif /* WEFT_TOOLS_CONVERT_EPILOG_H */
