/* SPDX-License-Identifier: BSD-3-Clause */
/* What weft convert's readers share to write their events: a lane (one
 * output location) holds the stack of what the input left open on it and
 * the time of its last event, which keeps every location's events in time
 * order as OTF2 requires; the output counts the events and their time
 * bounds for the trace's clock properties. And the OpenMP team sizes both
 * readers count in their first pass: neither EPILOG's nor OTF's fork names
 * the size of its team, an OTF2 fork does. Private to tools/. */
#ifndef WEFT_TOOLS_CONVERT_OUTPUT_H
#define WEFT_TOOLS_CONVERT_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/trace_writer.h"

/* An entry on a lane's stack with this bit set began an OpenMP team. */
#define CONVERT_TEAM_BIT 0x80000000u

typedef struct convert_lane {
    weft_location loc;
    uint32_t *stack; /* the input's open entries, innermost last */
    uint32_t depth, capacity;
    uint64_t last_time;
} convert_lane;

typedef struct convert_output {
    weft_trace_writer *writer;
    uint64_t events, time_min, time_max;
    uint64_t time_fixes; /* events moved up to their lane's last time */
    bool any_time;
} convert_output;

/* Opens the output trace in the new directory PATH; its program is named
 * after the trace converted, INPUT (weft_trace_writer_program), so that
 * every process's master thread gets the program region as its root.
 * False after one line on stderr. */
bool weft__convert_output_open(convert_output *out, const char *path, const char *input);

/* Writes e on lane, never earlier than the lane's last event; false when
 * the OTF2 library refused it (it said why on stderr). */
bool weft__convert_emit(convert_output *out, convert_lane *lane, weft_event *e);
/* Opens entry on lane's stack; false when out of memory. */
bool weft__convert_push(convert_lane *lane, uint32_t entry);
void weft__convert_lane_free(convert_lane *lane);

/* Closes the trace, its clock spanning the events written. */
weft_status weft__convert_output_close(convert_output *out, uint64_t ticks_per_second);
/* After a failure: keeps what was written in path, saying so on stderr,
 * or discards it. Does nothing when the trace is not open. */
void weft__convert_output_abandon(convert_output *out, uint64_t ticks_per_second, bool keep_partial,
                                  const char *path);

/* One process's OpenMP teams. The first pass counts the threads that enter
 * a parallel region between a fork and its join; the second hands the
 * sizes out fork by fork and makes each team's communicator. */
typedef struct convert_teams {
    uint32_t thread_count;
    uint64_t *entered; /* first pass: bit set of the threads in the current team */
    uint16_t *sizes;   /* per fork, in order */
    uint32_t fork_count, forks_seen;
    bool in_fork;   /* between a fork and its join */
    weft_comm team; /* second pass: the current fork's team, or WEFT_COMM_INVALID */
} convert_teams;

/* Allocates the bit set for thread_count threads; false when out of memory. */
bool weft__convert_teams_alloc(convert_teams *t);
void weft__convert_teams_free(convert_teams *t);
/* First pass: a fork, a thread entering a parallel region (counted inside
 * a fork only), and a join, which records the team's size (false when out
 * of memory). */
void weft__convert_teams_fork(convert_teams *t);
void weft__convert_teams_enter(convert_teams *t, uint32_t thread);
bool weft__convert_teams_join(convert_teams *t);
/* Second pass: a fork of the process numbered process. Returns the size
 * of its team and makes the team's communicator, t->team, whose members
 * the caller sets. */
uint32_t weft__convert_teams_begin(convert_teams *t, weft_registry *reg, uint32_t process);

#endif /* WEFT_TOOLS_CONVERT_OUTPUT_H */
