/* What the parts of the MPI trace checker share (check_mpi_trace.c is the
 * entry): failure reporting, the loaded trace with the lookups every check
 * needs (ranks and threads of locations, communicators as world ranks, the
 * MPI region each event sits in), and the checks each file provides.
 *
 *   mpi_check_common.c   failure reporting, the index, counts files
 *   mpi_check_basics.c   weft-check basics, locations, clock
 *   mpi_check_comms.c    group and communicator definitions
 *   mpi_check_events.c   MPI regions: counts, contents, requests
 *   mpi_matching.c       messages matched across ranks, send before receive
 *   mpi_check_collectives.c  collective records per communicator, bytes
 *   mpi_expect_*.c       per scenario: expected calls and special checks */
#ifndef WEFT_TESTS_MPI_CHECK_H
#define WEFT_TESTS_MPI_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "otf2_trace.h"

/* ---- failures (mpi_check_common.c) ------------------------------------- */

/* Prints "check_mpi_trace: <message>" on stdout and counts a failure. After
 * MPI_CHECK_MAX_REPORTS messages with the same format only the count goes
 * on, so one systematic fault does not flood the log. */
#define MPI_CHECK_MAX_REPORTS 12
void mpi_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int mpi_failures(void);

#define MPI_CHECK_EQ(actual, expected, ...)                                                        \
    do {                                                                                           \
        unsigned long long a_ = (actual), e_ = (expected);                                         \
        if (a_ != e_) {                                                                            \
            char what_[512];                                                                       \
            snprintf(what_, sizeof(what_), __VA_ARGS__);                                           \
            mpi_fail("%s: got %llu, expected %llu", what_, a_, e_);                                \
        }                                                                                          \
    } while (0)

/* ---- the trace and its index (mpi_check_common.c) ---------------------- */

/* Per location: for every event, the position of the Enter of the
 * innermost MPI region open at it (-1 outside all), and for every Enter of
 * an MPI region the position of its Leave (-1 if never left). */
typedef struct mpi_location_index {
    int64_t *enclosing;
    int64_t *leave_of;
} mpi_location_index;

typedef struct mpi_ctx {
    const trace_model *t;
    uint32_t ranks;          /* the run's number of ranks */
    const char *counts_dir;  /* where the program wrote counts.RANK, or NULL */
    const char *source;      /* the program's source (hybrid), or NULL */
    mpi_location_index *loc; /* parallel to t->locations */
    uint32_t world_comm;     /* OTF2_UNDEFINED_COMM when not found */
    /* Filled by check_mpi_trace.c from mpi_check_messages before the
     * scenario's own checks run. */
    uint64_t messages;           /* matched messages */
    uint64_t *messages_per_comm; /* by comm id, comm_slots entries */
    size_t comm_slots;
} mpi_ctx;

/* Builds the index; returns 0, or -1 on out-of-memory (reported). */
int mpi_ctx_init(mpi_ctx *ctx, const trace_model *t, uint32_t ranks);
void mpi_ctx_free(mpi_ctx *ctx);

static inline uint32_t mpi_loc_rank(const trace_location_stats *loc)
{
    return (uint32_t)(loc->id & 0xffffffffu);
}

static inline uint32_t mpi_loc_thread(const trace_location_stats *loc)
{
    return (uint32_t)(loc->id >> 32);
}

/* Location (thread, rank) by the Score-P id scheme, or NULL. */
const trace_location_stats *mpi_location(const mpi_ctx *ctx, uint32_t rank, uint32_t thread);

/* Short label "rank R thread T" for messages (static buffer per call slot:
 * up to four labels may be used in one message). */
const char *mpi_loc_label(const trace_location_stats *loc);

/* Region name of an id, "(region N)" when it has none. */
const char *mpi_region_name(const mpi_ctx *ctx, uint32_t region);

/* True for a region of paradigm MPI. */
bool mpi_region_is_mpi(const mpi_ctx *ctx, uint32_t region);

const trace_comm *mpi_comm_by_id(const mpi_ctx *ctx, uint32_t comm);
const trace_group *mpi_group_by_id(const mpi_ctx *ctx, uint32_t group);

/* An MPI communicator as world ranks in comm-rank order. COMM_SELF holds
 * the asking rank. Returns false (and sets *count 0) for an undefined or
 * non-MPI comm. */
typedef struct mpi_comm_view {
    uint32_t count;
    const uint64_t *members; /* NULL for COMM_SELF */
    uint32_t self_rank;
    bool self;
} mpi_comm_view;
bool mpi_comm_view_of(const mpi_ctx *ctx, uint32_t comm, uint32_t asking_rank, mpi_comm_view *out);

/* World rank of comm rank r in the view, UINT32_MAX when out of range. */
uint32_t mpi_view_world(const mpi_comm_view *view, uint32_t r);
/* Comm rank of a world rank in the view, UINT32_MAX when not a member. */
uint32_t mpi_view_rank_of(const mpi_comm_view *view, uint32_t world_rank);

/* The value NAME in COUNTS_DIR/counts.RANK; reports a failure and returns
 * -1 when the file or the line is missing. */
long mpi_program_count(const mpi_ctx *ctx, uint32_t rank, const char *name);

/* ---- checks every scenario runs ---------------------------------------- */

/* mpi_check_basics.c: per location balanced nesting, non-decreasing time,
 * no unhandled records, enter == leave per region; clock properties. */
void mpi_check_basics(const mpi_ctx *ctx);
/* Every rank's MPI_Finalize region overlaps every other's. */
void mpi_check_finalize_overlap(const mpi_ctx *ctx);
/* One location group per rank (id = rank, PROCESS), locations with the
 * Score-P ids, `threads` per rank; ClockOffset records (at least
 * min_offsets per location, in increasing time). */
