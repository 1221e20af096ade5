/* Expectations of the io and rma scenarios (mpi_io.c / mpi_io_fortran.f90,
 * mpi_rma.c / mpi_rma_fortran.f90): the calls of each rank, and every I/O
 * or RMA record of each location in order: its kind, the MPI region it sits
 * in, its peer, modes, flags and bytes, and which operation (matching id)
 * it belongs to; then the definitions: one file, one I/O handle per rank on
 * MPI_COMM_WORLD, one MPI-IO paradigm; one window on MPI_COMM_WORLD; the
 * groups of the post/start synchronisations. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mpi_scenarios.h"

#define INT_BYTES 4

enum peer { NONE, RIGHT, LEFT, PARTNER, ALL };
enum id_use { NO_ID, NEW_ID, SAME_ID };

/* One expected record. `slot` names its operation: NEW_ID gives the slot a
 * fresh id, SAME_ID must carry the slot's id. `amount` UINT64_MAX: computed
 * (the seek's offset). */
typedef struct expected_record {
    trace_event_kind kind;
    const char *region;
    enum peer peer;
    uint32_t mode, flags;
    uint64_t amount, received;
    enum id_use id;
    int slot;
} expected_record;

#define RW 2u     /* OTF2_IO_ACCESS_MODE_READ_WRITE */
#define CREATE 1u /* OTF2_IO_CREATION_FLAG_CREATE */
#define READ 0u   /* OTF2_IO_OPERATION_MODE_* */
#define WRITE 1u
#define FLUSH 2u
#define NB 1u   /* OTF2_IO_OPERATION_FLAG_NON_BLOCKING */
#define COLL 2u /* OTF2_IO_OPERATION_FLAG_COLLECTIVE */
#define B IO_BLOCK_BYTES
#define SEEK_RESULT UINT64_MAX

/* clang-format off */
static const expected_record io_records[] = {
    {TRACE_EVENT_IO_CREATE_HANDLE, "MPI_File_open", NONE, RW, CREATE, 0, 0, NO_ID, 0},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_write_at", NONE, WRITE, 0, B, 0, NEW_ID, 0},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_write_at", NONE, 0, 0, B, 0, SAME_ID, 0},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_write_at_all", NONE, WRITE, COLL, B, 0, NEW_ID, 1},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_write_at_all", NONE, 0, 0, B, 0, SAME_ID, 1},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_iwrite_at", NONE, WRITE, NB, B, 0, NEW_ID, 2},
    {TRACE_EVENT_IO_OPERATION_ISSUED, "MPI_File_iwrite_at", NONE, 0, 0, 0, 0, SAME_ID, 2},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_Wait", NONE, 0, 0, B, 0, SAME_ID, 2},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_iwrite_at_all", NONE, WRITE, NB | COLL, B, 0, NEW_ID, 3},
    {TRACE_EVENT_IO_OPERATION_ISSUED, "MPI_File_iwrite_at_all", NONE, 0, 0, 0, 0, SAME_ID, 3},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_Wait", NONE, 0, 0, B, 0, SAME_ID, 3},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_sync", NONE, FLUSH, 0, 0, 0, NEW_ID, 4},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_sync", NONE, 0, 0, 0, 0, SAME_ID, 4},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_sync", NONE, FLUSH, 0, 0, 0, NEW_ID, 5},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_sync", NONE, 0, 0, 0, 0, SAME_ID, 5},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_read_at", NONE, READ, 0, B, 0, NEW_ID, 6},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_read_at", NONE, 0, 0, B, 0, SAME_ID, 6},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_read_at_all", NONE, READ, COLL, B, 0, NEW_ID, 7},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_read_at_all", NONE, 0, 0, B, 0, SAME_ID, 7},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_iread_at", NONE, READ, NB, B, 0, NEW_ID, 8},
    {TRACE_EVENT_IO_OPERATION_ISSUED, "MPI_File_iread_at", NONE, 0, 0, 0, 0, SAME_ID, 8},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_Wait", NONE, 0, 0, B, 0, SAME_ID, 8},
    {TRACE_EVENT_IO_SEEK, "MPI_File_seek", NONE, 0 /* SEEK_FROM_START */, 0, SEEK_RESULT, 0, NO_ID, 0},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_read_all_begin", NONE, READ, NB | COLL, B, 0, NEW_ID, 9},
    {TRACE_EVENT_IO_OPERATION_ISSUED, "MPI_File_read_all_begin", NONE, 0, 0, 0, 0, SAME_ID, 9},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_read_all_end", NONE, 0, 0, B, 0, SAME_ID, 9},
    {TRACE_EVENT_IO_OPERATION_BEGIN, "MPI_File_read_at", NONE, READ, 0, B, 0, NEW_ID, 10},
    {TRACE_EVENT_IO_OPERATION_COMPLETE, "MPI_File_read_at", NONE, 0, 0, IO_SHORT_INTS * INT_BYTES, 0, SAME_ID, 10},
    {TRACE_EVENT_IO_DESTROY_HANDLE, "MPI_File_close", NONE, 0, 0, 0, 0, NO_ID, 0},
};

