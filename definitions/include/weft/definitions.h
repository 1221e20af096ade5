/* SPDX-License-Identifier: BSD-3-Clause */
/* The definition registry: strings, regions, locations and their properties,
 * communicators and processes.
 *
 * A registry de-duplicates what it is given and hands out small typed handles
 * that the hot path caches; registration takes a mutex (it is rare), lookups
 * by handle for writing happen off the hot path. One process-wide registry
 * (weft_defs_global) collects the local definitions; the unification of an
 * MPI job (weft/unify.h) merges the registries of all ranks into one with the
 * same code. Writing a registry as OTF2 definitions lives in
 * weft/definitions_otf2.h. */
#ifndef WEFT_DEFINITIONS_DEFINITIONS_H
#define WEFT_DEFINITIONS_DEFINITIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Typed handles: one single-field struct per kind, so that passing a string
 * where a region is expected does not compile. All bits set means invalid. */
typedef struct weft_string {
    uint32_t id;
} weft_string;
typedef struct weft_region {
    uint32_t id;
} weft_region;
typedef struct weft_location {
    uint32_t id;
} weft_location;
typedef struct weft_comm {
    uint32_t id;
} weft_comm;
typedef struct weft_metric {
    uint32_t id;
} weft_metric;

#define WEFT_INVALID_ID UINT32_MAX
#define WEFT_STRING_INVALID ((weft_string){WEFT_INVALID_ID})
#define WEFT_REGION_INVALID ((weft_region){WEFT_INVALID_ID})
#define WEFT_LOCATION_INVALID ((weft_location){WEFT_INVALID_ID})
#define WEFT_COMM_INVALID ((weft_comm){WEFT_INVALID_ID})

/* Paradigms and region roles. The names equal OTF2's (OTF2_PARADIGM_<name>,
 * OTF2_REGION_ROLE_<name>) so that the OTF2 writer maps them from this same
 * list; adapters use these and never include OTF2. */
/* clang-format off */
#define WEFT_PARADIGM_LIST(X)                                                     \
    X(UNKNOWN) X(USER) X(COMPILER) X(OPENMP) X(MPI) X(PTHREAD)                     \
    X(MEASUREMENT_SYSTEM)

#define WEFT_REGION_ROLE_LIST(X)                                                  \
    X(UNKNOWN) X(FUNCTION) X(WRAPPER) X(LOOP) X(CODE) X(PARALLEL) X(SECTIONS)      \
    X(SECTION) X(WORKSHARE) X(SINGLE) X(SINGLE_SBLOCK) X(MASTER) X(CRITICAL)       \
    X(CRITICAL_SBLOCK) X(ATOMIC) X(BARRIER) X(IMPLICIT_BARRIER) X(FLUSH)           \
    X(ORDERED) X(ORDERED_SBLOCK) X(TASK) X(TASK_CREATE) X(TASK_WAIT)               \
    X(COLL_ONE2ALL) X(COLL_ALL2ONE) X(COLL_ALL2ALL) X(COLL_OTHER) X(FILE_IO)       \
    X(POINT2POINT) X(RMA) X(DATA_TRANSFER) X(ARTIFICIAL) X(THREAD_CREATE)          \
    X(THREAD_WAIT) X(TASK_UNTIED) X(ALLOCATE) X(DEALLOCATE) X(REALLOCATE)
/* clang-format on */

#define WEFT_PARADIGM_ENUM(name) WEFT_PARADIGM_##name,
#define WEFT_REGION_ROLE_ENUM(name) WEFT_REGION_ROLE_##name,
enum { WEFT_PARADIGM_LIST(WEFT_PARADIGM_ENUM) WEFT_PARADIGM_COUNT };
enum { WEFT_REGION_ROLE_LIST(WEFT_REGION_ROLE_ENUM) WEFT_REGION_ROLE_COUNT };
#undef WEFT_PARADIGM_ENUM
#undef WEFT_REGION_ROLE_ENUM
/* Fixed storage widths: these values are stored in buffers and files. */
typedef uint8_t weft_paradigm;
typedef uint8_t weft_region_role;

