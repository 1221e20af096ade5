/* SPDX-License-Identifier: BSD-3-Clause */
/* The OTF2 trace reader every `weft` command that reads a trace shares
 * (summary, check, view): it opens an archive, reads its global definitions
 * into sorted tables with lookups and rank translation (trace_defs.c), then
 * every location's events, one location at a time, with progress on stderr
 * (trace_locations.c), turning each OTF2 event record into one
 * weft_trace_event for the command's handler (trace_events.c). Failures are
 * reported as one line that names the command and the file (trace_open.c).
 * Memory grows with the definitions, never with the events.
 *
 * The event callbacks of trace_events.c are weft's only ones: weft recover
 * registers them too, on the readers of the event files a broken run left
 * (tools/recover/recover_read.c), see weft__trace_set_event_callbacks. */
#ifndef WEFT_TOOLS_TRACE_READER_H
#define WEFT_TOOLS_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

#include "progress.h"
#include "weft/status.h"

#define NOT_FOUND SIZE_MAX
#define WEFT_TRACE_ANCHOR_NAME "traces.otf2"
#define DAMAGED "the trace is damaged or truncated"
/* The location property in which weft's recorder counts the events it
 * recorded but could not write (docs/CONFIGURATION.md). */
#define WEFT_TRACE_EVENTS_LOST "weft::events_lost"
/* The properties weft recover marks a trace with (docs/FAULTS.md): its
 * process ended before writing every event it recorded (how many were
 * lost is not known), and events left out because their partner was. */
#define WEFT_TRACE_RECOVERED "weft::recovered"
#define WEFT_TRACE_EVENTS_LEFT_OUT "weft::events_left_out"

/* A rank that could not be determined (a peer rank outside its communicator). */
#define WEFT_TRACE_NO_RANK UINT32_MAX

typedef struct string_def {
    uint64_t ref;
    char *text; /* owned */
} string_def;

typedef struct region_def {
    uint64_t ref;
    uint64_t name_ref;
    uint64_t canonical_ref;
    uint64_t file_ref;
    uint32_t begin_line; /* 0 when unknown */
    uint8_t paradigm;    /* OTF2_Paradigm */
    uint8_t role;        /* OTF2_RegionRole */
} region_def;

typedef struct group_def { /* a location group */
    uint64_t ref;
    uint64_t name_ref;
    uint8_t type; /* OTF2_LocationGroupType */
    uint32_t rank;
} group_def;

typedef struct location_def {
    uint64_t ref;
    uint64_t name_ref;
    uint64_t group_ref;
    uint64_t event_count;     /* as the definition claims */
    uint8_t type;             /* OTF2_LocationType */
    uint32_t rank;            /* resolved from its location group */
    uint64_t events_lost;     /* the recorder's location property weft::events_lost; 0 without */
    bool recovered;           /* weft recover's weft::recovered (events lost at its end) */
    uint64_t events_left_out; /* weft recover's weft::events_left_out; 0 without */
    uint32_t defined_at;      /* its place among the location definitions, from 0 */
} location_def;

typedef struct members_def { /* a Group of type COMM_LOCATIONS, COMM_GROUP or COMM_SELF */
    uint64_t ref;
    uint8_t type;     /* OTF2_GroupType */
    uint8_t paradigm; /* OTF2_Paradigm */
    uint64_t flags;   /* OTF2_GroupFlag */
    uint32_t count;
    uint64_t *members; /* owned */
} members_def;

typedef struct property_def { /* a LocationProperty of an integer type */
    uint64_t location;
    uint64_t name_ref;
    uint64_t value;
} property_def;

typedef struct comm_def {
    uint64_t ref;
    uint64_t name_ref;
    uint64_t group_ref;
    uint64_t parent; /* OTF2_UNDEFINED_COMM for none */
    size_t members; /* index into weft_trace_reader.member_groups, or NOT_FOUND */
} comm_def;

typedef struct weft_trace_reader weft_trace_reader;

