/* Shared state of the three files that read a trace for `weft summary`:
 * summary_defs.c (global definitions, lookups, rank translation),
 * summary_events.c (event callbacks, the per-location loop, progress) and
 * summary_read.c (opening the archive, error reports, the result). Private
 * to those files. */
#ifndef WEFT_TOOLS_SUMMARY_READER_H
#define WEFT_TOOLS_SUMMARY_READER_H

#include "summary.h"

#include <otf2/otf2.h>

#define NOT_FOUND SIZE_MAX
#define WEFT_SUMMARY_ANCHOR_NAME "traces.otf2"
#define DAMAGED "the trace is damaged or truncated"

typedef struct string_def {
    uint64_t ref;
    char *text; /* owned */
} string_def;

typedef struct region_def {
    uint64_t ref;
    uint64_t name_ref;
    uint64_t canonical_ref;
    uint64_t file_ref;
    uint8_t paradigm; /* OTF2_Paradigm */
    uint8_t role;     /* OTF2_RegionRole */
} region_def;

typedef struct group_def { /* a location group */
    uint64_t ref;
    uint8_t type; /* OTF2_LocationGroupType */
    uint32_t rank;
} group_def;

typedef struct location_def {
    uint64_t ref;
    uint64_t name_ref;
    uint64_t group_ref;
    uint64_t event_count; /* as the definition claims */
    uint8_t type;         /* OTF2_LocationType */
    uint32_t rank;        /* resolved from its location group */
} location_def;

typedef struct members_def { /* a Group of type COMM_LOCATIONS, COMM_GROUP or COMM_SELF */
    uint64_t ref;
    uint8_t type;     /* OTF2_GroupType */
    uint8_t paradigm; /* OTF2_Paradigm */
    uint64_t flags;   /* OTF2_GroupFlag */
    uint32_t count;
    uint64_t *members; /* owned */
} members_def;

typedef struct comm_def {
    uint64_t ref;
    uint64_t name_ref;
    uint64_t group_ref;
    size_t members; /* index into read_state.member_groups, or NOT_FOUND */
} comm_def;

/* Everything collected while reading; freed by weft__summary_free_state. */
typedef struct read_state {
    const char *command; /* "weft summary", "weft check": prefixes every message */
    const char *path;

    /* Global definitions; each array sorted by ref once they are read. */
    string_def *strings;
    size_t string_count, string_capacity;
    region_def *regions;
    size_t region_count, region_capacity;
    group_def *groups;
    size_t group_count, group_capacity;
    location_def *locations; /* duplicates dropped; read in this order */
    size_t location_count, location_capacity;
    members_def *member_groups;
    size_t member_group_count, member_group_capacity;
    comm_def *comms;
    size_t comm_count, comm_capacity;
    bool have_clock;
    uint64_t timer_resolution;
    uint64_t global_offset;
    uint64_t trace_length;

    /* Accumulated from the events. */
    weft_summary_builder *builder;
    weft_summary_table *pairs;       /* sender << 32 | receiver: the 4 weft_summary_p2p fields */
    weft_summary_table *comm_p2p;    /* comm ref: the 4 weft_summary_p2p fields */
    weft_summary_table *collectives; /* comm ref << 32 | op: calls, sent, received */
    weft_summary_omp *location_omp;  /* per location, indexed like locations */
    size_t current;                  /* index of the location being read */
    size_t program_region;           /* the region its ProgramBegin entered, or NOT_FOUND */
    uint32_t current_rank;
    uint64_t event_count;
    uint64_t undefined_region_count;
    uint64_t undefined_comm_count;
    weft_summary_progress_mode progress;
    weft_status failure; /* why a callback stopped the reading */
} read_state;

/* The first message the OTF2 library reported since the last reset (one
 * line, empty when none). OTF2's error callback is process-wide, so this is
 * too; the command is single-threaded. */
extern char weft__summary_otf2_message[256];

/* Opens st->path for reading (serial collectives), capturing the OTF2
 * library's error messages until weft__summary_close. NULL after one line on
 * stderr. */
OTF2_Reader *weft__summary_open(read_state *st);
/* Closes READER (may be NULL) and restores OTF2's error handling; reports a
 * failure to close when STATUS is still WEFT_OK. Returns the final status. */
weft_status weft__summary_close(read_state *st, OTF2_Reader *reader, weft_status status);

/* Prints the one failure line, "weft summary: WHAT 'PATH': WHY; HINT": what
 * failed, on which file, why (the OTF2 library's first message, else the
 * description of CODE) and, when HINT is not NULL, what to make of it. */
void weft__summary_report(const read_state *st, OTF2_ErrorCode code, const char *hint,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* True when CODE is success; otherwise reports "WHAT '<path>': why", false. */
bool weft__summary_otf2_ok(const read_state *st, OTF2_ErrorCode code, const char *what);

/* Makes callbacks stop reading: records WHY and returns OTF2_CALLBACK_INTERRUPT. */
OTF2_CallbackCode weft__summary_interrupt(read_state *st, weft_status why);

/* summary_defs.c: reads the global definitions, sorts them and resolves
 * ranks and communicator groups. Reports and returns an error status. */
weft_status weft__summary_read_defs(read_state *st, OTF2_Reader *reader);

/* Lookups by ref: an entry or NULL / an index or NOT_FOUND. */
const char *weft__summary_string(const read_state *st, uint64_t ref);
size_t weft__summary_find_region(const read_state *st, uint64_t ref);
/* The program region a ProgramBegin of the program NAME (a string ref) with
 * ARGC arguments ARGS enters: the ARTIFICIAL, MEASUREMENT_SYSTEM region named
 * after NAME without its directories, whose canonical name is NAME and the
 * arguments joined by spaces (weft/program.h; Scalasca's reader finds it the
 * same way). An index, or NOT_FOUND. */
size_t weft__summary_find_program_region(const read_state *st, uint64_t name, uint32_t argc,
                                         const OTF2_StringRef *args);
size_t weft__summary_find_comm(const read_state *st, uint64_t ref);
size_t weft__summary_find_group(const read_state *st, uint64_t ref); /* a location group */

/* The world rank of RANK as an event on communicator COMM (an index, or
 * NOT_FOUND) names it, for an event of a location of world rank OWN_RANK;
 * WEFT_SUMMARY_NO_RANK when it cannot be known. */
uint32_t weft__summary_world_rank(const read_state *st, size_t comm, uint32_t rank,
                                  uint32_t own_rank);

/* The number of members of communicator COMM (an index): 1 for COMM_SELF,
 * 0 when unknown. */
uint64_t weft__summary_comm_size(const read_state *st, size_t comm);

/* summary_locations.c: reads every location's local definitions and
 * events with the callbacks CB (user data: the read_state), calling HOOKS
 * (either may be NULL) before and after each location, whose index is in
 * st->current and rank in st->current_rank. Reports and returns an error
 * status. */
typedef struct weft_summary_location_hooks {
    weft_status (*begin)(read_state *st);
    weft_status (*end)(read_state *st);
} weft_summary_location_hooks;
weft_status weft__summary_read_locations(read_state *st, OTF2_Reader *reader,
                                         const OTF2_EvtReaderCallbacks *cb,
                                         const weft_summary_location_hooks *hooks);

/* summary_events.c: reads every location's events into the builder and the
 * tables. Reports and returns an error status. */
weft_status weft__summary_read_events(read_state *st, OTF2_Reader *reader);

/* Frees everything the state owns. */
void weft__summary_free_state(read_state *st);

#endif /* WEFT_TOOLS_SUMMARY_READER_H */
