/* Writes, with the OTF2 writer, the trace a correct weft would record for
 * mpi_fortran.f90 on 2 ranks - or that trace with one deliberate fault - so
 * that the checker can be tested without MPI or weft (selftest_checker.sh:
 * the correct trace must pass, every faulty one must fail).
 *
 *   write_fake_trace DIR VARIANT
 *
 * VARIANT: good, lost_recv (rank 1's MPI_Recv holds no MpiRecv),
 * wrong_bytes (rank 1 receives 15 bytes of 16), self_peer (rank 0 sends to
 * comm rank 0), wrong_root (rank 1's Bcast names root 1), split_order (the
 * split's members in world-rank order), no_offsets (no ClockOffset
 * records), double_record (rank 0's MPI_Send holds two MpiSends),
 * early_recv (rank 1's first MPI_Recv ends before rank 0's MPI_Send
 * begins). */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

static const char *variant;

static bool is(const char *name)
{
    return strcmp(variant, name) == 0;
}

static void check(OTF2_ErrorCode rc, const char *what)
{
    if (rc != OTF2_SUCCESS) {
        fprintf(stderr, "write_fake_trace: %s: %s\n", what, OTF2_Error_GetName(rc));
        exit(1);
    }
}

/* ---- definitions ---------------------------------------------------------- */

enum { COMM_WORLD, COMM_SELF, COMM_SPLIT };
enum { GROUP_LOCATIONS, GROUP_WORLD, GROUP_SELF, GROUP_SPLIT };

/* clang-format off */
#define REGIONS(X)                                                           \
    X(INIT, "MPI_Init", FUNCTION)          X(FINALIZE, "MPI_Finalize", FUNCTION) \
    X(SEND, "MPI_Send", POINT2POINT)       X(RECV, "MPI_Recv", POINT2POINT)     \
    X(IRECV, "MPI_Irecv", POINT2POINT)     X(ISEND, "MPI_Isend", POINT2POINT)   \
    X(WAITALL, "MPI_Waitall", POINT2POINT) X(ALLREDUCE, "MPI_Allreduce", COLL_ALL2ALL) \
    X(BCAST, "MPI_Bcast", COLL_ONE2ALL)    X(SPLIT, "MPI_Comm_split", FUNCTION) \
    X(FREE, "MPI_Comm_free", FUNCTION)     X(SETNAME, "MPI_Comm_set_name", FUNCTION) \
    X(GETNAME, "MPI_Comm_get_name", FUNCTION)                               \
    X(PROCNAME, "MPI_Get_processor_name", FUNCTION)
/* clang-format on */
#define REGION_ENUM(id, name, role) R_##id,
enum { REGIONS(REGION_ENUM) REGION_COUNT };
#undef REGION_ENUM
#define REGION_NAME(id, name, role) name,
static const char *const region_names[] = {REGIONS(REGION_NAME)};
#undef REGION_NAME
#define REGION_ROLE(id, name, role) OTF2_REGION_ROLE_##role,
static const OTF2_RegionRole region_roles[] = {REGIONS(REGION_ROLE)};
#undef REGION_ROLE

/* Strings: the region names, then these. */
enum {
    S_MPI = REGION_COUNT,
    S_NODE,
    S_RANK0,
    S_RANK1,
    S_THREAD,
    S_WORLD,
    S_SELF,
    S_SPLIT,
    S_EMPTY
};
static const char *const other_strings[] = {
    "MPI", "node", "rank 0", "rank 1", "thread 0", "MPI_COMM_WORLD", "MPI_COMM_SELF", "split", ""};

