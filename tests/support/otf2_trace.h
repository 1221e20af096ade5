/* Test support: reads an OTF2 archive back into plain C structs so that weft's tests can
 * assert exact trace content. Definitions are kept in full; events are folded into
 * per-location statistics (counts per kind and region, nesting and timestamp checks)
 * while reading, and are kept as a list only on request, so huge traces load in bounded
 * memory. This library is for tests only: it is not part of libweft and is not installed.
 */
#ifndef WEFT_TESTS_SUPPORT_OTF2_TRACE_H
#define WEFT_TESTS_SUPPORT_OTF2_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values of a METRIC event kept in a trace_event; members of a metric class kept. */
#define TRACE_METRIC_VALUES_KEPT 4
#define TRACE_METRIC_MEMBERS_KEPT 16

/* Length of the fixed buffers that hold the first nesting and timestamp error texts. */
#define TRACE_ERROR_TEXT_LEN 320

/* The event kinds this reader tells apart; every other event record counts as OTHER. The
 * second column is the name returned by trace_event_kind_name() (otf2-print's spelling). */
/* clang-format off */
#define TRACE_EVENT_KIND_LIST(X)                                    \
    X(TRACE_EVENT_ENTER,                 "ENTER")                   \
    X(TRACE_EVENT_LEAVE,                 "LEAVE")                   \
    X(TRACE_EVENT_THREAD_FORK,           "THREAD_FORK")             \
    X(TRACE_EVENT_THREAD_JOIN,           "THREAD_JOIN")             \
    X(TRACE_EVENT_THREAD_TEAM_BEGIN,     "THREAD_TEAM_BEGIN")       \
    X(TRACE_EVENT_THREAD_TEAM_END,       "THREAD_TEAM_END")         \
    X(TRACE_EVENT_THREAD_ACQUIRE_LOCK,   "THREAD_ACQUIRE_LOCK")     \
    X(TRACE_EVENT_THREAD_RELEASE_LOCK,   "THREAD_RELEASE_LOCK")     \
    X(TRACE_EVENT_THREAD_TASK_CREATE,    "THREAD_TASK_CREATE")      \
    X(TRACE_EVENT_THREAD_TASK_SWITCH,    "THREAD_TASK_SWITCH")      \
    X(TRACE_EVENT_THREAD_TASK_COMPLETE,  "THREAD_TASK_COMPLETE")    \
    X(TRACE_EVENT_MPI_SEND,              "MPI_SEND")                \
    X(TRACE_EVENT_MPI_RECV,              "MPI_RECV")                \
    X(TRACE_EVENT_MPI_ISEND,             "MPI_ISEND")               \
    X(TRACE_EVENT_MPI_ISEND_COMPLETE,    "MPI_ISEND_COMPLETE")      \
    X(TRACE_EVENT_MPI_IRECV_REQUEST,     "MPI_IRECV_REQUEST")       \
    X(TRACE_EVENT_MPI_IRECV,             "MPI_IRECV")               \
    X(TRACE_EVENT_MPI_REQUEST_TEST,      "MPI_REQUEST_TEST")        \
    X(TRACE_EVENT_MPI_REQUEST_CANCELLED, "MPI_REQUEST_CANCELLED")   \
    X(TRACE_EVENT_MPI_COLLECTIVE_BEGIN,  "MPI_COLLECTIVE_BEGIN")    \
    X(TRACE_EVENT_MPI_COLLECTIVE_END,    "MPI_COLLECTIVE_END")      \
    X(TRACE_EVENT_METRIC,                "METRIC")                  \
    X(TRACE_EVENT_MEASUREMENT_ON_OFF,    "MEASUREMENT_ON_OFF")      \
    X(TRACE_EVENT_BUFFER_FLUSH,          "BUFFER_FLUSH")            \
    X(TRACE_EVENT_PARAMETER_INT,         "PARAMETER_INT")           \
    X(TRACE_EVENT_PROGRAM_BEGIN,         "PROGRAM_BEGIN")           \
    X(TRACE_EVENT_PROGRAM_END,           "PROGRAM_END")             \
    X(TRACE_EVENT_IO_CREATE_HANDLE,      "IO_CREATE_HANDLE")        \
    X(TRACE_EVENT_IO_DESTROY_HANDLE,     "IO_DESTROY_HANDLE")       \
    X(TRACE_EVENT_IO_OPERATION_BEGIN,    "IO_OPERATION_BEGIN")      \
    X(TRACE_EVENT_IO_OPERATION_ISSUED,   "IO_OPERATION_ISSUED")     \
    X(TRACE_EVENT_IO_OPERATION_COMPLETE, "IO_OPERATION_COMPLETE")   \
    X(TRACE_EVENT_IO_SEEK,               "IO_SEEK")                 \
    X(TRACE_EVENT_RMA_WIN_CREATE,        "RMA_WIN_CREATE")          \
    X(TRACE_EVENT_RMA_WIN_DESTROY,       "RMA_WIN_DESTROY")         \
    X(TRACE_EVENT_RMA_COLLECTIVE_BEGIN,  "RMA_COLLECTIVE_BEGIN")    \
    X(TRACE_EVENT_RMA_COLLECTIVE_END,    "RMA_COLLECTIVE_END")      \
    X(TRACE_EVENT_RMA_GROUP_SYNC,        "RMA_GROUP_SYNC")          \
    X(TRACE_EVENT_RMA_REQUEST_LOCK,      "RMA_REQUEST_LOCK")        \
    X(TRACE_EVENT_RMA_ACQUIRE_LOCK,      "RMA_ACQUIRE_LOCK")        \
    X(TRACE_EVENT_RMA_RELEASE_LOCK,      "RMA_RELEASE_LOCK")        \
    X(TRACE_EVENT_RMA_SYNC,              "RMA_SYNC")                \
    X(TRACE_EVENT_RMA_PUT,               "RMA_PUT")                 \
    X(TRACE_EVENT_RMA_GET,               "RMA_GET")                 \
    X(TRACE_EVENT_RMA_ATOMIC,            "RMA_ATOMIC")              \
    X(TRACE_EVENT_RMA_OP_COMPLETE,       "RMA_OP_COMPLETE")         \
    X(TRACE_EVENT_OTHER,                 "OTHER")