#define C (RMA_COUNT * INT_BYTES)
#define FENCE 3u   /* OTF2_RMA_SYNC_LEVEL_PROCESS | MEMORY */
#define PROCESS 1u
#define EXCL 0u    /* OTF2_LOCK_EXCLUSIVE */
#define SHARED 1u
#define ACC 0u     /* OTF2_RMA_ATOMIC_TYPE_ACCUMULATE */
#define CAS 3u     /* _COMPARE_AND_SWAP */
#define FACC 7u    /* _FETCH_AND_ACCUMULATE */
#define BARRIER OTF2_COLLECTIVE_OP_BARRIER

static const expected_record rma_records[] = {
    {TRACE_EVENT_RMA_WIN_CREATE, "MPI_Win_create", NONE, 0, 0, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_COLLECTIVE_BEGIN, "MPI_Win_fence", NONE, 0, 0, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_COLLECTIVE_END, "MPI_Win_fence", NONE, FENCE, BARRIER, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_PUT, "MPI_Put", RIGHT, 0, 0, C, 0, NEW_ID, 0},
    {TRACE_EVENT_RMA_PUT, "MPI_Put", RIGHT, 0, 0, C, 0, NEW_ID, 1},
    {TRACE_EVENT_RMA_GET, "MPI_Get", LEFT, 0, 0, C, 0, NEW_ID, 2},
    {TRACE_EVENT_RMA_COLLECTIVE_BEGIN, "MPI_Win_fence", NONE, 0, 0, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_fence", NONE, 0, 0, 0, 0, SAME_ID, 0},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_fence", NONE, 0, 0, 0, 0, SAME_ID, 1},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_fence", NONE, 0, 0, 0, 0, SAME_ID, 2},
    {TRACE_EVENT_RMA_COLLECTIVE_END, "MPI_Win_fence", NONE, FENCE, BARRIER, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_GROUP_SYNC, "MPI_Win_post", PARTNER, PROCESS, 0, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_GROUP_SYNC, "MPI_Win_start", PARTNER, PROCESS, 0, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_PUT, "MPI_Put", PARTNER, 0, 0, C, 0, NEW_ID, 3},
    {TRACE_EVENT_RMA_ATOMIC, "MPI_Accumulate", PARTNER, ACC, 0, C, 0, NEW_ID, 4},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_complete", NONE, 0, 0, 0, 0, SAME_ID, 3},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_complete", NONE, 0, 0, 0, 0, SAME_ID, 4},
    {TRACE_EVENT_RMA_GROUP_SYNC, "MPI_Win_complete", PARTNER, FENCE, 0, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_GROUP_SYNC, "MPI_Win_wait", PARTNER, FENCE, 0, 0, 0, NO_ID, 0},
    {TRACE_EVENT_RMA_REQUEST_LOCK, "MPI_Win_lock", RIGHT, EXCL, 0, 0, 0, NEW_ID, 5},
    {TRACE_EVENT_RMA_ACQUIRE_LOCK, "MPI_Win_lock", RIGHT, EXCL, 0, 0, 0, SAME_ID, 5},
    {TRACE_EVENT_RMA_PUT, "MPI_Put", RIGHT, 0, 0, INT_BYTES, 0, NEW_ID, 6},
    {TRACE_EVENT_RMA_ATOMIC, "MPI_Fetch_and_op", RIGHT, FACC, 0, INT_BYTES, INT_BYTES, NEW_ID, 7},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_unlock", NONE, 0, 0, 0, 0, SAME_ID, 6},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_unlock", NONE, 0, 0, 0, 0, SAME_ID, 7},
    {TRACE_EVENT_RMA_RELEASE_LOCK, "MPI_Win_unlock", RIGHT, 0, 0, 0, 0, SAME_ID, 5},
    {TRACE_EVENT_RMA_REQUEST_LOCK, "MPI_Win_lock_all", ALL, SHARED, 0, 0, 0, NEW_ID, 8},
    {TRACE_EVENT_RMA_ACQUIRE_LOCK, "MPI_Win_lock_all", ALL, SHARED, 0, 0, 0, SAME_ID, 8},
    {TRACE_EVENT_RMA_GET, "MPI_Get", LEFT, 0, 0, INT_BYTES, 0, NEW_ID, 9},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_flush_all", NONE, 0, 0, 0, 0, SAME_ID, 9},
    {TRACE_EVENT_RMA_ATOMIC, "MPI_Compare_and_swap", RIGHT, CAS, 0, 2 * INT_BYTES, INT_BYTES, NEW_ID, 10},
    {TRACE_EVENT_RMA_OP_COMPLETE, "MPI_Win_unlock_all", NONE, 0, 0, 0, 0, SAME_ID, 10},
    {TRACE_EVENT_RMA_RELEASE_LOCK, "MPI_Win_unlock_all", ALL, 0, 0, 0, 0, SAME_ID, 8},
    {TRACE_EVENT_RMA_WIN_DESTROY, "MPI_Win_free", NONE, 0, 0, 0, 0, NO_ID, 0},
};
/* clang-format on */

