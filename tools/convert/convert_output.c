/* SPDX-License-Identifier: BSD-3-Clause */
/* See convert_output.h. */
#include "convert_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

bool weft__convert_output_open(convert_output *out, const char *path, const char *input)
{
    if (weft_trace_writer_open(path, &out->writer) != WEFT_OK)
        return false; /* reported */
    const char *argv[] = {input};
    if (weft_trace_writer_program(out->writer, 1, argv) != WEFT_OK) {
        weft__cli_line(stderr, "weft convert: out of memory defining the program of '%s'", path);
        weft_trace_writer_discard(out->writer);
        out->writer = NULL;
        return false;
    }
    return true;
}

bool weft__convert_emit(convert_output *out, convert_lane *lane, weft_event *e)
{
    if (e->time < lane->last_time) {
        e->time = lane->last_time;
        out->time_fixes++;
    }
    lane->last_time = e->time;
    if (!out->any_time || e->time < out->time_min)
        out->time_min = e->time;
    if (!out->any_time || e->time > out->time_max)
        out->time_max = e->time;
    out->any_time = true;
    if (weft_trace_writer_event(out->writer, lane->loc, e) != WEFT_OK)
        return false;
    out->events++;
    return true;
}

bool weft__convert_push(convert_lane *lane, uint32_t entry)
{
    if (lane->depth == lane->capacity) {
        uint32_t capacity = lane->capacity ? lane->capacity * 2 : 16;
        uint32_t *bigger = realloc(lane->stack, capacity * sizeof(*bigger));
        if (!bigger)
            return false;
        lane->stack = bigger;
        lane->capacity = capacity;
    }
    lane->stack[lane->depth++] = entry;
    return true;
}

void weft__convert_lane_free(convert_lane *lane)
{
    free(lane->stack);
    lane->stack = NULL;
    lane->depth = lane->capacity = 0;
}

weft_status weft__convert_output_close(convert_output *out, uint64_t ticks_per_second)
{
    weft_clock_properties clock = {.ticks_per_second = ticks_per_second,
                                   .global_offset = out->any_time ? out->time_min : 0,
                                   .trace_length =
                                       out->any_time ? out->time_max - out->time_min : 0};
    weft_status st = weft_trace_writer_close(out->writer, &clock);
    out->writer = NULL;
    return st;
}

void weft__convert_output_abandon(convert_output *out, uint64_t ticks_per_second, bool keep_partial,
                                  const char *path)
{
    if (!out->writer)
        return;
    if (keep_partial) {
        weft_clock_properties clock = {.ticks_per_second = ticks_per_second};
        weft_trace_writer_close(out->writer, &clock);
        weft__cli_line(stderr, "weft convert: the partial trace is kept in '%s'", path);
    } else {
        weft_trace_writer_discard(out->writer);
    }
    out->writer = NULL;
}

/* ---- OpenMP teams ------------------------------------------------------------ */

bool weft__convert_teams_alloc(convert_teams *t)
{
    t->entered = calloc((t->thread_count + 63) / 64, sizeof(uint64_t));
    return t->entered != NULL;
}

void weft__convert_teams_free(convert_teams *t)
{
    free(t->entered);
    free(t->sizes);
    t->entered = NULL;
    t->sizes = NULL;
}

void weft__convert_teams_fork(convert_teams *t)
{
    t->in_fork = true;
    memset(t->entered, 0, ((t->thread_count + 63) / 64) * sizeof(uint64_t));
}

void weft__convert_teams_enter(convert_teams *t, uint32_t thread)
{
    if (t->in_fork && thread < t->thread_count)
        t->entered[thread / 64] |= UINT64_C(1) << (thread % 64);
}

bool weft__convert_teams_join(convert_teams *t)
{
    if (!t->in_fork)
        return true;
    uint32_t size = 0;
    for (uint32_t thread = 0; thread < t->thread_count; thread++)
        size += (t->entered[thread / 64] >> (thread % 64)) & 1u;
    uint16_t *sizes = realloc(t->sizes, (t->fork_count + 1) * sizeof(*sizes));
    if (!sizes)
        return false;
    t->sizes = sizes;
    t->sizes[t->fork_count++] = (uint16_t)(size ? size : 1);
    t->in_fork = false;
    return true;
}

uint32_t weft__convert_teams_begin(convert_teams *t, weft_registry *reg, uint32_t process)
{
    uint32_t size = t->forks_seen < t->fork_count ? t->sizes[t->forks_seen] : 1;
    t->forks_seen++;
    /* teams of the same size on a process are one communicator */
    weft_comm_desc team = {.paradigm = WEFT_PARADIGM_OPENMP,
                           .parent = WEFT_COMM_INVALID,
                           .key = ((uint64_t)process << 16) | size};
    if (weft_registry_comm(reg, &team, &t->team) != WEFT_OK)
        t->team = WEFT_COMM_INVALID;
    t->in_fork = true;
    return size;
}