/* clang-format on */

#define TRACE_EVENT_KIND_ENUM(name, text) name,
typedef enum trace_event_kind {
    TRACE_EVENT_KIND_LIST(TRACE_EVENT_KIND_ENUM) TRACE_EVENT_KIND_COUNT
} trace_event_kind;
#undef TRACE_EVENT_KIND_ENUM

/* One kept event. `kind` and `time` are always set; `paradigm` and `comm` only for the
 * kinds noted; of the union, only the members noted for `kind` are meaningful (the others
 * alias them). The event is zeroed before it is filled, so `paradigm`, `comm` and union
 * bytes the kind does not use read as 0. */
typedef struct trace_event {
    trace_event_kind kind;
    uint64_t time;          /* OTF2 timestamp, in timer ticks */
    OTF2_Paradigm paradigm; /* THREAD_FORK, THREAD_JOIN, THREAD_ACQUIRE/RELEASE_LOCK */
    uint32_t comm;          /* THREAD_TEAM_*, THREAD_TASK_*, MPI_SEND/RECV/ISEND/IRECV,
                               MPI_COLLECTIVE_END (thread team or communicator id) */
    union {
        uint32_t region;    /* ENTER, LEAVE */
        uint32_t team_size; /* THREAD_FORK: number of requested threads */
        struct {            /* THREAD_ACQUIRE_LOCK, THREAD_RELEASE_LOCK */
            uint32_t lock_id;
            uint32_t acquisition_order;
        };
        struct { /* THREAD_TASK_CREATE, THREAD_TASK_SWITCH, THREAD_TASK_COMPLETE */
            uint32_t creating_thread;
            uint32_t generation;
        };
        struct {           /* MPI_SEND/RECV/ISEND/IRECV: all; MPI_ISEND_COMPLETE,
                              MPI_IRECV_REQUEST, MPI_REQUEST_TEST/CANCELLED: request_id */
            uint32_t peer; /* receiver rank for sends, sender rank for receives */
            uint32_t tag;
            uint64_t bytes; /* message length */
            uint64_t request_id;
        };
        struct { /* MPI_COLLECTIVE_END */
            OTF2_CollectiveOp collective_op;
            uint32_t root;
            uint64_t size_sent;
            uint64_t size_received;
        };
        struct {             /* METRIC */
            uint32_t metric; /* metric class or instance id */
            uint8_t metric_count;
            OTF2_Type metric_type; /* type of the first value */
            /* raw 64 bits of the first TRACE_METRIC_VALUES_KEPT values */
            uint64_t metric_values[TRACE_METRIC_VALUES_KEPT];
        };
        struct { /* PARAMETER_INT */
            uint32_t parameter;
            int64_t parameter_value;
        };
        struct {                           /* PROGRAM_BEGIN */
            uint32_t program_name;         /* string id of the program's path */
            uint32_t program_argument_count;
            uint32_t program_region;       /* the region it enters (see nesting), or
                                              UINT32_MAX when no region matches */
        };
        struct { /* IO_* and RMA_* */
            uint32_t object;  /* the I/O handle or RMA window (none: RMA_COLLECTIVE_BEGIN) */
            uint32_t remote;  /* RMA_PUT, _GET, _ATOMIC, the locks, RMA_SYNC: target rank
                                 (UINT32_MAX: all); RMA_GROUP_SYNC: the group;
                                 RMA_COLLECTIVE_END: root */
            uint32_t mode;    /* IO_CREATE_HANDLE: access mode; IO_OPERATION_BEGIN: mode;
                                 IO_SEEK: whence; RMA_*_LOCK: lock type; RMA_ATOMIC: type;
                                 RMA_GROUP_SYNC, RMA_COLLECTIVE_END: sync level */
            uint32_t flags;   /* IO_CREATE_HANDLE: creation flags; IO_OPERATION_BEGIN:
                                 operation flags; RMA_COLLECTIVE_END: collective op */
            uint64_t amount;  /* IO_OPERATION_BEGIN: bytes requested; _COMPLETE: bytes
                                 transferred; IO_SEEK: resulting offset; RMA_PUT/GET: bytes;
                                 RMA_ATOMIC, RMA_COLLECTIVE_END: bytes sent */
            uint64_t amount_received; /* RMA_ATOMIC, RMA_COLLECTIVE_END */
            uint64_t matching_id;     /* IO_OPERATION_*, RMA_PUT/GET/ATOMIC/OP_COMPLETE; lock id */
        };
        int64_t exit_status;                   /* PROGRAM_END */
        OTF2_MeasurementMode measurement_mode; /* MEASUREMENT_ON_OFF */
        uint64_t stop_time;                    /* BUFFER_FLUSH */
    };
} trace_event;