static void write_definitions(OTF2_Archive *archive, const uint64_t *events)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive);
    check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 100000, 0), "clock");
    for (uint32_t i = 0; i < REGION_COUNT; i++)
        check(OTF2_GlobalDefWriter_WriteString(g, i, region_names[i]), "string");
    for (uint32_t i = 0; i < sizeof other_strings / sizeof other_strings[0]; i++)
        check(OTF2_GlobalDefWriter_WriteString(g, S_MPI + i, other_strings[i]), "string");
    for (uint32_t i = 0; i < REGION_COUNT; i++)
        check(OTF2_GlobalDefWriter_WriteRegion(g, i, i, i, S_EMPTY, region_roles[i],
                                               OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, S_MPI, 0,
                                               0),
              "region");
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_NODE, S_NODE,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "node");
    for (uint32_t r = 0; r < 2; r++) {
        check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, S_RANK0 + r,
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "location group");
        check(OTF2_GlobalDefWriter_WriteLocation(g, r, S_THREAD, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 events[r], r),
              "location");
    }
    const uint64_t ranks[] = {0, 1};
    const uint64_t split[] = {1, 0};
    check(OTF2_GlobalDefWriter_WriteGroup(g, GROUP_LOCATIONS, S_EMPTY,
                                          OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, 2, ranks),
          "group");
    check(OTF2_GlobalDefWriter_WriteGroup(g, GROUP_WORLD, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, ranks),
          "group");
    check(OTF2_GlobalDefWriter_WriteGroup(g, GROUP_SELF, S_EMPTY, OTF2_GROUP_TYPE_COMM_SELF,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL),
          "group");
    check(OTF2_GlobalDefWriter_WriteGroup(g, GROUP_SPLIT, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2,
                                          is("split_order") ? ranks : split),
          "group");
    check(OTF2_GlobalDefWriter_WriteComm(g, COMM_WORLD, S_WORLD, GROUP_WORLD, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE),
          "comm");
    check(OTF2_GlobalDefWriter_WriteComm(g, COMM_SELF, S_SELF, GROUP_SELF, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE),
          "comm");
    check(OTF2_GlobalDefWriter_WriteComm(g, COMM_SPLIT, S_SPLIT, GROUP_SPLIT, COMM_WORLD,
                                         OTF2_COMM_FLAG_NONE),
          "comm");
    check(OTF2_Archive_CloseGlobalDefWriter(archive, g), "close global definitions");
}

/* ---- events: one call of the program per step, all ranks in step ------- */

typedef struct rank_writer {
    OTF2_EvtWriter *w;
    uint32_t rank;
    uint64_t step_time;
} rank_writer;

static uint64_t t(rank_writer *rw, unsigned offset)
{
    return rw->step_time + offset;
}

static void enter(rank_writer *rw, uint32_t region)
{
    check(OTF2_EvtWriter_Enter(rw->w, NULL, t(rw, 0), region), "enter");
}

static void leave(rank_writer *rw, uint32_t region)
{
    check(OTF2_EvtWriter_Leave(rw->w, NULL, t(rw, 9), region), "leave");
}

static void plain(rank_writer *rw, uint32_t region)
{
    enter(rw, region);
    leave(rw, region);
}

static void send(rank_writer *rw, uint32_t to, uint32_t tag, uint64_t bytes)
{
    enter(rw, R_SEND);
    check(OTF2_EvtWriter_MpiSend(rw->w, NULL, t(rw, 1), to, COMM_WORLD, tag, bytes), "send");
    if (is("double_record") && rw->rank == 0)
        check(OTF2_EvtWriter_MpiSend(rw->w, NULL, t(rw, 2), to, COMM_WORLD, tag, bytes), "send");
    leave(rw, R_SEND);
}

static void recv(rank_writer *rw, uint32_t from, uint32_t tag, uint64_t bytes)
{
    enter(rw, R_RECV);
    if (!(is("lost_recv") && rw->rank == 1))
        check(OTF2_EvtWriter_MpiRecv(rw->w, NULL, t(rw, 8), from, COMM_WORLD, tag,
                                     is("wrong_bytes") && rw->rank == 1 ? bytes - 1 : bytes),
              "recv");
    leave(rw, R_RECV);
}

static void collective(rank_writer *rw, uint32_t region, OTF2_CollectiveOp op, uint32_t comm,
                       uint32_t root, uint64_t sent, uint64_t received)
{
    enter(rw, region);
    check(OTF2_EvtWriter_MpiCollectiveBegin(rw->w, NULL, t(rw, 1)), "collective begin");
    check(OTF2_EvtWriter_MpiCollectiveEnd(rw->w, NULL, t(rw, 8), op, comm, root, sent, received),
          "collective end");
    leave(rw, region);
}

/* Step s of every rank starts at 1000 + 100 s (+ rank, so ranks differ). */
static void step(rank_writer *rw, unsigned s)
{
    rw->step_time = 1000 + 100 * (uint64_t)s + rw->rank;
}