/* The kinds of event record the tools tell apart; every other record is
 * skipped. */
typedef enum weft_trace_kind {
    WEFT_TRACE_ENTER,
    WEFT_TRACE_LEAVE,
    WEFT_TRACE_PROGRAM_BEGIN,
    WEFT_TRACE_PROGRAM_END,
    WEFT_TRACE_FORK,
    WEFT_TRACE_JOIN,
    WEFT_TRACE_TEAM_BEGIN,
    WEFT_TRACE_TEAM_END,
    WEFT_TRACE_TASK_CREATE,
    WEFT_TRACE_TASK_SWITCH,
    WEFT_TRACE_TASK_COMPLETE,
    WEFT_TRACE_LOCK_ACQUIRE,
    WEFT_TRACE_LOCK_RELEASE,
    WEFT_TRACE_SEND,
    WEFT_TRACE_ISEND,
    WEFT_TRACE_RECV,
    WEFT_TRACE_IRECV,
    WEFT_TRACE_IRECV_REQUEST,
    WEFT_TRACE_ISEND_COMPLETE,
    WEFT_TRACE_REQUEST_TEST,
    WEFT_TRACE_REQUEST_CANCELLED,
    WEFT_TRACE_COLLECTIVE_BEGIN,
    WEFT_TRACE_COLLECTIVE_END,
    WEFT_TRACE_NONBLOCKING_COLLECTIVE_END, /* OTF2 3's NonBlockingCollectiveComplete */
    WEFT_TRACE_METRIC,
    WEFT_TRACE_MEASUREMENT_ON_OFF,
    WEFT_TRACE_BUFFER_FLUSH,
    WEFT_TRACE_PARAMETER, /* ParameterInt; the commands' reader leaves it out (trace_locations.c) */
    /* MPI-IO and one-sided records */
    WEFT_TRACE_IO_CREATE_HANDLE,
    WEFT_TRACE_IO_DESTROY_HANDLE,
    WEFT_TRACE_IO_BEGIN,
    WEFT_TRACE_IO_ISSUED,
    WEFT_TRACE_IO_COMPLETE,
    WEFT_TRACE_IO_SEEK,
    WEFT_TRACE_RMA_WIN_CREATE,
    WEFT_TRACE_RMA_WIN_DESTROY,
    WEFT_TRACE_RMA_COLLECTIVE_BEGIN,
    WEFT_TRACE_RMA_COLLECTIVE_END,
    WEFT_TRACE_RMA_GROUP_SYNC,
    WEFT_TRACE_RMA_REQUEST_LOCK,
    WEFT_TRACE_RMA_ACQUIRE_LOCK,
    WEFT_TRACE_RMA_RELEASE_LOCK,
    WEFT_TRACE_RMA_SYNC,
    WEFT_TRACE_RMA_PUT,
    WEFT_TRACE_RMA_GET,
    WEFT_TRACE_RMA_ATOMIC,
    WEFT_TRACE_RMA_OP_COMPLETE, /* blocking, non-blocking or remote completion */
} weft_trace_kind;

/* Which of OTF2's three RMA completion records an RMA_OP_COMPLETE was (its op). */
enum {
    WEFT_TRACE_RMA_COMPLETE_BLOCKING = 0,
    WEFT_TRACE_RMA_COMPLETE_NON_BLOCKING,
    WEFT_TRACE_RMA_COMPLETE_REMOTE,
};