/* What defines a region. Two descriptions with equal fields are one region.
 * canonical_name and file may be NULL (then name, and no file). */
typedef struct weft_region_desc {
    const char *name;
    const char *canonical_name;
    const char *file;
    uint32_t begin_line;
    uint32_t end_line;
    weft_region_role role;
    weft_paradigm paradigm;
} weft_region_desc;

/* A region as stored: strings resolved to handles. */
typedef struct weft_region_def {
    weft_string name;
    weft_string canonical_name;
    weft_string file; /* WEFT_STRING_INVALID when there is none */
    uint32_t begin_line;
    uint32_t end_line;
    weft_region_role role;
    weft_paradigm paradigm;
} weft_region_def;

/* A location (one OS thread of one process) as stored. */
typedef struct weft_location_def {
    weft_string name;
    uint32_t thread_number; /* 0 is the process's main thread */
    uint32_t group;         /* location group: the MPI rank, 0 without MPI */
    uint64_t event_count;   /* set by the recorder at finalisation */
} weft_location_def;

/* A process of the trace: one OTF2 location group. A registry without any
 * process stands for this one process alone (rank 0, this host). */
typedef struct weft_process_def {
    uint32_t rank; /* the MPI rank; the location group's id */
    weft_string host;
} weft_process_def;

/* A numeric property attached to a location ("weft::chunks_flushed"). */
typedef struct weft_location_property {
    weft_location location;
    weft_string name;
    uint64_t value;
} weft_location_property;

/* A communicator: a thread team (paradigm OPENMP, or any other non-MPI
 * paradigm) or an MPI communicator. Adapters name one by (paradigm, parent,
 * key): equal triples are one communicator, so a team that forms again and
 * again is defined once. Members are recorded as they show up (for teams:
 * registry location ids, by thread number in the team).
 *
 * Scope: a thread team belongs to one process, an MPI communicator to the
 * whole job. When the registries of several ranks are merged (weft/unify.h),
 * teams of different ranks stay apart even with equal (parent, key), while
 * MPI communicators with equal keys become one. */
typedef struct weft_comm_desc {
    const char *name; /* copied; NULL: "Thread team <id>" */
    weft_paradigm paradigm;
    weft_comm parent; /* WEFT_COMM_INVALID for none */
    uint64_t key;     /* tells apart communicators with the same parent */
} weft_comm_desc;

/* Keys of MPI communicators (paradigm MPI, no parent). Every rank names a
 * communicator by the same key, so unification merges them: MPI_COMM_WORLD
 * and MPI_COMM_SELF have these two; a created one has a 64-bit hash of its
 * parent's key, the parent's creation count and the lowest world rank among
 * its members (never 0 or 1). Members of an MPI communicator are world ranks
 * by rank in the communicator; MPI_COMM_SELF has none. */
#define WEFT_COMM_KEY_MPI_WORLD UINT64_C(0)
#define WEFT_COMM_KEY_MPI_SELF UINT64_C(1)

typedef struct weft_comm_def {
    weft_string name;
    weft_paradigm paradigm;
    weft_comm parent;
    uint64_t key;
    uint32_t member_count;
} weft_comm_def;

/* Event attributes (OTF2 Attribute definitions): a fixed list, with the
 * same id in every process, so events refer to them without a mapping.
 * X(ID, name, description); every one is of type string. */
#define WEFT_ATTRIBUTE_LIST(X)                                                                     \
    X(OPENMP_TASK_DEPENDENCES, "OpenMP task dependences",                                          \
      "The depend clauses of the created task, as TYPE ADDRESS, comma-separated "                  \
      "(see weft's docs/OPENMP-OMPT.md)")