void mpi_check_locations(const mpi_ctx *ctx, uint32_t threads, uint32_t min_offsets);

/* mpi_check_comms.c: the MPI COMM_LOCATIONS group, MPI_COMM_WORLD first,
 * MPI_COMM_SELF, every MPI comm's group and parent; sets ctx->world_comm. */
void mpi_check_comm_definitions(mpi_ctx *ctx);

/* mpi_check_events.c: MPI region definitions (file "MPI", paradigm, roles
 * by name); what each MPI region instance holds; MPI events only inside MPI
 * regions, no MPI region inside another; communicators of events defined
 * and holding the location's rank; request ids paired per location. */
void mpi_check_mpi_events(const mpi_ctx *ctx);

/* The OTF2 collective operation of a blocking collective's region name
 * ("MPI_Bcast": OTF2_COLLECTIVE_OP_BCAST), -1 for other names. */
int mpi_collective_op_of(const char *region_name);

/* Expected MPI region enters of one location, filled by a scenario. */
enum { MPI_EXPECT_MAX = 64 };
typedef struct mpi_expected_calls {
    size_t count;
    struct {
        const char *name;
        uint64_t calls;
    } item[MPI_EXPECT_MAX];
} mpi_expected_calls;
/* Adds `calls` to the expectation for `name` (entries may repeat). */
void mpi_expect(mpi_expected_calls *x, const char *name, uint64_t calls);
/* Compares every MPI region's enter count on `loc` with `x` (regions not in
 * x must not be entered); names in x must be defined MPI regions. */
void mpi_check_calls(const mpi_ctx *ctx, const trace_location_stats *loc,
                     const mpi_expected_calls *x);

/* Events of `kind` inside enters of the region `name` on `loc`, and the
 * number of such region instances. */
uint64_t mpi_events_in(const mpi_ctx *ctx, const trace_location_stats *loc, const char *name,
                       trace_event_kind kind, uint64_t *instances);

/* mpi_matching.c: every send matched by one receive on its channel (source,
 * destination, comm, tag, in order), bytes equal, none left over; each
 * receive ends after its send began. Returns the number of matched
 * messages; per_comm (may be NULL) counts them per comm id (comm_slots). */
uint64_t mpi_check_messages(const mpi_ctx *ctx, uint64_t *per_comm, size_t comm_slots);

/* The world-comm messages a scenario sends, by tag: each rank sends
 * per_rank messages with the tag to its peer (and receives as many from the
 * rank for which it is the peer), `bytes` each, on MPI_COMM_WORLD. Every
 * send and receive record of thread `thread` must fit one rule. */
typedef enum mpi_peer { MPI_PEER_RIGHT, MPI_PEER_LEFT, MPI_PEER_PARTNER } mpi_peer;
typedef struct mpi_message_rule {
    uint32_t tag;
    uint64_t bytes;
    mpi_peer to;
    uint32_t per_rank;
} mpi_message_rule;
void mpi_check_message_rules(const mpi_ctx *ctx, uint32_t thread, const mpi_message_rule *rules,
                             size_t count);

/* Events of `kind` inside instances of region `name` on loc must be
 * `expected` (a region never entered holds 0). */
void mpi_check_events_in(const mpi_ctx *ctx, const trace_location_stats *loc, const char *name,
                         trace_event_kind kind, uint64_t expected);

/* mpi_check_collectives.c: the collective records of one location on one
 * comm, in order. */
typedef struct mpi_collective {
    uint32_t comm;
    uint32_t op;
    uint32_t root;
    uint64_t sent;
    uint64_t received;
    uint32_t region; /* the MPI region it sits in */
    uint64_t time;
} mpi_collective;
/* All collective records (MpiCollectiveEnd) of loc, in order; *out is a
 * malloc'ed array the caller frees. */
size_t mpi_collectives_of(const mpi_ctx *ctx, const trace_location_stats *loc,
                          mpi_collective **out);
/* Every member of each comm has the same sequence of (op, root) on it;
 * roots defined exactly for rooted operations and inside the comm; the
 * operation matches the region's name. */
void mpi_check_collective_sequences(const mpi_ctx *ctx);

/* Expected (sent, received) bytes of a collective in which every rank
 * passes the same `bytes` per peer (count times type size; no v variant, no
 * MPI_IN_PLACE), by the convention the MPI adapter follows (Score-P's; see
 * mpi_check_collectives.c). `me` and `root` are comm ranks. */
void mpi_uniform_collective_bytes(uint32_t op, uint32_t n, uint32_t me, uint32_t root,
                                  uint64_t bytes, uint64_t *sent, uint64_t *received);

/* ---- scenarios (mpi_expect_*.c) ---------------------------------------- */

typedef struct mpi_scenario {
    const char *name;
    uint32_t threads;     /* locations per rank */
    uint32_t min_offsets; /* ClockOffset records per location */
    /* Expected MPI calls of one location. */
    void (*expect)(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x);
    /* Checks of this scenario only (may be NULL). */
    void (*check)(mpi_ctx *ctx);
} mpi_scenario;

extern const mpi_scenario mpi_scenario_p2p, mpi_scenario_nonblocking, mpi_scenario_collectives,
    mpi_scenario_comms, mpi_scenario_hybrid, mpi_scenario_hybrid_ompt, mpi_scenario_fortran,
    mpi_scenario_clock, mpi_scenario_io, mpi_scenario_rma, mpi_scenario_topo,
    mpi_scenario_families;

#endif
/* SPDX-License-Identifier: BSD-3-Clause */