/* One event record. Which fields mean something depends on the kind:
 *   ENTER, LEAVE                 ref = region
 *   PROGRAM_BEGIN                ref = the program's string; argc, args
 *   PROGRAM_END                  value = exit status
 *   FORK                         paradigm, number = requested threads
 *   JOIN                         paradigm
 *   TEAM_BEGIN, TEAM_END         ref = the team's communicator
 *   TASK_*                       ref = team, number = creating thread, generation
 *   LOCK_ACQUIRE, LOCK_RELEASE   paradigm, ref = lock id, number = acquisition order
 *   SEND, ISEND, RECV, IRECV     ref = communicator, peer (rank in it), tag, bytes;
 *                                ISEND, IRECV: request
 *   IRECV_REQUEST, ISEND_COMPLETE, REQUEST_TEST, REQUEST_CANCELLED: request
 *   COLLECTIVE_END, NONBLOCKING_COLLECTIVE_END: op, ref = communicator, root,
 *                                bytes = sent, received; the latter: request
 *   METRIC                       ref = metric class or instance, number = how many
 *                                values, types, values
 *   MEASUREMENT_ON_OFF           op = OTF2_MeasurementMode
 *   BUFFER_FLUSH                 bytes = the time the flush ended
 *   PARAMETER                    ref = parameter, value
 *   IO_*                         ref = I/O handle; CREATE_HANDLE: op = access mode,
 *                                number = creation flags, status_flags; BEGIN: op = mode
 *                                (OTF2_IoOperationMode), number = operation flags,
 *                                bytes = requested; COMPLETE: bytes = transferred;
 *                                BEGIN, ISSUED, COMPLETE: request = matching id;
 *                                SEEK: op = whence, value = requested offset, bytes =
 *                                resulting offset
 *   RMA_*                        ref = window; PUT, GET, ATOMIC: peer = remote (rank in
 *                                the window's comm), bytes (ATOMIC: sent, received),
 *                                request = matching id, ATOMIC op = type; OP_COMPLETE:
 *                                request, op = WEFT_TRACE_RMA_COMPLETE_*; *_LOCK: peer =
 *                                remote (UINT32_MAX: all), request = lock id, op = lock
 *                                type; SYNC: peer, op = sync type; GROUP_SYNC: number =
 *                                group, op = sync level; COLLECTIVE_END: op, root, bytes,
 *                                received, number = sync level
 * time is in the trace's ticks with the clock offsets the reader applies
 * (none for weft recover's leftover files); position counts the location's
 * events from 1, as otf2-print -L does. The pointers (args, types, values,
 * attributes: the record's attribute list, may be NULL) are OTF2's, valid
 * until the handler returns. */
typedef struct weft_trace_event {
    weft_trace_kind kind;
    uint64_t time;
    uint64_t position;
    uint64_t ref;
    uint64_t request;
    uint64_t bytes;
    uint64_t received;
    uint32_t peer;
    uint32_t tag;
    uint32_t root;
    uint32_t number;
    uint32_t generation;
    uint32_t status_flags; /* OTF2_IoStatusFlag */
    uint8_t paradigm;      /* OTF2_Paradigm */
    uint8_t op;            /* OTF2_CollectiveOp, OTF2_MeasurementMode, ... */
    uint32_t argc;
    const OTF2_StringRef *args;
    int64_t value;
    const OTF2_Type *types;
    const OTF2_MetricValue *values;
    const OTF2_AttributeList *attributes;
} weft_trace_event;

/* Where the event callbacks hand each weft_trace_event: the user data an
 * event reader is registered with must point to one. DELIVER gets the event
 * (time, position and attributes filled in) and CONTEXT; what it returns
 * goes back to OTF2 (OTF2_CALLBACK_INTERRUPT stops the reading). */
typedef struct weft_trace_delivery {
    OTF2_CallbackCode (*deliver)(const weft_trace_event *e, void *context);
    void *context;
} weft_trace_delivery;

/* What a command does with each event of the current location (reader->current).
 * Anything but WEFT_OK stops the reading with that status. */
typedef weft_status weft_trace_handler(weft_trace_reader *reader,
                                       const weft_trace_event *e);

/* Called before and after each location's events (either may be NULL). */
typedef struct weft_trace_location_hooks {
    weft_status (*begin)(weft_trace_reader *reader);
    weft_status (*end)(weft_trace_reader *reader);
} weft_trace_location_hooks;

/* Called after a location's events (and its `end` hook) when the events
 * read differ from the number its definition promises: bytes of its event
 * file were lost, which OTF2 itself does not notice when the file was cut
 * at a record boundary. */