#define WEFT_ATTRIBUTE_ENUM(id, name, description) WEFT_ATTRIBUTE_##id,
enum { WEFT_ATTRIBUTE_LIST(WEFT_ATTRIBUTE_ENUM) WEFT_ATTRIBUTE_COUNT };
#undef WEFT_ATTRIBUTE_ENUM

/* Metrics (OTF2 MetricMember and MetricClass definitions). A metric class
 * is the set of values one metric event carries, in order; its members are
 * described by name, unit and how values behave. The names of sources and
 * modes equal OTF2's (OTF2_METRIC_TYPE_<source>, OTF2_METRIC_<mode>). Every
 * value is an unsigned 64-bit integer; value x 10^exponent is in `unit`. */
/* clang-format off */
#define WEFT_METRIC_SOURCE_LIST(X) X(OTHER) X(PAPI) X(RUSAGE) X(USER)
#define WEFT_METRIC_MODE_LIST(X)                                                  \
    X(ACCUMULATED_START) X(ACCUMULATED_POINT) X(ACCUMULATED_LAST)                  \
    X(ACCUMULATED_NEXT) X(ABSOLUTE_POINT) X(ABSOLUTE_LAST) X(ABSOLUTE_NEXT)        \
    X(RELATIVE_POINT) X(RELATIVE_LAST) X(RELATIVE_NEXT)
/* clang-format on */
#define WEFT_METRIC_SOURCE_ENUM(name) WEFT_METRIC_SOURCE_##name,
#define WEFT_METRIC_MODE_ENUM(name) WEFT_METRIC_MODE_##name,
enum { WEFT_METRIC_SOURCE_LIST(WEFT_METRIC_SOURCE_ENUM) WEFT_METRIC_SOURCE_COUNT };
enum { WEFT_METRIC_MODE_LIST(WEFT_METRIC_MODE_ENUM) WEFT_METRIC_MODE_COUNT };
#undef WEFT_METRIC_SOURCE_ENUM
#undef WEFT_METRIC_MODE_ENUM

typedef struct weft_metric_member_desc {
    const char *name;
    const char *description; /* NULL: none */
    const char *unit;        /* "s", "bytes", "#" for a count */
    uint8_t source;          /* WEFT_METRIC_SOURCE_* */
    uint8_t mode;            /* WEFT_METRIC_MODE_* */
    int8_t exponent;         /* decimal: -6 for microseconds of "s" */
} weft_metric_member_desc;

typedef struct weft_metric_member_def {
    weft_string name, description, unit; /* description may be invalid */
    uint8_t source, mode;
    int8_t exponent;
} weft_metric_member_def;

#define WEFT_METRIC_INVALID ((weft_metric){WEFT_INVALID_ID})
/* Most members in one metric class (the event codec's limit). */
#define WEFT_METRIC_MAX_MEMBERS 64

/* Event parameters (OTF2 Parameter definitions, ParameterInt events): a
 * fixed list like the attributes above, every one a signed 64-bit integer.
 * They carry the values the merged POMP proposal's events pass (see
 * docs/OPENMP-POMP2.md). X(ID, name) */
/* clang-format off */
#define WEFT_PARAMETER_LIST(X)                                                    \
    X(OPENMP_NUM_THREADS, "OpenMP num_threads")                                    \
    X(OPENMP_IF, "OpenMP if")                                                      \
    X(OPENMP_LOOP_CHUNK_SIZE, "OpenMP loop chunk size")                            \
    X(OPENMP_LOOP_FIRST, "OpenMP loop first iteration")                            \
    X(OPENMP_LOOP_LAST, "OpenMP loop last iteration")                              \
    X(OPENMP_LOOP_INCREMENT, "OpenMP loop increment")                              \
    X(OPENMP_LOOP_ITERATION, "OpenMP loop iteration")                              \
    X(OPENMP_SECTION_NUMBER, "OpenMP section number")                              \
    X(OPENMP_RUNTIME_VALUE, "OpenMP runtime value")                                \
    X(OPENMP_LOCK_WAS_SET, "OpenMP lock was set")
