/* Writes, with the OTF2 writer directly, a hybrid-shaped trace of about
 * EVENTS events for the tests and the benchmark of `weft view`: RANKS MPI
 * ranks of THREADS threads, 1 tick = 1 ns. Each iteration (10 us) of a
 * rank: its master thread enters `iteration`, forks, and every thread runs
 * `!$omp parallel` holding `!$omp for` (of a length that varies with the
 * thread and the iteration) and `!$omp implicit barrier` up to a common end;
 * then the master joins, sends one message to the next rank (MPI_Send),
 * receives one from the previous (MPI_Recv), calls MPI_Allreduce, and
 * writes records weft's recorder never writes (ParameterUnsignedInt, an
 * MPI_Ibarrier's NonBlockingCollectiveRequest and ...Complete).
 *
 *   write_view_trace [--no-length] DIR EVENTS [RANKS THREADS] [EXPECT.json]
 *
 * With EXPECT.json it also writes, for browser_test.mjs, places in the
 * middle iteration where a known region runs (see `expect` below). The
 * trace is sound for `weft check`; what each region's visits and times add
 * up to follows from the pattern (check_view.py checks the page's profile
 * against `weft summary`). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#define PERIOD 10000 /* ticks per iteration */
#define MAX_LOCATIONS 4096

enum { R_ITERATION, R_PARALLEL, R_FOR, R_BARRIER, R_SEND, R_RECV, R_ALLREDUCE, R_COUNT };
enum {
    S_EMPTY,
    S_ITERATION,
    S_PARALLEL,
    S_FOR,
    S_BARRIER,
    S_SEND,
    S_RECV,
    S_ALLREDUCE,
    S_FILE,
    S_MPI,
    S_MACHINE,
    S_NODE,
    S_MASTER,
    S_THREAD,
    S_WORLD,
    S_RANK,
    S_PARAMETER,
    S_COUNT
};
static const char *const strings[S_COUNT] = {"",
                                             "iteration",
                                             "!$omp parallel @solver.c:40",
                                             "!$omp for @solver.c:42",
                                             "!$omp implicit barrier @solver.c:47",
                                             "MPI_Send",
                                             "MPI_Recv",
                                             "MPI_Allreduce",
                                             "solver.c",
                                             "MPI",
                                             "machine",
                                             "node",
                                             "Master thread",
                                             "OpenMP thread",
                                             "MPI_COMM_WORLD",
                                             "MPI Rank",
                                             "iteration number"};

static uint64_t ranks = 16, threads = 4;
static bool no_length; /* --no-length: a trace length of 0, as some converters write */

static void check(OTF2_ErrorCode rc, const char *what)
{
    if (rc != OTF2_SUCCESS) {
        fprintf(stderr, "write_view_trace: %s: %s\n", what, OTF2_Error_GetName(rc));
        exit(1);
    }
}

