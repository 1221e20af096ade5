/* Checks of the group and communicator definitions of a multi-rank trace,
 * by docs/dev/OTF2-CONVENTIONS.md section 3: per paradigm a COMM_LOCATIONS group
 * before its COMM_GROUP/COMM_SELF groups (for MPI: the thread-0 location of
 * every rank, in rank order), MPI_COMM_WORLD as the first MPI comm with the
 * world ranks 0..N-1, one MPI_COMM_SELF, member lists of world ranks
 * without repeats, and parents with smaller ids of the same paradigm. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>

/* Definition position of the first group of `paradigm` and `type`, or
 * SIZE_MAX. */
static size_t first_group(const trace_model *t, OTF2_Paradigm paradigm, OTF2_GroupType type)
{
    for (size_t i = 0; i < t->group_count; i++) {
        if (t->groups[i].paradigm == paradigm && t->groups[i].type == type)
            return i;
    }
    return SIZE_MAX;
}

static void check_locations_groups(const mpi_ctx *ctx)
{
    const trace_model *t = ctx->t;
    const OTF2_Paradigm paradigms[] = {OTF2_PARADIGM_MPI, OTF2_PARADIGM_OPENMP};
    for (size_t p = 0; p < 2; p++) {
        size_t locations = first_group(t, paradigms[p], OTF2_GROUP_TYPE_COMM_LOCATIONS);
        size_t comm_group = first_group(t, paradigms[p], OTF2_GROUP_TYPE_COMM_GROUP);
        size_t self = first_group(t, paradigms[p], OTF2_GROUP_TYPE_COMM_SELF);
        size_t first_comm = comm_group < self ? comm_group : self;
        if (first_comm != SIZE_MAX && locations > first_comm)
            mpi_fail("the %s COMM_LOCATIONS group is missing or comes after its first "
                     "communicator group",
                     paradigms[p] == OTF2_PARADIGM_MPI ? "MPI" : "OpenMP");
    }
    unsigned mpi_locations = 0;
    for (size_t i = 0; i < t->group_count; i++) {
        const trace_group *g = &t->groups[i];
        if (g->paradigm != OTF2_PARADIGM_MPI || g->type != OTF2_GROUP_TYPE_COMM_LOCATIONS)
            continue;
        mpi_locations++;
        MPI_CHECK_EQ(g->member_count, ctx->ranks, "members of the MPI COMM_LOCATIONS group");
        for (uint32_t r = 0; r < g->member_count && r < ctx->ranks; r++)
            MPI_CHECK_EQ(g->members[r], r,
                         "MPI COMM_LOCATIONS member %" PRIu32 " (thread 0 of rank %" PRIu32 ")", r,
                         r);
    }
    MPI_CHECK_EQ(mpi_locations, 1, "MPI COMM_LOCATIONS groups");
}

static void check_parent(const mpi_ctx *ctx, const trace_comm *c)
{
    if (c->parent == OTF2_UNDEFINED_COMM)
        return;
    const trace_comm *parent = mpi_comm_by_id(ctx, c->parent);
    if (parent == NULL)
        mpi_fail("comm %" PRIu32 " has undefined parent %" PRIu32, c->id, c->parent);
    else if (parent->id >= c->id || parent->paradigm != c->paradigm)
        mpi_fail("comm %" PRIu32 ": parent %" PRIu32 " must have a smaller id and the same "
                 "paradigm",
                 c->id, c->parent);
}

/* Members: world ranks below N, each at most once. */
static void check_members(const mpi_ctx *ctx, const trace_comm *c, const trace_group *g)
{
    for (uint32_t i = 0; i < g->member_count; i++) {
        if (g->members[i] >= ctx->ranks)
            mpi_fail("comm %" PRIu32 ": member %" PRIu64 " is not a world rank", c->id,
                     g->members[i]);
        for (uint32_t k = 0; k < i; k++) {
            if (g->members[k] == g->members[i])
                mpi_fail("comm %" PRIu32 ": world rank %" PRIu64 " listed twice", c->id,
                         g->members[i]);
        }
    }
}

void mpi_check_comm_definitions(mpi_ctx *ctx)
{
    const trace_model *t = ctx->t;
    check_locations_groups(ctx);
    unsigned mpi_comms = 0, selfs = 0;
    for (size_t i = 0; i < t->comm_count; i++) {
        const trace_comm *c = &t->comms[i];
        const trace_group *g = mpi_group_by_id(ctx, c->group);
        if (g == NULL) {
            mpi_fail("comm %" PRIu32 " has undefined group %" PRIu32, c->id, c->group);
            continue;
        }
        if (g->type != OTF2_GROUP_TYPE_COMM_GROUP && g->type != OTF2_GROUP_TYPE_COMM_SELF)
            mpi_fail("comm %" PRIu32 ": group %" PRIu32 " is neither COMM_GROUP nor COMM_SELF",
                     c->id, g->id);
        check_parent(ctx, c);
        if (g->paradigm != OTF2_PARADIGM_MPI)
            continue;
        if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
            selfs++;
            MPI_CHECK_EQ(g->member_count, 0, "members of the COMM_SELF group");
        } else {
            check_members(ctx, c, g);
        }
        if (mpi_comms++ > 0)
            continue;
        /* The first MPI comm: MPI_COMM_WORLD. */
        ctx->world_comm = c->id;
        if (g->type != OTF2_GROUP_TYPE_COMM_GROUP || g->member_count != ctx->ranks) {
            mpi_fail("the first MPI comm (%" PRIu32 ", \"%s\") is not MPI_COMM_WORLD: %" PRIu32
                     " members, expected a COMM_GROUP of %" PRIu32,
                     c->id, c->name ? c->name : "", g->member_count, ctx->ranks);
            continue;
        }
        for (uint32_t r = 0; r < ctx->ranks; r++)
            MPI_CHECK_EQ(g->members[r], r, "MPI_COMM_WORLD member %" PRIu32, r);
    }
    if (mpi_comms == 0)
        mpi_fail("no MPI communicator defined");
    MPI_CHECK_EQ(selfs, 1, "MPI comms with a COMM_SELF group (MPI_COMM_SELF)");
}
/* SPDX-License-Identifier: BSD-3-Clause */