/* clang-format on */
#define WEFT_PARAMETER_ENUM(id, name) WEFT_PARAMETER_##id,
enum { WEFT_PARAMETER_LIST(WEFT_PARAMETER_ENUM) WEFT_PARAMETER_COUNT };
#undef WEFT_PARAMETER_ENUM

/* A trace's clock, as its OTF2 ClockProperties record gives it. */
typedef struct weft_clock_properties {
    uint64_t ticks_per_second; /* the timer's true resolution */
    uint64_t global_offset;    /* timestamp of the first event */
    uint64_t trace_length;     /* last minus first timestamp */
    uint64_t realtime_ns;      /* wall-clock time (ns since the epoch) at global_offset */
} weft_clock_properties;

typedef struct weft_registry weft_registry;

/* Creates an empty registry; NULL when out of memory. The caller owns it. */
weft_registry *weft_registry_create(void);

/* Frees a registry and every string it copied. NULL is a no-op. */
void weft_registry_destroy(weft_registry *reg);

/* The process's registry, created on first use; never NULL unless out of
 * memory at that first use. Thread-safe. */
WEFT_EXPORT weft_registry *weft_defs_global(void);

/* Registers text (copied) and returns its handle; equal texts share one
 * handle. Thread-safe; not for the hot path. */
WEFT_EXPORT weft_status weft_registry_string(weft_registry *reg, const char *text,
                                             weft_string *out);

/* Registers a region (strings copied) and returns its handle; an equal
 * description returns the existing handle. Thread-safe; not for the hot path.
 * On failure *out is WEFT_REGION_INVALID. */
WEFT_EXPORT weft_status weft_registry_region(weft_registry *reg, const weft_region_desc *desc,
                                             weft_region *out);

/* Registers a new location (never de-duplicated: each call is one thread),
 * named name, or with name NULL "Master thread" (thread 0) or "Thread N".
 * Its group is the one last given to weft_registry_set_location_group (0
 * before). */
weft_status weft_registry_location(weft_registry *reg, const char *name, uint32_t thread_number,
                                   weft_location *out);

/* The same with the location's group (its process's rank) given, for a
 * registry that describes several processes (weft convert); WEFT_INVALID_ID
 * as group: as weft_registry_location. Not to be mixed with
 * weft_registry_set_location_group, which sets every location's group. */
WEFT_EXPORT weft_status weft_registry_location_in_group(weft_registry *reg, const char *name,
                                                        uint32_t thread_number, uint32_t group,
                                                        weft_location *out);

/* Sets the location group (the MPI rank, once known) of every location
 * registered so far and of every one registered later. Thread-safe. */
void weft_registry_set_location_group(weft_registry *reg, uint32_t group);

/* Registers the process with this rank, running on `host` (copied);
 * *host_out (may be NULL) gets the host's string handle. A rank registered
 * before keeps its first host: WEFT_OK when the hosts are equal,
 * WEFT_ERR_EXISTS (and the first host in *host_out) when not. Thread-safe. */
WEFT_EXPORT weft_status weft_registry_process(weft_registry *reg, uint32_t rank, const char *host,
                                  weft_string *host_out);

/* Sets the number of events written for a location. */
void weft_registry_location_set_events(weft_registry *reg, weft_location loc, uint64_t count);

/* Attaches a named numeric property to a location (name copied). */
WEFT_EXPORT weft_status weft_registry_location_property(weft_registry *reg, weft_location loc,
                                                        const char *name, uint64_t value);

/* Registers a communicator (see weft_comm_desc) and returns its handle; an
 * equal (paradigm, parent, key) returns the existing one. Thread-safe; not
 * for the hot path. On failure *out is WEFT_COMM_INVALID. */
WEFT_EXPORT weft_status weft_registry_comm(weft_registry *reg, const weft_comm_desc *desc,
                                           weft_comm *out);