enum { MAX_SLOTS = 16 };

static bool is_io_rma(trace_event_kind kind)
{
    return kind >= TRACE_EVENT_IO_CREATE_HANDLE && kind <= TRACE_EVENT_RMA_OP_COMPLETE;
}

/* The world rank the peer rule names for `rank` (ranks of the window's
 * communicator are world ranks here). */
static uint32_t peer_of(enum peer p, uint32_t rank, uint32_t n)
{
    switch (p) {
    case RIGHT:
        return (rank + 1) % n;
    case LEFT:
        return (rank + n - 1) % n;
    case PARTNER:
        return rank ^ 1u;
    case ALL:
        return UINT32_MAX;
    default:
        return 0;
    }
}

/* The members of the group an RmaGroupSync names must be exactly {peer}. */
static void check_group(const mpi_ctx *ctx, uint32_t group, uint32_t peer, const char *where)
{
    const trace_group *g = mpi_group_by_id(ctx, group);
    if (g == NULL) {
        mpi_fail("%s: group %" PRIu32 " is not defined", where, group);
        return;
    }
    if (g->type != OTF2_GROUP_TYPE_COMM_GROUP || g->member_count != 1 || g->members[0] != peer)
        mpi_fail("%s: group %" PRIu32 " is not the COMM_GROUP of world rank %" PRIu32, where, group,
                 peer);
}

/* Compares the I/O or RMA records of loc, in order, with `want`; returns
 * the object (handle or window) they name, UINT32_MAX when they differ. */
