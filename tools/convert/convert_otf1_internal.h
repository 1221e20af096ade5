/* SPDX-License-Identifier: BSD-3-Clause */
/* The OTF version 1 reader's internals, shared by convert_otf1.c (the
 * events and the driver), convert_otf1_defs.c (the definitions' tables
 * and their registry definitions) and convert_otf1_procs.c (which process
 * is a thread of which). Private to tools/. */
#ifndef WEFT_TOOLS_CONVERT_OTF1_INTERNAL_H
#define WEFT_TOOLS_CONVERT_OTF1_INTERNAL_H

#include <otf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "convert_common.h"
#include "convert_output.h"
#include "weft/trace_writer.h"

enum { KIND_REGION, KIND_FORK, KIND_IDLE };
#define IDLE_ENTRY 0xFFFFFFFEu
#define FORK_ENTRY 0xFFFFFFFDu

/* Every table entry starts with its OTF id; tables are sorted by it. */
typedef struct otf_proc {
    uint32_t id, parent;
    char *name;
    uint32_t rank, thread;   /* location group, thread number */
    struct otf_proc *master; /* itself for an MPI process */
    convert_lane lane;       /* stack: function ids (CONVERT_TEAM_BIT: began a team) */
    convert_teams teams;     /* masters */
} otf_proc;

typedef struct otf_func {
    uint32_t id;
    char *name;
    uint32_t group, source;
    int kind;
    weft_region_role role;
    weft_region region;
} otf_func;

typedef struct otf_group {
    uint32_t id;
    char *name;
    uint32_t *members, count;
    weft_comm comm;
    bool comm_made;
} otf_group;

typedef struct otf_named {
    uint32_t id;
    char *name;
    uint32_t a, b; /* scl: file, line; counter: properties */
    weft_metric metric;
} otf_named;

typedef struct otf_table {
    void *items;
    uint32_t count, capacity;
    size_t size;
} otf_table;

typedef struct otf_convert {
    const char *input;
    char err[512];
    uint64_t resolution;
    otf_table procs, funcs, groups, fgroups, files, scls, collops, counters;
    uint32_t ranks;
    bool second_pass, failed;
    weft_registry *reg;
    convert_channels *channels;
    convert_output out;
    uint64_t records; /* read by the first pass over the events */
    uint64_t receives_without_size, collectives_dropped;
    bool world_made;
    struct pending_collective {
        uint64_t match;
        uint32_t op, group, root;
        uint64_t sent, received;
    } * pending;
    uint32_t pending_count;
} otf_convert;

/* Tables of entries that start with their OTF id, sorted by it once the
 * definitions are read. */
void *weft__otf1_table_add(otf_table *t, uint32_t id);
void weft__otf1_table_sort(otf_table *t);
void *weft__otf1_table_find(const otf_table *t, uint32_t id);
const char *weft__otf1_named(const otf_table *t, uint32_t id);

/* The definitions' handlers (sorting is the caller's). */
void weft__otf1_set_definition_handlers(OTF_HandlerArray *h, otf_convert *c);

/* Ranks the MPI processes and numbers the threads (convert_otf1_procs.c):
 * by the parent (VampirTrace), else by elg2otf's groups and names; what
 * cannot be placed is an MPI process, said on stderr. -1 (c->err) when a
 * process's parent has a parent, or out of memory. */
int weft__otf1_arrange_processes(otf_convert *c);

/* Kind, role, paradigm and file of a function (f->kind and f->role set). */
void weft__otf1_classify(const otf_convert *c, otf_func *f, weft_region_desc *desc);

/* Locations, regions and metric classes into c->reg; -1 when out of memory. */
int weft__otf1_define(otf_convert *c);

/* The MPI communicator of a process group, defined on first use. */
weft_comm weft__otf1_comm_of(otf_convert *c, otf_group *g);

void weft__otf1_free_tables(otf_convert *c);

/* convert_otf1_files.c: the name stub OTF wants ("run" for run.otf;
 * malloc'ed); -1 (c->err) when a file of the trace STUB is not a regular
 * file. */
char *weft__otf1_name_stub(const char *path);
int weft__otf1_check_files(otf_convert *c, const char *stub);
/* After the definitions: the master file against them and against the
 * event files there. DAMAGE (SIZE bytes) says, when it is not empty, why
 * events would be lost (--keep-partial converts the rest); -1 (c->err)
 * when the master file cannot be read at all. */
int weft__otf1_check_master(otf_convert *c, const char *stub, char *damage, size_t size);

/* Sets one handler of an OTF handler array with c as its first argument.
 * OTF takes every handler as one type; void (*)(void) converts to any. */
#define OTF1_SET(h, c, fn, record)                                                                 \
    do {                                                                                           \
        OTF_HandlerArray_setHandler(h, (OTF_FunctionPointer *)(void (*)(void))fn, record);         \
        OTF_HandlerArray_setFirstHandlerArg(h, c, record);                                         \
    } while (0)

#endif /* WEFT_TOOLS_CONVERT_OTF1_INTERNAL_H */