typedef struct trace_string {
    uint32_t id;
    char *text; /* owned by the model */
} trace_string;

/* In all definition structs below, each `*_id` is an OTF2 string id and the `const char *`
 * next to it its text, which points into the model's string table and is NULL when the id
 * is OTF2_UNDEFINED_STRING or has no String definition. */
typedef struct trace_region {
    uint32_t id;
    uint32_t name_id;
    uint32_t canonical_name_id;
    uint32_t source_file_id;
    const char *name;
    const char *canonical_name;
    const char *source_file;
    uint32_t begin_line;
    uint32_t end_line;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
} trace_region;

typedef struct trace_metric_member { /* a MetricMember definition */
    uint32_t id;
    uint32_t name_id;
    uint32_t unit_id;
    const char *name;
    const char *unit;
    OTF2_MetricType metric_type;
    OTF2_MetricMode mode;
    OTF2_Type value_type;
    int64_t exponent;
} trace_metric_member;

typedef struct trace_metric_class { /* a MetricClass definition */
    uint32_t id;
    uint8_t member_count;
    uint32_t members[TRACE_METRIC_MEMBERS_KEPT]; /* the first ones */
} trace_metric_class;

typedef struct trace_system_tree_node {
    uint32_t id;
    uint32_t name_id;
    uint32_t class_name_id;
    const char *name;
    const char *class_name;
    uint32_t parent; /* OTF2_UNDEFINED_SYSTEM_TREE_NODE for the root */
} trace_system_tree_node;