static uint32_t check_records(const mpi_ctx *ctx, const trace_location_stats *loc,
                              const expected_record *want, size_t count, uint64_t seek_result)
{
    const char *label = mpi_loc_label(loc);
    uint32_t rank = mpi_loc_rank(loc), n = ctx->ranks, object = UINT32_MAX;
    uint64_t slots[MAX_SLOTS] = {0};
    size_t k = 0, index = (size_t)(loc - ctx->t->locations);
    for (size_t e = 0; e < loc->event_list_len; e++) {
        const trace_event *ev = &loc->events[e];
        if (!is_io_rma(ev->kind))
            continue;
        if (k == count) {
            mpi_fail("%s: an extra %s record (event %zu)", label, trace_event_kind_name(ev->kind),
                     e);
            return UINT32_MAX;
        }
        const expected_record *w = &want[k++];
        char where[128];
        snprintf(where, sizeof where, "%s, record %zu (%s in %s)", label, k,
                 trace_event_kind_name(w->kind), w->region);
        if (ev->kind != w->kind) {
            mpi_fail("%s: got %s", where, trace_event_kind_name(ev->kind));
            return UINT32_MAX;
        }
        int64_t enter = ctx->loc[index].enclosing[e];
        const char *region = enter >= 0 ? mpi_region_name(ctx, loc->events[enter].region) : "none";
        if (strcmp(region, w->region) != 0)
            mpi_fail("%s: sits in %s", where, region);
        if (w->kind != TRACE_EVENT_RMA_COLLECTIVE_BEGIN) {
            if (object == UINT32_MAX)
                object = ev->object;
            MPI_CHECK_EQ(ev->object, object, "%s: handle or window", where);
        }
        uint32_t peer = peer_of(w->peer, rank, n);
        if (w->kind == TRACE_EVENT_RMA_GROUP_SYNC)
            check_group(ctx, ev->remote, peer, where);
        else if (w->peer != NONE)
            MPI_CHECK_EQ(ev->remote, peer, "%s: remote rank", where);
        if (w->kind == TRACE_EVENT_RMA_COLLECTIVE_END)
            MPI_CHECK_EQ(ev->remote, UINT32_MAX, "%s: root", where);
        MPI_CHECK_EQ(ev->mode, w->mode, "%s: mode, type or sync level", where);
        MPI_CHECK_EQ(ev->flags, w->flags, "%s: flags or operation", where);
        MPI_CHECK_EQ(ev->amount, w->amount == SEEK_RESULT ? seek_result : w->amount, "%s: bytes",
                     where);
        MPI_CHECK_EQ(ev->amount_received, w->received, "%s: bytes received", where);
        if (w->id == NEW_ID) {
            for (int s = 0; s < MAX_SLOTS; s++) {
                if (slots[s] != 0 && slots[s] == ev->matching_id && s != w->slot)
                    mpi_fail("%s: id %" PRIu64 " is not new", where, ev->matching_id);
            }
            if (ev->matching_id == 0)
                mpi_fail("%s: id 0", where);
            slots[w->slot] = ev->matching_id;
        } else if (w->id == SAME_ID) {
            MPI_CHECK_EQ(ev->matching_id, slots[w->slot], "%s: matching id", where);
        }
    }
    if (k != count)
        mpi_fail("%s: %zu of %zu I/O or RMA records", label, k, count);
    return object;
}

/* ---- io -------------------------------------------------------------------- */

static void expect_io(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x)
{
    (void)ctx, (void)rank, (void)thread;
    mpi_expect(x, "MPI_Init", 1);
    mpi_expect(x, "MPI_Info_create", 1);
    mpi_expect(x, "MPI_Info_set", 1);
    mpi_expect(x, "MPI_File_open", 1);
    mpi_expect(x, "MPI_Info_free", 1);
    mpi_expect(x, "MPI_File_write_at", 1);
    mpi_expect(x, "MPI_File_write_at_all", 1);
    mpi_expect(x, "MPI_File_iwrite_at", 1);
    mpi_expect(x, "MPI_File_iwrite_at_all", 1);
    mpi_expect(x, "MPI_Wait", 3);
    mpi_expect(x, "MPI_File_sync", 2);
    mpi_expect(x, "MPI_Barrier", 1);
    mpi_expect(x, "MPI_File_read_at", 2);
    mpi_expect(x, "MPI_File_read_at_all", 1);
    mpi_expect(x, "MPI_File_iread_at", 1);
    mpi_expect(x, "MPI_File_seek", 1);
    mpi_expect(x, "MPI_File_read_all_begin", 1);
    mpi_expect(x, "MPI_File_read_all_end", 1);
    mpi_expect(x, "MPI_Get_count", 1);
    mpi_expect(x, "MPI_File_close", 1);
    mpi_expect(x, "MPI_Finalize", 1);
}