/* Records the member at a position of a communicator (a thread's number in
 * its team: the member is its location id); a later call for the same
 * position replaces it. Positions never set read as WEFT_INVALID_ID. */
WEFT_EXPORT weft_status weft_registry_comm_set_member(weft_registry *reg, weft_comm comm,
                                                      uint32_t position, uint32_t member);

/* Marks an attribute (WEFT_ATTRIBUTE_*) as used, so that its definition is
 * written. Call it before the first event that carries the attribute. It
 * interns the attribute's name: an attribute is used exactly when its name
 * is among the registry's strings, which merging registries (weft/unify.h)
 * carries over with no format of its own. Thread-safe. */
WEFT_EXPORT weft_status weft_registry_attribute_use(weft_registry *reg, uint32_t attribute);
bool weft_registry_attribute_used(const weft_registry *reg, uint32_t attribute);
/* The attribute's name and description; NULL for an unknown attribute. */
const char *weft_attribute_name(uint32_t attribute);
const char *weft_attribute_description(uint32_t attribute);

/* Registers a metric class of `count` members (1..WEFT_METRIC_MAX_MEMBERS;
 * strings copied) and returns its handle; the same members in the same
 * order return the existing class. Thread-safe; not for the hot path. */
WEFT_EXPORT weft_status weft_registry_metric_class(weft_registry *reg,
                                                   const weft_metric_member_desc *members,
                                                   uint32_t count, weft_metric *out);
uint32_t weft_registry_metric_member_count(const weft_registry *reg);
weft_status weft_registry_metric_member_get(const weft_registry *reg, uint32_t member,
                                            weft_metric_member_def *out);
uint32_t weft_registry_metric_class_count(const weft_registry *reg);
/* Copies up to `capacity` member ids of a class; returns its member count
 * (0 for an unknown class). */
uint32_t weft_registry_metric_class_members(const weft_registry *reg, weft_metric metric,
                                            uint32_t *members, uint32_t capacity);

/* Marks a parameter (WEFT_PARAMETER_*) as used, so that its definition is
 * written, the same way as weft_registry_attribute_use. Thread-safe. */
WEFT_EXPORT weft_status weft_registry_parameter_use(weft_registry *reg, uint32_t parameter);
bool weft_registry_parameter_used(const weft_registry *reg, uint32_t parameter);
/* The parameter's name; NULL for an unknown one. */
const char *weft_parameter_name(uint32_t parameter);

/* Counts, and copies of single entries, for writers and tests. The text
 * pointer stays valid until the registry is destroyed. Out-of-range handles
 * give NULL / WEFT_ERR_NOT_FOUND. */
uint32_t weft_registry_string_count(const weft_registry *reg);
const char *weft_registry_string_text(const weft_registry *reg, weft_string str);
uint32_t weft_registry_region_count(const weft_registry *reg);
WEFT_EXPORT weft_status weft_registry_region_get(const weft_registry *reg, weft_region region,
                                                 weft_region_def *out);
/* Whether REGION is an OpenMP barrier, explicit or implicit (the regions
 * Scalasca's analyzer meets a team's threads at); false when undefined. */
WEFT_EXPORT bool weft_registry_region_is_omp_barrier(const weft_registry *reg, weft_region region);
WEFT_EXPORT uint32_t weft_registry_location_count(const weft_registry *reg);
WEFT_EXPORT weft_status weft_registry_location_get(const weft_registry *reg, weft_location loc,
                                                   weft_location_def *out);
uint32_t weft_registry_property_count(const weft_registry *reg);
weft_status weft_registry_property_get(const weft_registry *reg, uint32_t index,
                                       weft_location_property *out);

/* Processes by index, in registration (or merge) order. */
uint32_t weft_registry_process_count(const weft_registry *reg);
weft_status weft_registry_process_get(const weft_registry *reg, uint32_t index,
                                      weft_process_def *out);

