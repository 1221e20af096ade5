/* The MPI checker's shared part: failure reporting, the index of MPI
 * region instances per location, lookups of locations, regions, groups and
 * communicators (as world ranks), and the counts files the programs write. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- failures ------------------------------------------------------------ */

static int failures;
static struct {
    const char *fmt;
    int count;
} seen[256];

void mpi_fail(const char *fmt, ...)
{
    failures++;
    size_t i = 0;
    while (i < sizeof seen / sizeof seen[0] && seen[i].fmt != NULL && seen[i].fmt != fmt)
        i++;
    if (i < sizeof seen / sizeof seen[0]) {
        seen[i].fmt = fmt;
        if (++seen[i].count > MPI_CHECK_MAX_REPORTS) {
            if (seen[i].count == MPI_CHECK_MAX_REPORTS + 1)
                printf("check_mpi_trace: (further failures of the form \"%.60s\" are only "
                       "counted)\n",
                       fmt);
            return;
        }
    }
    va_list ap;
    va_start(ap, fmt);
    fputs("check_mpi_trace: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

int mpi_failures(void)
{
    return failures;
}

/* ---- lookups ------------------------------------------------------------- */

const trace_location_stats *mpi_location(const mpi_ctx *ctx, uint32_t rank, uint32_t thread)
{
    return trace_location_by_id(ctx->t, ((uint64_t)thread << 32) | rank);
}

const char *mpi_loc_label(const trace_location_stats *loc)
{
    static char labels[4][48];
    static unsigned next;
    char *label = labels[next++ % 4];
    snprintf(label, sizeof labels[0], "rank %" PRIu32 " thread %" PRIu32, mpi_loc_rank(loc),
             mpi_loc_thread(loc));
    return label;
}

const char *mpi_region_name(const mpi_ctx *ctx, uint32_t region)
{
    static char unnamed[4][32];
    static unsigned next;
    const trace_region *r = trace_region_by_id(ctx->t, region);
    if (r != NULL && r->name != NULL)
        return r->name;
    char *label = unnamed[next++ % 4];
    snprintf(label, sizeof unnamed[0], "(region %" PRIu32 ")", region);
    return label;
}

bool mpi_region_is_mpi(const mpi_ctx *ctx, uint32_t region)
{
    const trace_region *r = trace_region_by_id(ctx->t, region);
    return r != NULL && r->paradigm == OTF2_PARADIGM_MPI;
}

const trace_comm *mpi_comm_by_id(const mpi_ctx *ctx, uint32_t comm)
{
    for (size_t i = 0; i < ctx->t->comm_count; i++) {
        if (ctx->t->comms[i].id == comm)
            return &ctx->t->comms[i];
    }
    return NULL;
}

const trace_group *mpi_group_by_id(const mpi_ctx *ctx, uint32_t group)
{
    for (size_t i = 0; i < ctx->t->group_count; i++) {
        if (ctx->t->groups[i].id == group)
            return &ctx->t->groups[i];
    }
    return NULL;
}

bool mpi_comm_view_of(const mpi_ctx *ctx, uint32_t comm, uint32_t asking_rank, mpi_comm_view *out)
{
    memset(out, 0, sizeof *out);
    const trace_comm *c = mpi_comm_by_id(ctx, comm);
    const trace_group *g = c != NULL ? mpi_group_by_id(ctx, c->group) : NULL;
    if (g == NULL || g->paradigm != OTF2_PARADIGM_MPI)
        return false;
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
        out->self = true;
        out->self_rank = asking_rank;
        out->count = 1;
        return true;
    }
    if (g->type != OTF2_GROUP_TYPE_COMM_GROUP)
        return false;
    out->count = g->member_count;
    out->members = g->members;
    return true;
}

uint32_t mpi_view_world(const mpi_comm_view *view, uint32_t r)
{
    if (r >= view->count)
        return UINT32_MAX;
    if (view->self)
        return view->self_rank;
    return view->members[r] > UINT32_MAX ? UINT32_MAX : (uint32_t)view->members[r];
}

uint32_t mpi_view_rank_of(const mpi_comm_view *view, uint32_t world_rank)
{
    if (view->self)
        return world_rank == view->self_rank ? 0 : UINT32_MAX;
    for (uint32_t i = 0; i < view->count; i++) {
        if (view->members[i] == world_rank)
            return i;
    }
    return UINT32_MAX;
}

/* ---- index of MPI region instances --------------------------------------- */

static int index_location(const mpi_ctx *ctx, const trace_location_stats *loc,
                          mpi_location_index *ix)
{
    size_t n = loc->event_list_len;
    ix->enclosing = malloc((n + 1) * sizeof *ix->enclosing);
    ix->leave_of = malloc((n + 1) * sizeof *ix->leave_of);
    int64_t *stack = malloc((n + 1) * sizeof *stack);
    if (ix->enclosing == NULL || ix->leave_of == NULL || stack == NULL) {
        free(stack);
        mpi_fail("out of memory");
        return -1;
    }
    size_t depth = 0;
    for (size_t e = 0; e < n; e++) {
        const trace_event *ev = &loc->events[e];
        ix->leave_of[e] = -1;
        bool mpi = (ev->kind == TRACE_EVENT_ENTER || ev->kind == TRACE_EVENT_LEAVE) &&
                   mpi_region_is_mpi(ctx, ev->region);
        if (mpi && ev->kind == TRACE_EVENT_LEAVE && depth > 0 &&
            loc->events[stack[depth - 1]].region == ev->region) {
            ix->enclosing[e] = stack[depth - 1];
            ix->leave_of[stack[--depth]] = (int64_t)e;
            continue;
        }
        ix->enclosing[e] = depth > 0 ? stack[depth - 1] : -1;
        if (mpi && ev->kind == TRACE_EVENT_ENTER)
            stack[depth++] = (int64_t)e;
    }
    free(stack);
    return 0;
}

int mpi_ctx_init(mpi_ctx *ctx, const trace_model *t, uint32_t ranks)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->t = t;
    ctx->ranks = ranks;
    ctx->world_comm = OTF2_UNDEFINED_COMM;
    ctx->loc = calloc(t->location_count + 1, sizeof *ctx->loc);
    if (ctx->loc == NULL) {
        mpi_fail("out of memory");
        return -1;
    }
    for (size_t i = 0; i < t->location_count; i++) {
        if (index_location(ctx, &t->locations[i], &ctx->loc[i]))
            return -1;
    }
    return 0;
}

void mpi_ctx_free(mpi_ctx *ctx)
{
    for (size_t i = 0; ctx->loc != NULL && i < ctx->t->location_count; i++) {
        free(ctx->loc[i].enclosing);
        free(ctx->loc[i].leave_of);
    }
    free(ctx->loc);
    ctx->loc = NULL;
}

/* ---- counts files -------------------------------------------------------- */

long mpi_program_count(const mpi_ctx *ctx, uint32_t rank, const char *name)
{
    if (ctx->counts_dir == NULL) {
        mpi_fail("no counts directory given, needed for \"%s\"", name);
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/counts.%" PRIu32, ctx->counts_dir, rank);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        mpi_fail("cannot read %s (the program writes it)", path);
        return -1;
    }
    char key[128];
    long value = -1, found = -1;
    while (fscanf(f, "%127s %ld", key, &value) == 2) {
        if (strcmp(key, name) == 0)
            found = value;
    }
    fclose(f);
    if (found < 0)
        mpi_fail("%s has no \"%s\"", path, name);
    return found;
}
/* SPDX-License-Identifier: BSD-3-Clause */
