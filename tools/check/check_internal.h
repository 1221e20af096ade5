/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared state of `weft check` (check.c: command line, definitions and the
 * final line; check_events.c: what each location's events must satisfy on
 * their own; check_match.c: what must agree across locations). Private to
 * those files.
 *
 * The definitions and the location-by-location reading are weft summary's
 * (trace_reader.h). Per-location state is reset for each location, so
 * memory for it grows with nesting depth only; the records matched across
 * locations (messages, collectives, lock events) are kept until the end,
 * a few dozen bytes each. */
#ifndef WEFT_TOOLS_CHECK_INTERNAL_H
#define WEFT_TOOLS_CHECK_INTERNAL_H

#include "trace_reader.h"

#include <stdarg.h>

/* Where an event is: location index (into read.locations), its position in
 * the location's events (as OTF2 numbers them, from 1; 0 for a problem of
 * the location as a whole) and its time. */
typedef struct check_at {
    uint32_t location;
    uint64_t position;
    uint64_t time;
} check_at;

typedef struct check_message {
    uint64_t comm;             /* comm ref */
    uint32_t sender, receiver; /* world ranks */
    uint32_t tag;
    uint64_t bytes;
    uint64_t order_time; /* when posted (a receive's request), for channel order */
    check_at at;
} check_message;

typedef struct check_collective {
    uint64_t comm;
    uint32_t rank; /* world rank of the member */
    uint32_t root;
    uint32_t op;
    check_at at;
} check_collective;

typedef struct check_lock {
    uint64_t rank;  /* locks are numbered per process */
    uint64_t lock;  /* model << 32 | lock id */
    uint32_t order; /* acquisition order */
    bool acquire;
    check_at at;
} check_lock;

typedef struct check_open { /* an open region, team, or pending request */
    uint64_t ref;
    uint64_t position;
    uint64_t time;
    uint64_t task;  /* a region: the task it was entered in (check_events.c);
                     * a team: the task the location was in before it began */
    uint64_t run;   /* a team: which of this location's begins of it, from 1 */
    uint64_t count; /* a team: the OpenMP barriers left in it so far */
} check_open;

/* A growable array of ITEMS of one type. */
typedef struct check_vec {
    void *items;
    size_t count, capacity;
} check_vec;

typedef struct check_state {
    weft_trace_reader read;     /* first: event callbacks get the weft_trace_reader as user data */
    uint64_t max_errors; /* 0: no limit */
    uint64_t problems;

    /* Per location, reset at its start (check_events.c). */
    check_vec regions;  /* check_open: entered, not left */
    check_vec teams;    /* check_open: team begun, not ended */
    check_vec requests; /* check_open: ref = receive request id, time = when posted */
    uint64_t forks;     /* forks not joined */
    uint64_t program_region; /* ref entered by ProgramBegin; UINT64_MAX: none matched */
    bool collective_open;
    check_open collective_begin;
    bool have_time;
    uint64_t last_time, last_position;
    uint64_t task; /* the task running: creating thread << 32 | generation; 0 implicit */
    /* Since the last task completion, until a task switch: the completion's
     * position (0: none) and the first region event or buffer flush after
     * it (position 0: none) and what it is (check_events.c). */
    uint64_t completed;
    check_at after_completed;
    const char *after_completed_what;
    /* A switch to the implicit task from a task that did not complete, when
     * it is the location's last event: its position; 0 otherwise. */
    uint64_t switched_back;
    check_vec team_runs; /* begins of each team on this location (check_barriers.c) */

    /* Across locations: the thread count of each process's first OpenMP
     * team (check_open: ref = rank, count = size), whether another of the
     * process differs, and whether a team was begun inside another;
     * Scalasca's analyzer refuses both (a note, not a problem). */
    check_vec team_sizes;
    bool team_sizes_vary, teams_nested;
    /* Per location (by index): the OpenMP teams it began. Scalasca's
     * analyzer also refuses a process whose thread locations began
     * different numbers of them (threads the program made forking teams of
     * their own, a thread without OpenMP); counts_vary says so. */
    uint64_t *team_begins;
    bool counts_vary;
    /* Per location: whether it forked a team outside any team; a process
     * with more than one such thread (threads the program made, each the
     * root of its own teams) is one Scalasca's analyzer does not read
     * either (it crashed); roots_many says so. */
    bool *root_forks;
    bool roots_many;
    /* An MPI message or collective recorded on a thread other than its
     * process's first: Scalasca's analyzer refuses that too (a note). */
    bool mpi_off_master;

    /* Across locations (check_match.c). */
    check_vec sends, receives; /* check_message */
    check_vec collectives;     /* check_collective */
    check_vec locks;           /* check_lock */
    uint64_t matched_messages, matched_collectives;
    check_vec team_barriers; /* each location's runs of each team, ended (check_barriers.c) */
    uint8_t *barrier_kinds;  /* per region index: whether an OpenMP barrier; NULL until needed */

    struct check_rma *rma; /* one-sided and I/O records (check_rma.c); NULL until one is read */
} check_state;

/* One problem: "weft check: LOCATION, event N, t=T s: WHAT" on stdout while
 * fewer than max_errors were printed; counted always. AT may be NULL (a
 * definition). */
void weft__check_problem(check_state *c, const check_at *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* -1, 0 or 1 as A is below, equal to or above B: for qsort's comparisons. */
static inline int weft__check_compare_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

/* Appends one item of SIZE bytes; false when out of memory. */
bool weft__check_push(check_vec *v, const void *item, size_t size);
void weft__check_vec_free(check_vec *v);

/* A region's or communicator's name for messages: 'name' or <ref N>. */
const char *weft__check_region_name(const check_state *c, uint64_t ref, char *buf, size_t size);
const char *weft__check_comm_name(const check_state *c, uint64_t ref, char *buf, size_t size);

/* check_events.c: reads every location's events, checking what each must
 * satisfy on its own and keeping what check_match.c matches. Reports and
 * returns an error status. */
weft_status weft__check_read_events(check_state *c, OTF2_Reader *reader);

/* check_rma.c: RMA and I/O records on one location (an event of any other
 * kind is ignored), what is still pending when a location ends, the fences
 * of each window across its ranks, and freeing. */
weft_status weft__check_rma_event(check_state *c, const check_at *at, const weft_trace_event *e);
void weft__check_rma_begin_location(check_state *c);
void weft__check_rma_end_location(check_state *c, const check_at *at);
void weft__check_rma_match(check_state *c);
void weft__check_rma_free(check_state *c);

/* check_barriers.c: a leave of REGION (counted when an OpenMP barrier in
 * the innermost team), a team's begin (its run on this location, counted)
 * and end (kept), the counts of each run compared across its locations,
 * and freeing. */
void weft__check_barrier_left(check_state *c, uint64_t region);
weft_status weft__check_team_begun(check_state *c, uint64_t comm, uint64_t *run);
weft_status weft__check_team_ended(check_state *c, const check_open *team);
void weft__check_match_barriers(check_state *c);
void weft__check_barriers_free(check_state *c);

/* check_match.c: matches what the locations recorded against each other. */
weft_status weft__check_match(check_state *c);

#endif /* WEFT_TOOLS_CHECK_INTERNAL_H */