static OTF2_FlushType pre_flush(void *d, OTF2_FileType t, OTF2_LocationRef l, void *c, bool f)
{
    (void)d, (void)t, (void)l, (void)c, (void)f;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *d, OTF2_FileType t, OTF2_LocationRef l)
{
    (void)d, (void)t, (void)l;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* The end of thread T's `!$omp for` in iteration I, from the iteration's start:
 * 2000 to 5999 ticks, a fixed pseudo-random function of (rank, thread, iteration). */
static uint64_t loop_end(uint64_t rank, uint64_t t, uint64_t i)
{
    uint64_t h = (rank * 1000003 + t * 7919 + i * 104729) * UINT64_C(0x9e3779b97f4a7c15);
    return 2000 + (h >> 40) % 4000;
}

#define BASE 1000 /* the first iteration starts here */

static void write_location(OTF2_EvtWriter *w, uint64_t rank, uint64_t t, uint64_t iterations)
{
    for (uint64_t i = 0; i < iterations; i++) {
        uint64_t s = BASE + i * PERIOD;
        if (t == 0) {
            OTF2_EvtWriter_Enter(w, NULL, s, R_ITERATION);
            OTF2_EvtWriter_ThreadFork(w, NULL, s + 100, OTF2_PARADIGM_OPENMP, (uint32_t)threads);
        }
        OTF2_EvtWriter_Enter(w, NULL, s + 200, R_PARALLEL);
        OTF2_EvtWriter_Enter(w, NULL, s + 300, R_FOR);
        OTF2_EvtWriter_Leave(w, NULL, s + loop_end(rank, t, i), R_FOR);
        OTF2_EvtWriter_Enter(w, NULL, s + loop_end(rank, t, i), R_BARRIER);
        OTF2_EvtWriter_Leave(w, NULL, s + 6100, R_BARRIER);
        OTF2_EvtWriter_Leave(w, NULL, s + 6200, R_PARALLEL);
        if (t != 0)
            continue;
        OTF2_EvtWriter_ThreadJoin(w, NULL, s + 6300, OTF2_PARADIGM_OPENMP);
        OTF2_EvtWriter_Enter(w, NULL, s + 6400, R_SEND);
        OTF2_EvtWriter_MpiSend(w, NULL, s + 6450, (uint32_t)((rank + 1) % ranks), 0, 0, 4096);
        OTF2_EvtWriter_Leave(w, NULL, s + 6600, R_SEND);
        OTF2_EvtWriter_Enter(w, NULL, s + 6700, R_RECV);
        OTF2_EvtWriter_MpiRecv(w, NULL, s + 7400, (uint32_t)((rank + ranks - 1) % ranks), 0, 0,
                               4096);
        OTF2_EvtWriter_Leave(w, NULL, s + 7500, R_RECV);
        OTF2_EvtWriter_Enter(w, NULL, s + 7600, R_ALLREDUCE);
        OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, s + 7650);
        OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, s + 9200, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                        OTF2_UNDEFINED_UINT32, 8, 8);
        OTF2_EvtWriter_Leave(w, NULL, s + 9300, R_ALLREDUCE);
        /* Records weft's recorder never writes: an unsigned parameter and
         * an MPI_Ibarrier's request and completion (OTF2 3). */
        OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, s + 9400, 0, i);
        OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, s + 9500, i);
        OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, s + 9800, OTF2_COLLECTIVE_OP_BARRIER,
                                                     0, OTF2_UNDEFINED_UINT32, 0, 0, i);
        OTF2_EvtWriter_Leave(w, NULL, s + 9900, R_ITERATION);
    }
}

static uint64_t location_id(uint64_t rank, uint64_t t)
{
    return t << 32 | rank;
}

static void write_definitions(OTF2_Archive *archive, const uint64_t *events, uint64_t iterations)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive);
    check(OTF2_GlobalDefWriter_WriteClockProperties(
              g, 1000000000, 0, no_length ? 0 : BASE + iterations * PERIOD + BASE, 0),
          "clock");
    for (uint32_t s = 0; s < S_COUNT; s++)
        check(OTF2_GlobalDefWriter_WriteString(g, s, strings[s]), "string");
    static const struct {
        uint32_t name, file, line;
        OTF2_RegionRole role;
        OTF2_Paradigm paradigm;
    } regions[R_COUNT] = {
        {S_ITERATION, S_FILE, 30, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER},
        {S_PARALLEL, S_FILE, 40, OTF2_REGION_ROLE_PARALLEL, OTF2_PARADIGM_OPENMP},
        {S_FOR, S_FILE, 42, OTF2_REGION_ROLE_LOOP, OTF2_PARADIGM_OPENMP},
        {S_BARRIER, S_FILE, 47, OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_PARADIGM_OPENMP},
        {S_SEND, S_MPI, 0, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI},
        {S_RECV, S_MPI, 0, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI},
        {S_ALLREDUCE, S_MPI, 0, OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI},
    };
    for (uint32_t r = 0; r < R_COUNT; r++)
        check(OTF2_GlobalDefWriter_WriteRegion(g, r, regions[r].name, regions[r].name, S_EMPTY,
                                               regions[r].role, regions[r].paradigm,
                                               OTF2_REGION_FLAG_NONE, regions[r].file,
                                               regions[r].line, regions[r].line),
              "region");
    check(OTF2_GlobalDefWriter_WriteParameter(g, 0, S_PARAMETER, OTF2_PARAMETER_TYPE_UINT64),
          "parameter");
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_NODE, S_MACHINE,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "node");
    for (uint64_t r = 0; r < ranks; r++) {
        char name[64];
        snprintf(name, sizeof(name), "MPI Rank %" PRIu64, r);
        check(OTF2_GlobalDefWriter_WriteString(g, (uint32_t)(S_COUNT + r), name), "string");
        check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, (uint32_t)(S_COUNT + r),
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "location group");
        for (uint64_t t = 0; t < threads; t++)
            check(OTF2_GlobalDefWriter_WriteLocation(
                      g, location_id(r, t), t == 0 ? S_MASTER : S_THREAD,
                      OTF2_LOCATION_TYPE_CPU_THREAD, events[r * threads + t], r),
                  "location");
    }
    uint64_t *members = malloc(ranks * sizeof(*members));
    for (uint64_t r = 0; r < ranks; r++)
        members[r] = location_id(r, 0);
    check(OTF2_GlobalDefWriter_WriteGroup(g, 0, S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)ranks,
                                          members),
          "group");
    for (uint64_t r = 0; r < ranks; r++)
        members[r] = r;
    check(OTF2_GlobalDefWriter_WriteGroup(g, 1, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)ranks,
                                          members),
          "group");
    free(members);
    check(
        OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
        "comm");
}