static void write_rank(rank_writer *rw)
{
    uint32_t r = rw->rank, other = 1 - r;
    unsigned s = 0;
    step(rw, s++);
    plain(rw, R_INIT);
    step(rw, s++);
    if (r == 0) {
        send(rw, is("self_peer") ? 0 : other, 1, 16);
    } else {
        if (is("early_recv"))
            rw->step_time -= 60;
        recv(rw, other, 1, 16);
    }
    step(rw, s++);
    if (r == 0)
        recv(rw, other, 1, 16);
    else
        send(rw, other, 1, 16);
    step(rw, s++);
    enter(rw, R_IRECV);
    check(OTF2_EvtWriter_MpiIrecvRequest(rw->w, NULL, t(rw, 1), 7), "irecv request");
    leave(rw, R_IRECV);
    step(rw, s++);
    enter(rw, R_ISEND);
    check(OTF2_EvtWriter_MpiIsend(rw->w, NULL, t(rw, 1), other, COMM_WORLD, 2, 12, 8), "isend");
    leave(rw, R_ISEND);
    step(rw, s++);
    enter(rw, R_WAITALL);
    check(OTF2_EvtWriter_MpiIrecv(rw->w, NULL, t(rw, 1), other, COMM_WORLD, 2, 12, 7), "irecv");
    check(OTF2_EvtWriter_MpiIsendComplete(rw->w, NULL, t(rw, 2), 8), "isend complete");
    leave(rw, R_WAITALL);
    step(rw, s++);
    collective(rw, R_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, COMM_WORLD, OTF2_UNDEFINED_UINT32, 8,
               8);
    step(rw, s++);
    collective(rw, R_BCAST, OTF2_COLLECTIVE_OP_BCAST, COMM_WORLD,
               is("wrong_root") && r == 1 ? 1 : 0, r == 0 ? 8 : 0, 4);
    step(rw, s++);
    plain(rw, R_SPLIT);
    step(rw, s++);
    collective(rw, R_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, COMM_SPLIT, OTF2_UNDEFINED_UINT32, 8,
               8);
    step(rw, s++);
    plain(rw, R_SETNAME);
    step(rw, s++);
    plain(rw, R_GETNAME);
    step(rw, s++);
    plain(rw, R_PROCNAME);
    step(rw, s++);
    plain(rw, R_FREE);
    step(rw, s++);
    plain(rw, R_FINALIZE);
}

static OTF2_FlushType pre_flush(void *user_data, OTF2_FileType file_type, OTF2_LocationRef location,
                                void *caller_data, bool is_final)
{
    (void)user_data;
    (void)file_type;
    (void)location;
    (void)caller_data;
    (void)is_final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush,
                                                    .otf2_post_flush = NULL};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: write_fake_trace DIR VARIANT\n");
        return 2;
    }
    variant = argv[2];
    OTF2_Archive *archive =
        OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (archive == NULL) {
        fprintf(stderr, "write_fake_trace: cannot create an archive in %s\n", argv[1]);
        return 1;
    }
    check(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "collective callbacks");
    check(OTF2_Archive_OpenEvtFiles(archive), "open event files");
    uint64_t events[2];
    for (uint32_t r = 0; r < 2; r++) {
        rank_writer rw = {.w = OTF2_Archive_GetEvtWriter(archive, r), .rank = r};
        write_rank(&rw);
        check(OTF2_EvtWriter_GetNumberOfEvents(rw.w, &events[r]), "event count");
        check(OTF2_Archive_CloseEvtWriter(archive, rw.w), "close event writer");
    }
    check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
    check(OTF2_Archive_OpenDefFiles(archive), "open definition files");
    for (uint32_t r = 0; r < 2; r++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(archive, r);
        if (!is("no_offsets")) {
            check(OTF2_DefWriter_WriteClockOffset(d, 1000, 0, 0.0), "clock offset");
            check(OTF2_DefWriter_WriteClockOffset(d, 3000, 0, 0.0), "clock offset");
        }
        check(OTF2_Archive_CloseDefWriter(archive, d), "close definition writer");
    }
    check(OTF2_Archive_CloseDefFiles(archive), "close definition files");
    write_definitions(archive, events);
    check(OTF2_Archive_Close(archive), "close archive");
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