static void check_io(mpi_ctx *ctx)
{
    const trace_model *t = ctx->t;
    size_t files = 0, handles = 0;
    const trace_object *file = NULL;
    for (size_t i = 0; i < t->object_count; i++) {
        const trace_object *o = &t->objects[i];
        if (o->kind == TRACE_OBJECT_IO_FILE) {
            files++;
            file = o;
        }
        handles += o->kind == TRACE_OBJECT_IO_HANDLE;
    }
    MPI_CHECK_EQ(files, 1, "IoRegularFile definitions");
    MPI_CHECK_EQ(handles, ctx->ranks, "IoHandle definitions");
    MPI_CHECK_EQ(t->io_paradigm_count, 1, "IoParadigm definitions");
    size_t name_len = strlen(IO_FILE_NAME);
    if (file == NULL || file->name == NULL || strlen(file->name) < name_len + 1 ||
        strcmp(file->name + strlen(file->name) - name_len - 1, "/" IO_FILE_NAME) != 0)
        mpi_fail("the file is named \"%s\", not .../%s", file && file->name ? file->name : "",
                 IO_FILE_NAME);
    uint32_t seen[64];
    for (uint32_t rank = 0; rank < ctx->ranks && rank < 64; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc == NULL)
            continue;
        uint64_t seek = ((uint64_t)3 * ctx->ranks + (rank ^ 1u)) * IO_BLOCK_BYTES;
        uint32_t handle =
            check_records(ctx, loc, io_records, sizeof io_records / sizeof io_records[0], seek);
        seen[rank] = handle;
        const trace_object *h = trace_object_by_id(t, TRACE_OBJECT_IO_HANDLE, handle);
        if (h == NULL) {
            mpi_fail("rank %" PRIu32 ": I/O handle %" PRIu32 " is not defined", rank, handle);
            continue;
        }
        if (file != NULL)
            MPI_CHECK_EQ(h->file, file->id, "rank %" PRIu32 ": the handle's file", rank);
        MPI_CHECK_EQ(h->comm, ctx->world_comm, "rank %" PRIu32 ": the handle's communicator", rank);
        for (uint32_t other = 0; other < rank; other++) {
            if (seen[other] == handle)
                mpi_fail("ranks %" PRIu32 " and %" PRIu32 " share I/O handle %" PRIu32, other, rank,
                         handle);
        }
    }
}

const mpi_scenario mpi_scenario_io = {"io", 1, 2, expect_io, check_io};

/* ---- rma ------------------------------------------------------------------- */

static void expect_rma(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x)
{
    (void)ctx, (void)rank, (void)thread;
    mpi_expect(x, "MPI_Init", 1);
    mpi_expect(x, "MPI_Win_create", 1);
    mpi_expect(x, "MPI_Win_fence", 2);
    mpi_expect(x, "MPI_Put", RMA_FENCE_PUTS + 2);
    mpi_expect(x, "MPI_Get", 2);
    mpi_expect(x, "MPI_Comm_group", 1);
    mpi_expect(x, "MPI_Group_incl", 1);
    mpi_expect(x, "MPI_Barrier", 4);
    mpi_expect(x, "MPI_Win_post", 1);
    mpi_expect(x, "MPI_Win_start", 1);
    mpi_expect(x, "MPI_Accumulate", 1);
    mpi_expect(x, "MPI_Win_complete", 1);
    mpi_expect(x, "MPI_Win_wait", 1);
    mpi_expect(x, "MPI_Group_free", 2);
    mpi_expect(x, "MPI_Win_lock", 1);
    mpi_expect(x, "MPI_Fetch_and_op", 1);
    mpi_expect(x, "MPI_Win_unlock", 1);
    mpi_expect(x, "MPI_Win_lock_all", 1);
    mpi_expect(x, "MPI_Win_flush_all", 1);
    mpi_expect(x, "MPI_Compare_and_swap", 1);
    mpi_expect(x, "MPI_Win_unlock_all", 1);
    mpi_expect(x, "MPI_Win_free", 1);
    mpi_expect(x, "MPI_Finalize", 1);
}

static void check_rma(mpi_ctx *ctx)
{
    const trace_model *t = ctx->t;
    size_t windows = 0;
    const trace_object *win = NULL;
    for (size_t i = 0; i < t->object_count; i++) {
        if (t->objects[i].kind == TRACE_OBJECT_RMA_WIN) {
            windows++;
            win = &t->objects[i];
        }
    }
    MPI_CHECK_EQ(windows, 1, "RmaWin definitions (one window, unified)");
    if (win != NULL)
        MPI_CHECK_EQ(win->comm, ctx->world_comm, "the window's communicator");
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc == NULL)
            continue;
        uint32_t object =
            check_records(ctx, loc, rma_records, sizeof rma_records / sizeof rma_records[0], 0);
        if (win != NULL)
            MPI_CHECK_EQ(object, win->id, "rank %" PRIu32 ": the window of its records", rank);
    }
}

const mpi_scenario mpi_scenario_rma = {"rma", 1, 2, expect_rma, check_rma};
/* SPDX-License-Identifier: BSD-3-Clause */