typedef struct trace_location_group {
    uint32_t id;
    uint32_t name_id;
    const char *name;
    OTF2_LocationGroupType type;
    uint32_t system_tree_parent;
} trace_location_group;

typedef struct trace_property { /* a LocationProperty definition */
    uint64_t location;
    uint32_t name_id;
    const char *name;
    OTF2_Type type;
    uint64_t value; /* integer types widened (signed ones sign-extended); else raw bits */
} trace_property;

typedef struct trace_group {
    uint32_t id;
    uint32_t name_id;
    const char *name;
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    uint32_t member_count;
    uint64_t *members; /* owned by the model */
} trace_group;

/* An IoRegularFile, IoHandle or RmaWin definition (IoDirectory and
 * IoParadigm are not kept). */
typedef enum trace_object_kind {
    TRACE_OBJECT_IO_FILE,
    TRACE_OBJECT_IO_HANDLE,
    TRACE_OBJECT_RMA_WIN
} trace_object_kind;
typedef struct trace_object {
    trace_object_kind kind;
    uint32_t id;
    uint32_t name_id;
    const char *name;
    uint32_t file; /* IO_HANDLE: its IoFile */
    uint32_t comm; /* IO_HANDLE, RMA_WIN */
} trace_object;

typedef struct trace_comm {
    uint32_t id;
    uint32_t name_id;
    const char *name;
    uint32_t group;
    uint32_t parent;
    OTF2_Paradigm paradigm; /* taken from the group; OTF2_PARADIGM_UNKNOWN if none */
} trace_comm;

/* A ClockOffset record of a location's local definitions: at local time `time` (ticks, as
 * written, not corrected) the global clock read `time + offset`; `stddev` is the
 * measurement's standard deviation in ticks. */
typedef struct trace_clock_offset {
    uint64_t time;
    int64_t offset;
    double stddev;
} trace_clock_offset;

/* A location: its definition and the statistics computed while reading its events. */
typedef struct trace_location_stats {
    /* From the global Location definition. */
    uint64_t id;
    uint32_t name_id;
    const char *name;
    OTF2_LocationType type;
    uint32_t group;
    uint64_t defined_event_count; /* numberOfEvents as written in the definition */

    /* Always computed. kind_counts sums to event_count; unhandled_event_count of the
     * OTHER events were records OTF2 read without calling back, so they have no time and
     * no entry in the event list (weft's traces should have none). */
    uint64_t event_count;
    bool event_file_missing; /* no event file although defined (then only with 0 events;
                                otf2-print refuses such archives) */
    uint64_t kind_counts[TRACE_EVENT_KIND_COUNT];
    uint64_t unhandled_event_count;
    uint32_t region_slots;  /* length of enter_counts and leave_counts */
    uint64_t *enter_counts; /* indexed by region id; owned by the model */
    uint64_t *leave_counts;
    uint64_t undefined_region_events; /* ENTER/LEAVE with a region id >= region_slots */
    /* Nesting: one error per leave of a region that is not the innermost open one (the
     * regions inside it are taken as closed) or with no region open, one per region
     * still open at the end, and one per thread fork or join with no region open (Scalasca's
     * analyzer crashes on those). ProgramBegin enters, and ProgramEnd leaves, the program
     * region: the ARTIFICIAL, MEASUREMENT_SYSTEM region named after the program's path
     * without directories whose canonical name is the path and arguments joined by spaces
     * (an error when there is none). Time: one per event earlier than the event before it. Error
     * texts name the location, the event's 1-based position and its time. */
    uint64_t nesting_errors;
    char first_nesting_error[TRACE_ERROR_TEXT_LEN]; /* "" while nesting_errors == 0 */
    uint64_t time_decreases;
    char first_time_error[TRACE_ERROR_TEXT_LEN]; /* "" while time_decreases == 0 */
    uint32_t max_depth;
    uint64_t first_time; /* of the first and last event read; 0 without events */
    uint64_t last_time;

    /* Only with trace_options.keep_events; otherwise NULL and 0. */
    trace_event *events;
    size_t event_list_len;

    /* The ClockOffset records of the location's local definitions, in file order; NULL and
     * 0 without any. OTF2 has already applied them to every event time above (linear
     * interpolation between records), as it applies the local mapping tables to the ids. */
    trace_clock_offset *clock_offsets;
    size_t clock_offset_count;
} trace_location_stats;