/* Places in the middle iteration: rank 0's master in MPI_Allreduce (depth 1)
 * and in MPI_Recv, the last rank's last thread in its `!$omp for` (depth 1). */
static void write_expect(const char *path, uint64_t iterations)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "write_view_trace: cannot write %s\n", path);
        exit(1);
    }
    uint64_t i = iterations / 2, s = BASE + i * PERIOD;
    uint64_t last = (ranks - 1) * threads + threads - 1;
    uint64_t for_end = s + loop_end(ranks - 1, threads - 1, i);
    fprintf(f,
            "{\"checks\": [\n"
            " {\"loc\": 0, \"time\": %" PRIu64 ", \"region\": \"MPI_Allreduce\", \"depth\": 1,"
            " \"zoom\": [%" PRIu64 ", %" PRIu64 "]},\n"
            " {\"loc\": 0, \"time\": %" PRIu64 ", \"region\": \"MPI_Recv\", \"depth\": 1,"
            " \"zoom\": [%" PRIu64 ", %" PRIu64 "]},\n"
            " {\"loc\": %" PRIu64 ", \"time\": %" PRIu64 ", \"region\": \"%s\", \"depth\": 1,"
            " \"zoom\": [%" PRIu64 ", %" PRIu64 "]}\n"
            "]}\n",
            s + 8450, s + 7000, s + 9900, s + 7100, s + 6500, s + 7700, last,
            (s + 300 + for_end) / 2, strings[S_FOR], s, s + PERIOD);
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--no-length") == 0) {
        no_length = true;
        argc--, argv++;
    }
    if (argc != 3 && argc != 4 && argc != 5 && argc != 6) {
        fprintf(stderr, "usage: write_view_trace [--no-length] DIR EVENTS [RANKS THREADS] "
                        "[EXPECT.json]\n");
        return 2;
    }
    uint64_t wanted = strtoull(argv[2], NULL, 10);
    if (argc >= 5) {
        ranks = strtoull(argv[3], NULL, 10);
        threads = strtoull(argv[4], NULL, 10);
    }
    if (ranks < 1 || threads < 1 || ranks * threads > MAX_LOCATIONS) {
        fprintf(stderr, "write_view_trace: 1 to %d locations\n", MAX_LOCATIONS);
        return 2;
    }
    uint64_t per_iteration = ranks * (23 + 6 * (threads - 1));
    uint64_t iterations = wanted / per_iteration ? wanted / per_iteration : 1;
    OTF2_Archive *archive =
        OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        fprintf(stderr, "write_view_trace: cannot create %s\n", argv[1]);
        return 1;
    }
    check(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "collectives");
    check(OTF2_Archive_OpenEvtFiles(archive), "open event files");
    uint64_t *events = calloc(ranks * threads, sizeof(*events));
    for (uint64_t r = 0; r < ranks; r++) {
        for (uint64_t t = 0; t < threads; t++) {
            OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, location_id(r, t));
            write_location(w, r, t, iterations);
            check(OTF2_EvtWriter_GetNumberOfEvents(w, &events[r * threads + t]), "count");
            check(OTF2_Archive_CloseEvtWriter(archive, w), "close event writer");
        }
    }
    check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
    check(OTF2_Archive_OpenDefFiles(archive), "open definition files");
    for (uint64_t r = 0; r < ranks; r++) {
        for (uint64_t t = 0; t < threads; t++) {
            OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(archive, location_id(r, t));
            check(OTF2_Archive_CloseDefWriter(archive, d), "close definition writer");
        }
    }
    check(OTF2_Archive_CloseDefFiles(archive), "close definition files");
    write_definitions(archive, events, iterations);
    check(OTF2_Archive_Close(archive), "close archive");
    uint64_t total = 0;
    for (uint64_t k = 0; k < ranks * threads; k++)
        total += events[k];
    free(events);
    if (argc == 4 || argc == 6)
        write_expect(argv[argc - 1], iterations);
    printf("%" PRIu64 " events, %" PRIu64 " iterations, %" PRIu64 " locations\n", total, iterations,
           ranks * threads);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
