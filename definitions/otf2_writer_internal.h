/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of the OTF2 definition writer (otf2_definitions.c: strings,
 * regions, locations and the order of things; otf2_system_tree.c: machine,
 * nodes and location groups; otf2_comms.c: groups and communicators).
 * Private to definitions/.
 *
 * Writing has two phases because every string must be defined before it is
 * used: *_prepare interns the writer's own strings into the registry, then
 * the strings are written, then *_write writes the records. */
#ifndef WEFT_DEFINITIONS_OTF2_WRITER_INTERNAL_H
#define WEFT_DEFINITIONS_OTF2_WRITER_INTERNAL_H

#include <otf2/otf2.h>
#include <stdbool.h>

#include "weft/definitions.h"
#include "weft/definitions_otf2.h"

/* Reports a failed OTF2 call in one line naming `what`; true on failure. */
bool weft__otf2_failed(OTF2_ErrorCode code, const char *what);

/* The OTF2 reference of a string handle (OTF2_UNDEFINED_STRING for none). */
OTF2_StringRef weft__otf2_string_ref(weft_string str);

/* Which paradigms have communicators, and the names of their location lists
 * (COMM_LOCATIONS groups). */
typedef struct weft__otf2_comm_plan {
    bool has_comms[WEFT_PARADIGM_COUNT];
    weft_string list_name[WEFT_PARADIGM_COUNT]; /* set by weft__otf2_comms_prepare */
} weft__otf2_comm_plan;

/* The processes of the trace and the system tree above them. */
typedef struct weft__otf2_tree {
    weft_string machine, machine_class, node_class;
    weft_process_def *processes; /* the registry's, or the implicit rank 0 */
    weft_string *group_names;    /* per process: "MPI Rank <r>" or "Process" */
    uint32_t *process_node;      /* per process: its node's id */
    weft_string *node_names;     /* node id n (1...) is node_names[n - 1] */
    uint32_t process_count, node_count;
} weft__otf2_tree;

/* Finds the paradigms that have communicators; interns nothing. */
void weft__otf2_comms_scan(const weft_registry *reg, weft__otf2_comm_plan *plan);

/* Interns the tree's strings: "Linux", "machine", this host (only for a
 * registry without processes), "node", the location group names ("MPI Rank
 * <r>" when the trace has MPI communicators, else "Process"). */
weft_status weft__otf2_tree_prepare(weft_registry *reg, bool mpi, weft__otf2_tree *tree);
void weft__otf2_tree_release(weft__otf2_tree *tree);

/* Interns the names of the location lists ("OpenMP", "MPI"). */
weft_status weft__otf2_comms_prepare(weft_registry *reg, weft__otf2_comm_plan *plan);

/* Machine, one node per host, one location group per process. */
bool weft__otf2_tree_write(OTF2_GlobalDefWriter *w, const weft__otf2_tree *tree);

/* The location lists, then a group and a Comm per communicator. */
bool weft__otf2_comms_write(OTF2_GlobalDefWriter *w, const weft_registry *reg,
                            const weft__otf2_comm_plan *plan, const weft__otf2_tree *tree);

/* I/O objects and RMA windows (otf2_objects.c): the paradigm's strings,
 * interned by weft__otf2_objects_prepare when the registry has any I/O
 * object. */
typedef struct weft__otf2_io_names {
    bool any_io;
    weft_string identification, name;
} weft__otf2_io_names;
weft_status weft__otf2_objects_prepare(weft_registry *reg, weft__otf2_io_names *names);
/* The I/O paradigm, files, handles and windows (after the communicators). */
bool weft__otf2_objects_write(OTF2_GlobalDefWriter *w, const weft_registry *reg,
                              const weft__otf2_io_names *names);

#endif /* WEFT_DEFINITIONS_OTF2_WRITER_INTERNAL_H */