typedef weft_status weft_trace_count_handler(weft_trace_reader *reader, uint64_t read,
                                             uint64_t promised);

/* Everything read from the definitions, and where the reading is; freed by
 * weft__trace_free. A command keeps its own state in a struct whose first
 * member is this reader, so that the handler can get at it. */
struct weft_trace_reader {
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
    property_def *properties; /* the ones weft reads (weft::events_lost), until resolved */
    size_t property_count, property_capacity;
    bool have_clock;
    uint64_t timer_resolution;
    uint64_t global_offset;
    uint64_t trace_length;

    /* Where the reading is. */
    size_t current;        /* index of the location being read */
    uint32_t current_rank; /* its world rank */
    uint64_t event_count;  /* events read so far */
    weft_progress_mode progress;
    const char *progress_what;   /* what the progress lines say is going on; NULL: reading events */
    weft_trace_handler *handler; /* set by weft__trace_read_events */
    weft_trace_delivery delivery; /* to the handler; the event readers' user data */
    weft_status failure;          /* why a handler stopped the reading */

    /* MPI-IO and RMA definitions (trace_io_rma.c); NULL until one is read. */
    struct weft_trace_io_rma_defs *io_rma;
    /* What to do when a location holds other than the events promised (set
     * by the command, may stay NULL). NULL: one line on stderr and the
     * reading fails, because a result made of part of the events would
     * look like one made of all of them. A command that reports problems
     * itself (weft check) says so and returns WEFT_OK to go on. */
    weft_trace_count_handler *count_differs;

    /* Set by weft__trace_validate_archive: "<dir>/<name>" of the anchor
     * "<dir>/<name>.otf2" (owned; NULL when the anchor could not be read)
     * and its definition chunk size. */
    char *archive_base;
    uint64_t def_chunk_size;
};

/* Finds the anchor file of TRACE (an experiment directory or the anchor
 * itself). Returns a malloc'ed path, or NULL after one line on stderr that
 * starts with COMMAND. */
char *weft__trace_find_anchor(const char *command, const char *trace);

/* The first message the OTF2 library reported since the last reset (one
 * line, empty when none). OTF2's error callback is process-wide, so this is
 * too; the commands are single-threaded. */
extern char weft__trace_otf2_message[256];

/* Opens reader->path for reading (serial collectives), capturing the OTF2
 * library's error messages until weft__trace_close. NULL after one line on
 * stderr. */
OTF2_Reader *weft__trace_open(weft_trace_reader *reader);
/* Closes OTF2_READER (may be NULL) and restores OTF2's error handling;
 * reports a failure to close when STATUS is still WEFT_OK. Returns the
 * final status. */
weft_status weft__trace_close(weft_trace_reader *reader, OTF2_Reader *otf2_reader,
                              weft_status status);

/* Prints the one failure line, "COMMAND: WHAT 'PATH': WHY; HINT": what
 * failed, on which file, why (the OTF2 library's first message, else the
 * description of CODE) and, when HINT is not NULL, what to make of it. */