WEFT_EXPORT uint32_t weft_registry_comm_count(const weft_registry *reg);
WEFT_EXPORT weft_status weft_registry_comm_get(const weft_registry *reg, weft_comm comm,
                                               weft_comm_def *out);
/* Copies up to `capacity` members of comm, by position, into members;
 * returns how many positions it has (0 for an unknown comm). */
WEFT_EXPORT uint32_t weft_registry_comm_members(const weft_registry *reg, weft_comm comm,
                                                uint32_t *members, uint32_t capacity);

/* How many times the registry has changed: it grows with every definition
 * added (and every team member set), never otherwise; location properties
 * (statistics, not needed to read events) do not count. A copy taken at one
 * generation holds every definition as long as the generation stays the
 * same. */
uint64_t weft_registry_generation(const weft_registry *reg);

/* Around fork(): the forking thread holds the registry's mutex across the
 * fork (lock before, unlock after, in parent and child), so that the
 * child's copy is not caught half changed by another thread. */
void weft_registry_fork_lock(weft_registry *reg);
void weft_registry_fork_unlock(weft_registry *reg);

/* For the child of fork(): forgets the parent's locations, their
 * properties and the members of thread teams (location ids of the
 * parent's), and keeps everything else (the adapters hold its handles). */
void weft_registry_forget_locations(weft_registry *reg);

/* I/O and one-sided objects (OTF2 IoRegularFile, IoHandle and RmaWin
 * definitions), one table of the registry. Each is identified by (kind,
 * scope, key, name):
 *   IO_FILE   a file by name (key 0): one per name in the whole job;
 *   IO_HANDLE one opening of a file by one process: key = the process's
 *             count of openings, scope = its rank (set when packed, like a
 *             thread team's), so handles of different ranks stay apart;
 *             `file` is its IO_FILE, `comm` the communicator it was opened
 *             on (WEFT_COMM_INVALID: none);
 *   RMA_WIN   an MPI window: key as an MPI communicator's (the same on
 *             every member, so unification merges them), `comm` its
 *             communicator.
 * Ids of all kinds come from one sequence; OTF2 refs are these ids. */
typedef struct weft_object {
    uint32_t id;
} weft_object;
#define WEFT_OBJECT_INVALID ((weft_object){WEFT_INVALID_ID})

enum { WEFT_OBJECT_IO_FILE, WEFT_OBJECT_IO_HANDLE, WEFT_OBJECT_RMA_WIN, WEFT_OBJECT_KIND_COUNT };

typedef struct weft_object_desc {
    uint8_t kind;     /* WEFT_OBJECT_* */
    const char *name; /* copied; the file's name, the handle's or window's */
    uint64_t key;
    weft_object file; /* IO_HANDLE: its file; else WEFT_OBJECT_INVALID */
    weft_comm comm;   /* IO_HANDLE, RMA_WIN; else WEFT_COMM_INVALID */
} weft_object_desc;

typedef struct weft_object_def {
    uint8_t kind;
    weft_string name;
    uint64_t key;
    uint32_t scope; /* IO_HANDLE: the rank; WEFT_INVALID_ID otherwise or unknown */
    weft_object file;
    weft_comm comm;
} weft_object_def;

/* Registers an object and returns its handle; an equal identity returns
 * the existing one. Thread-safe; not for the hot path. On failure *out is
 * WEFT_OBJECT_INVALID. */
WEFT_EXPORT weft_status weft_registry_object(weft_registry *reg, const weft_object_desc *desc,
                                             weft_object *out);
uint32_t weft_registry_object_count(const weft_registry *reg);
weft_status weft_registry_object_get(const weft_registry *reg, weft_object object,
                                     weft_object_def *out);

/* The OTF2 location id of a location: (thread_number << 32) | group, the id
 * scheme Score-P uses and Scalasca's reader relies on. */
static inline uint64_t weft_location_otf2_id(const weft_location_def *def)
{
    return ((uint64_t)def->thread_number << 32) | def->group;
}

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_DEFINITIONS_H */