/* Everything trace_load() read. All arrays are in definition order; *_count is their
 * length. The model owns every pointer in it. */
typedef struct trace_model {
    bool has_clock_properties;
    uint64_t timer_resolution;
    uint64_t global_offset;
    uint64_t trace_length;
    uint64_t realtime_timestamp;

    trace_string *strings;
    size_t string_count;
    trace_region *regions;
    size_t region_count;
    trace_system_tree_node *system_tree_nodes;
    size_t system_tree_node_count;
    trace_location_group *location_groups;
    size_t location_group_count;
    trace_property *location_properties;
    size_t location_property_count;
    trace_group *groups;
    size_t group_count;
    trace_comm *comms;
    size_t comm_count;
    trace_object *objects; /* I/O files and handles, RMA windows */
    size_t object_count;
    uint32_t io_paradigm_count; /* IoParadigm definitions */
    trace_metric_member *metric_members;
    size_t metric_member_count;
    trace_metric_class *metric_classes;
    size_t metric_class_count;
    trace_location_stats *locations;
    size_t location_count;

    uint32_t program_region; /* the first region a ProgramBegin entered, or UINT32_MAX */
    uint32_t region_slots;             /* max region id + 1; 0 without regions */
    const trace_region **region_by_id; /* region_slots entries, NULL for gaps */
} trace_model;

typedef struct trace_options {
    bool keep_events; /* also keep every event in trace_location_stats.events */
} trace_options;

/* Loads the archive whose anchor file is `anchor_path` (e.g. "dir/traces.otf2").
 * `opt` may be NULL (all options off). On success returns 0 and stores a new model in
 * *out, which the caller releases with trace_free(). On failure returns -1, sets *out to
 * NULL and writes one line (no newline) into `err` (if `err_len` > 0). A missing or
 * non-OTF2 file and an archive cut short inside a chunk are failures, never crashes; OTF2
 * itself may print messages to stderr on the way. The model is plain data and may be
 * shared read-only. */
int trace_load(const char *anchor_path, const trace_options *opt, trace_model **out, char *err,
               size_t err_len);

/* Releases a model and everything it owns; NULL is a no-op. */
void trace_free(trace_model *t);

/* Name of an event kind as in TRACE_EVENT_KIND_LIST, "INVALID" when out of range. */
const char *trace_event_kind_name(trace_event_kind kind);

/* The first region whose name equals `name`, or NULL. */
const trace_region *trace_region_by_name(const trace_model *t, const char *name);

/* The region with id `region_id`, or NULL. */
const trace_region *trace_region_by_id(const trace_model *t, uint32_t region_id);

/* The location with id `location_id`, or NULL. */
const trace_location_stats *trace_location_by_id(const trace_model *t, uint64_t location_id);

/* Enter or leave count of a region on a location; 0 when `loc` is NULL or the id is out of
 * range. */
uint64_t trace_enter_count(const trace_location_stats *loc, uint32_t region_id);
uint64_t trace_leave_count(const trace_location_stats *loc, uint32_t region_id);

/* Looks up the location property `name` of `location_id`. Returns the property's name
 * (owned by the model) and stores its value in *value (if `value` is not NULL), or returns
 * NULL and leaves *value untouched when there is no such property. */
const char *trace_location_property(const trace_model *t, uint64_t location_id, const char *name,
                                    uint64_t *value);

/* The text of the string with id `id`, or NULL. */
const char *trace_string_text(const trace_model *t, uint32_t id);

/* The program region (see trace_location_stats' nesting), or NULL: the one the first
 * ProgramBegin read entered. */
const trace_region *trace_program_region(const trace_model *t);

/* The I/O file, I/O handle or RMA window of that kind and id, or NULL. */
const trace_object *trace_object_by_id(const trace_model *t, trace_object_kind kind, uint32_t id);

/* Sum of event_count over all locations. */
uint64_t trace_total_events(const trace_model *t);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_TESTS_SUPPORT_OTF2_TRACE_H */
/* SPDX-License-Identifier: BSD-3-Clause */