void weft__trace_report(const weft_trace_reader *reader, OTF2_ErrorCode code, const char *hint,
                        const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* True when CODE is success; otherwise reports "WHAT '<path>': why", false. */
bool weft__trace_otf2_ok(const weft_trace_reader *reader, OTF2_ErrorCode code, const char *what);

/* Makes OTF2 callbacks stop reading: records WHY and returns OTF2_CALLBACK_INTERRUPT. */
OTF2_CallbackCode weft__trace_interrupt(weft_trace_reader *reader, weft_status why);

/* trace_validate.c: checks what the OTF2 library reads without checking,
 * before it reads it: that the anchor, the global definitions and, per
 * location, its definitions and events are regular files (a named pipe
 * blocks forever); that the anchor's chunk sizes are OTF2's; and that every
 * record of a definition file, and every array in one, lies within its
 * chunk and its record. Called by weft__trace_open and for each location
 * before its files are opened. Reports and returns an error status. */
weft_status weft__trace_validate_archive(weft_trace_reader *reader);
weft_status weft__trace_validate_location(weft_trace_reader *reader, uint64_t location);

/* trace_defs.c: reads the global definitions, sorts them and resolves ranks
 * and communicator groups. Reports and returns an error status. */
weft_status weft__trace_read_defs(weft_trace_reader *reader, OTF2_Reader *otf2_reader);

/* Lookups by ref: an entry or NULL / an index or NOT_FOUND. */
const char *weft__trace_string(const weft_trace_reader *reader, uint64_t ref);
size_t weft__trace_find_region(const weft_trace_reader *reader, uint64_t ref);
/* The program region a ProgramBegin of the program NAME (a string ref) with
 * ARGC arguments ARGS enters: the ARTIFICIAL, MEASUREMENT_SYSTEM region named
 * after NAME without its directories, whose canonical name is NAME and the
 * arguments joined by spaces (weft/program.h; Scalasca's reader finds it the
 * same way). An index, or NOT_FOUND. */
size_t weft__trace_find_program_region(const weft_trace_reader *reader, uint64_t name,
                                       uint32_t argc, const OTF2_StringRef *args);
size_t weft__trace_find_comm(const weft_trace_reader *reader, uint64_t ref);
size_t weft__trace_find_group(const weft_trace_reader *reader, uint64_t ref); /* a location group */

/* The world rank of RANK as an event on communicator COMM (an index, or
 * NOT_FOUND) names it, for an event of a location of world rank OWN_RANK;
 * WEFT_TRACE_NO_RANK when it cannot be known. */
uint32_t weft__trace_world_rank(const weft_trace_reader *reader, size_t comm, uint32_t rank,
                                uint32_t own_rank);

/* The number of members of communicator COMM (an index): 1 for COMM_SELF,
 * 0 when unknown. */
uint64_t weft__trace_comm_size(const weft_trace_reader *reader, size_t comm);

/* trace_locations.c: reads every location's local definitions and events,
 * one location at a time, handing each event to HANDLER and calling HOOKS
 * (may be NULL) around each location. Reports and returns an error status. */
weft_status weft__trace_read_events(weft_trace_reader *reader, OTF2_Reader *otf2_reader,
                                    weft_trace_handler *handler,
                                    const weft_trace_location_hooks *hooks);

/* trace_events.c: registers on CB a callback for every event record of a
 * kind above (and only those), each turning its record into one
 * weft_trace_event for the weft_trace_delivery the event reader's user data
 * points to. The reading of a complete archive (weft__trace_read_events)
 * and weft recover's reading of leftover event files both use it, so that
 * weft has one set of OTF2 event callbacks. OTF2_SUCCESS or OTF2's error. */
OTF2_ErrorCode weft__trace_set_event_callbacks(OTF2_EvtReaderCallbacks *cb);

/* trace_io_rma.c: the callbacks of the I/O and RMA definitions (files,
 * handles, windows); called by weft__trace_read_defs. */
OTF2_ErrorCode weft__trace_set_io_rma_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb);
/* The name of the file an I/O handle works on (the handle's own name when
 * it has no file; "?" when the handle is not defined). */
const char *weft__trace_io_handle_file(const weft_trace_reader *reader, uint64_t handle);
/* Whether an RmaWin definition of that ref was read. */
bool weft__trace_rma_win_defined(const weft_trace_reader *reader, uint64_t win);
/* The communicator (a ref) of an RMA window; OTF2_UNDEFINED_COMM when unknown. */
uint64_t weft__trace_rma_win_comm(const weft_trace_reader *reader, uint64_t win);
void weft__trace_io_rma_free(weft_trace_reader *reader);

/* Frees everything the reader owns. */
void weft__trace_free(weft_trace_reader *reader);

#endif /* WEFT_TOOLS_TRACE_READER_H */
