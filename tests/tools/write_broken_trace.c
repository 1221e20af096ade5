/* Writes, with the OTF2 writer, a small trace that `weft check` must find
 * sound ("good"), or the same trace with one defect, for the tests of
 * `weft check` (one variant per kind of problem it reports).
 *
 *   write_broken_trace DIR VARIANT
 *
 * The trace: rank 0 with two threads (an OpenMP team, a lock both take in
 * turn), rank 1 with one; rank 0 sends rank 1 one message and both call one
 * MPI_Allreduce. Times are nanoseconds after BASE. Variants: see `variants`
 * below; each changes one thing. Three are damage rather than a defect:
 * bytes_deleted cuts thread 1's lock records out of its event file after
 * the trace is written (its definition still says 6 events, 4 remain, and
 * what remains is sound), events_lost gives thread 1 the recorder's
 * property weft::events_lost = 5, events_unpromised has its definition
 * promise 2 of thread 1's 6 events, and escape_names puts terminal escape
 * sequences into the names of region foo and of thread 1 (with the defects
 * of leave_mismatch and team_unbalanced, so that problem lines name both). */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#define BASE UINT64_C(1000000)

static const char *variant;
static const char *const variants[] = {"good",
                                       "leave_mismatch",
                                       "leave_without_enter",
                                       "open_at_end",
                                       "time_backwards",
                                       "recv_without_send",
                                       "send_without_recv",
                                       "bytes_differ",
                                       "recv_before_send",
                                       "offset_recv_before_send",
                                       "collective_op_differs",
                                       "collective_missing",
                                       "fork_without_join",
                                       "team_unbalanced",
                                       "lock_held_twice",
                                       "lock_released_by_other",
                                       "undefined_region",
                                       "undefined_comm",
                                       "undefined_string",
                                       "peer_outside_comm",
                                       "with_program",
                                       "fork_outside_region",
                                       "program_without_region",
                                       "bytes_deleted",
                                       "events_lost",
                                       "events_unpromised",
                                       "escape_names",
                                       "group_count_damaged",
                                       "task_moved",
                                       "barriers_differ",
                                       "team_runs_differ",
                                       "lock_order_gap"};

static bool is(const char *name)
{
    return strcmp(variant, name) == 0;
}

static void check(OTF2_ErrorCode rc, const char *what)
{
    if (rc != OTF2_SUCCESS) {
        fprintf(stderr, "write_broken_trace: %s: %s\n", what, OTF2_Error_GetName(rc));
        exit(1);
    }
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *data, OTF2_FileType type, OTF2_LocationRef location)
{
    (void)data, (void)type, (void)location;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

enum {
    STR_EMPTY,
    STR_MAIN,
    STR_FOO,
    STR_SEND,
    STR_RECV,
    STR_ALLREDUCE,
    STR_MACHINE,
    STR_NODE,
    STR_RANK0,
    STR_RANK1,
    STR_MASTER,
    STR_THREAD1,
    STR_WORLD,
    STR_TEAM,
    STR_PROGRAM_PATH,
    STR_PROGRAM_NAME,
    STR_PROGRAM_ARG,
    STR_PROGRAM_LINE,
    STR_EVENTS_LOST,
    STR_BARRIER,
    STR_COUNT
};
static const char *const strings[STR_COUNT] = {"",
                                               "main",
                                               "foo",
                                               "MPI_Send",
                                               "MPI_Recv",
                                               "MPI_Allreduce",
                                               "machine",
                                               "node",
                                               "MPI Rank 0",
                                               "MPI Rank 1",
                                               "Master thread",
                                               "OpenMP thread 1",
                                               "MPI_COMM_WORLD",
                                               "Thread team",
                                               "/opt/bin/a.out",
                                               "a.out",
                                               "-x",
                                               "/opt/bin/a.out -x",
                                               "weft::events_lost",
                                               "!$OMP Implicit Barrier @foo.c:7"};
enum { R_MAIN, R_FOO, R_SEND, R_RECV, R_ALLREDUCE, R_PROGRAM, R_BARRIER };
enum { COMM_WORLD, COMM_TEAM };
enum { LOCK = 0 };

#define L0 UINT64_C(0)               /* rank 0, master thread */
#define L1 ((UINT64_C(1) << 32) | 0) /* rank 0, thread 1 */
#define L2 UINT64_C(1)               /* rank 1, master thread */

static uint64_t events[3];

static void rank0_master(OTF2_EvtWriter *w)
{
    uint32_t comm = is("undefined_comm") ? 7 : COMM_WORLD;
    bool in_main = !is("fork_outside_region");
    if (in_main)
        OTF2_EvtWriter_Enter(w, NULL, BASE + 10, R_MAIN);
    OTF2_EvtWriter_ThreadFork(w, NULL, BASE + 20, OTF2_PARADIGM_OPENMP, 2);
    OTF2_EvtWriter_ThreadTeamBegin(w, NULL, BASE + 30, COMM_TEAM);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 40, R_FOO);
    OTF2_EvtWriter_ThreadAcquireLock(w, NULL, BASE + 50, OTF2_PARADIGM_OPENMP, LOCK, 1);
    OTF2_EvtWriter_ThreadReleaseLock(w, NULL, BASE + 60, OTF2_PARADIGM_OPENMP, LOCK, 1);
    bool mismatch = is("leave_mismatch") || is("escape_names");
    OTF2_EvtWriter_Leave(w, NULL, BASE + 70, mismatch ? R_MAIN : R_FOO);
    OTF2_EvtWriter_ThreadTeamEnd(w, NULL, BASE + 80, COMM_TEAM);
    if (!is("fork_without_join"))
        OTF2_EvtWriter_ThreadJoin(w, NULL, BASE + 90, OTF2_PARADIGM_OPENMP);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 100, R_SEND);
    if (!is("recv_without_send"))
        OTF2_EvtWriter_MpiSend(w, NULL, BASE + 101, is("peer_outside_comm") ? 5 : 1, comm, 5, 8);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 110, R_SEND);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 200, R_ALLREDUCE);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, BASE + 201);
    OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, BASE + 210, OTF2_COLLECTIVE_OP_ALLREDUCE, COMM_WORLD,
                                    OTF2_UNDEFINED_UINT32, 4, 8);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 211, R_ALLREDUCE);
    if (in_main)
        OTF2_EvtWriter_Leave(w, NULL, BASE + 300, R_MAIN);
}

static void rank0_thread1(OTF2_EvtWriter *w)
{
    OTF2_EvtWriter_ThreadTeamBegin(w, NULL, BASE + 30, COMM_TEAM);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 40, R_FOO);
    if (is("lock_held_twice")) { /* while the master holds it (50-60) */
        OTF2_EvtWriter_ThreadAcquireLock(w, NULL, BASE + 55, OTF2_PARADIGM_OPENMP, LOCK, 2);
        OTF2_EvtWriter_ThreadReleaseLock(w, NULL, BASE + 75, OTF2_PARADIGM_OPENMP, LOCK, 2);
    } else if (is("lock_released_by_other")) {
        OTF2_EvtWriter_ThreadReleaseLock(w, NULL, BASE + 55, OTF2_PARADIGM_OPENMP, LOCK, 1);
    } else {
        uint32_t order = is("lock_order_gap") ? 3 : 2; /* acquisition 2 is missing */
        OTF2_EvtWriter_ThreadAcquireLock(w, NULL, BASE + 65, OTF2_PARADIGM_OPENMP, LOCK, order);
        OTF2_EvtWriter_ThreadReleaseLock(w, NULL, BASE + 75, OTF2_PARADIGM_OPENMP, LOCK, order);
    }
    if (is("task_moved")) { /* enters main in task (0, 1), leaves it in the implicit task */
        OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, BASE + 76, COMM_TEAM, 0, 1);
        OTF2_EvtWriter_Enter(w, NULL, BASE + 76, R_MAIN);
        OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, BASE + 76, COMM_TEAM, 1, 0);
        OTF2_EvtWriter_Leave(w, NULL, BASE + 76, R_MAIN);
    }
    if (is("barriers_differ")) { /* a barrier the master does not have */
        OTF2_EvtWriter_Enter(w, NULL, BASE + 76, R_BARRIER);
        OTF2_EvtWriter_Leave(w, NULL, BASE + 76, R_BARRIER);
    }
    OTF2_EvtWriter_Leave(w, NULL, BASE + 76, R_FOO);
    if (!is("team_unbalanced") && !is("escape_names"))
        OTF2_EvtWriter_ThreadTeamEnd(w, NULL, BASE + 80, COMM_TEAM);
    if (is("team_runs_differ")) { /* a second run of the team the master does not have */
        OTF2_EvtWriter_ThreadTeamBegin(w, NULL, BASE + 81, COMM_TEAM);
        OTF2_EvtWriter_ThreadTeamEnd(w, NULL, BASE + 82, COMM_TEAM);
    }
}

static void rank1_master(OTF2_EvtWriter *w)
{
    /* The program region is a/out's (R_PROGRAM); "main" is no program region. */
    bool program = is("with_program") || is("program_without_region");
    const OTF2_StringRef args[] = {STR_PROGRAM_ARG};
    if (program)
        OTF2_EvtWriter_ProgramBegin(w, NULL, BASE + 1,
                                    is("with_program") ? STR_PROGRAM_PATH : STR_MAIN, 1, args);
    if (is("leave_without_enter"))
        OTF2_EvtWriter_Leave(w, NULL, BASE + 5, R_FOO);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 10, R_MAIN);
    if (is("undefined_region")) {
        OTF2_EvtWriter_Enter(w, NULL, BASE + 20, 99);
        OTF2_EvtWriter_Leave(w, NULL, BASE + 30, 99);
    }
    bool early = is("recv_before_send");
    OTF2_EvtWriter_Enter(w, NULL, BASE + (early ? 90 : 100), R_RECV);
    if (!is("send_without_recv"))
        OTF2_EvtWriter_MpiRecv(w, NULL, BASE + (early ? 95 : 150), 0, COMM_WORLD, 5,
                               is("bytes_differ") ? 16 : 8);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 151, R_RECV);
    if (!is("collective_missing")) {
        OTF2_EvtWriter_Enter(w, NULL, BASE + 200, R_ALLREDUCE);
        OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, BASE + 201);
        if (is("collective_op_differs"))
            OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, BASE + 210, OTF2_COLLECTIVE_OP_BCAST,
                                            COMM_WORLD, 0, 4, 4);
        else
            OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, BASE + 210, OTF2_COLLECTIVE_OP_ALLREDUCE,
                                            COMM_WORLD, OTF2_UNDEFINED_UINT32, 4, 8);
        OTF2_EvtWriter_Leave(w, NULL, BASE + 211, R_ALLREDUCE);
    }
    if (!is("open_at_end"))
        OTF2_EvtWriter_Leave(w, NULL, BASE + 300, R_MAIN);
    if (program)
        OTF2_EvtWriter_ProgramEnd(w, NULL, BASE + 301, 0);
}

/* Rank 1's clock offsets: none, or ones that move its receive before the
 * send (constant -100 ns), or that make its time run backwards between 100
 * and 110 ns (offset 0, then -1000 ns). */
static void rank1_offsets(OTF2_DefWriter *w)
{
    if (is("offset_recv_before_send")) {
        check(OTF2_DefWriter_WriteClockOffset(w, BASE, -100, 0), "offset");
        check(OTF2_DefWriter_WriteClockOffset(w, BASE + 400, -100, 0), "offset");
    } else if (is("time_backwards")) {
        check(OTF2_DefWriter_WriteClockOffset(w, BASE + 100, 0, 0), "offset");
        check(OTF2_DefWriter_WriteClockOffset(w, BASE + 110, -1000, 0), "offset");
        check(OTF2_DefWriter_WriteClockOffset(w, BASE + 400, -1000, 0), "offset");
    }
}

/* group_count_damaged: 4000 strings of 1000 characters, then location
 * groups, so many that the first 4 MiB chunk of traces.def ends with a
 * group and the next chunk holds the rest; damage_group_count then damages
 * that last group of the first chunk. */
#define FILLER_STRINGS 4000
#define FILLER_GROUPS 20000
static void write_filler(OTF2_GlobalDefWriter *g)
{
    static char text[1001];
    memset(text, 'x', sizeof(text) - 1);
    for (uint32_t s = 0; s < FILLER_STRINGS; s++)
        check(OTF2_GlobalDefWriter_WriteString(g, 1000 + s, text), "string");
    const uint64_t members[] = {L0, L2};
    for (uint32_t group = 0; group < FILLER_GROUPS; group++)
        check(OTF2_GlobalDefWriter_WriteGroup(g, 100 + group, STR_EMPTY, OTF2_GROUP_TYPE_LOCATIONS,
                                              OTF2_PARADIGM_UNKNOWN, OTF2_GROUP_FLAG_NONE, 2,
                                              members),
              "group");
}

static void write_definitions(OTF2_Archive *archive)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive);
    check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, BASE, 400, 0), "clock");
    /* The barrier is defined only where it is used: the other variants'
     * definitions stay byte for byte what the tests of other tools expect. */
    bool barrier = is("barriers_differ");
    for (uint32_t s = 0; s < STR_COUNT - (barrier ? 0 : 1); s++) {
        const char *text = strings[s];
        if (is("escape_names") && s == STR_FOO) /* clear the screen, ring, 8-bit CSI */
            text = "foo\x1b[2J\a\xc2\x9b"
                   "31m";
        if (is("escape_names") && s == STR_THREAD1) /* set the window title */
            text = "OpenMP \x1b]0;owned\x07thread 1";
        check(OTF2_GlobalDefWriter_WriteString(g, s, text), "string");
    }
    static const struct {
        uint32_t name;
        OTF2_RegionRole role;
        OTF2_Paradigm paradigm;
    } regions[] = {
        {STR_MAIN, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER},
        {STR_FOO, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER},
        {STR_SEND, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI},
        {STR_RECV, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI},
        {STR_ALLREDUCE, OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI},
        {STR_PROGRAM_NAME, OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_MEASUREMENT_SYSTEM},
        {STR_BARRIER, OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_PARADIGM_OPENMP}};
    for (uint32_t r = 0; r < sizeof(regions) / sizeof(regions[0]) - (barrier ? 0 : 1); r++) {
        uint32_t name = r == R_FOO && is("undefined_string") ? 99 : regions[r].name;
        uint32_t canonical = r == R_PROGRAM ? STR_PROGRAM_LINE : name;
        check(OTF2_GlobalDefWriter_WriteRegion(g, r, name, canonical, STR_EMPTY, regions[r].role,
                                               regions[r].paradigm, OTF2_REGION_FLAG_NONE,
                                               OTF2_UNDEFINED_STRING, 0, 0),
              "region");
    }
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, STR_MACHINE, STR_NODE,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "node");
    for (uint32_t rank = 0; rank < 2; rank++)
        check(OTF2_GlobalDefWriter_WriteLocationGroup(g, rank, rank ? STR_RANK1 : STR_RANK0,
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "location group");
    check(OTF2_GlobalDefWriter_WriteLocation(g, L0, STR_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD,
                                             events[0], 0),
          "location");
    check(OTF2_GlobalDefWriter_WriteLocation(g, L2, STR_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD,
                                             events[2], 1),
          "location");
    /* events_unpromised: the definition promises 2 events of 6 */
    check(OTF2_GlobalDefWriter_WriteLocation(g, L1, STR_THREAD1, OTF2_LOCATION_TYPE_CPU_THREAD,
                                             is("events_unpromised") ? 2 : events[1], 0),
          "location");
    if (is("events_lost")) {
        OTF2_AttributeValue lost = {.uint64 = 5};
        check(OTF2_GlobalDefWriter_WriteLocationProperty(g, L1, STR_EVENTS_LOST, OTF2_TYPE_UINT64,
                                                         lost),
              "location property");
    }
    const uint64_t mpi_locations[] = {L0, L2}, world[] = {0, 1}, team[] = {0, 1};
    check(OTF2_GlobalDefWriter_WriteGroup(g, 0, STR_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2,
                                          mpi_locations),
          "group");
    check(OTF2_GlobalDefWriter_WriteGroup(g, 1, STR_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, world),
          "group");
    const uint64_t omp_locations[] = {L0, L1};
    check(OTF2_GlobalDefWriter_WriteGroup(g, 2, STR_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, 2,
                                          omp_locations),
          "group");
    check(OTF2_GlobalDefWriter_WriteGroup(g, 3, STR_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, 2, team),
          "group");
    check(OTF2_GlobalDefWriter_WriteComm(g, COMM_WORLD, STR_WORLD, 1, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE),
          "comm");
    check(OTF2_GlobalDefWriter_WriteComm(g, COMM_TEAM, STR_TEAM, 3, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE),
          "comm");
    if (is("group_count_damaged"))
        write_filler(g);
}

/* bytes_deleted: cuts thread 1's lock acquisition and release out of its
 * event file, from the timestamp record of the acquisition (BASE + 65) to
 * that of the next event (BASE + 76), as a damaged disk or copy would. An
 * OTF2 timestamp record is the byte 5 and the time as 8 bytes in the
 * writer's (this machine's) byte order. */
static void delete_lock_records(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/traces/%llu.evt", dir, (unsigned long long)L1);
    FILE *f = fopen(path, "rb");
    static unsigned char data[1 << 16];
    size_t size = f ? fread(data, 1, sizeof(data), f) : 0;
    if (f)
        fclose(f);
    unsigned char from[9] = {5}, to[9] = {5};
    uint64_t t_from = BASE + 65, t_to = BASE + 76;
    memcpy(from + 1, &t_from, 8);
    memcpy(to + 1, &t_to, 8);
    size_t a = SIZE_MAX, b = SIZE_MAX;
    for (size_t i = 0; i + 9 <= size; i++) {
        if (a == SIZE_MAX && memcmp(data + i, from, 9) == 0)
            a = i;
        else if (a != SIZE_MAX && memcmp(data + i, to, 9) == 0) {
            b = i;
            break;
        }
    }
    if (b == SIZE_MAX || !(f = fopen(path, "wb"))) {
        fprintf(stderr, "write_broken_trace: cannot cut the records out of %s\n", path);
        exit(1);
    }
    fwrite(data, 1, a, f);
    fwrite(data + b, 1, size - b, f);
    fclose(f);
}

/* group_count_damaged: one byte of traces.def changed, the length byte of
 * the member count of the group that ends the first chunk: 1 becomes 4, so
 * that the count takes the next three bytes too and says millions. OTF2
 * 3.0.2 then reads that many members, through the rest of the chunk and
 * past the end of its 4 MiB buffer (SIGSEGV). A chunk is a chunk header of
 * 18 bytes, then records (type, length, body) up to a type 0. */
static void damage_group_count(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/traces.def", dir);
    FILE *f = fopen(path, "r+b");
    static unsigned char chunk[4 * 1024 * 1024];
    size_t size = f ? fread(chunk, 1, sizeof(chunk), f) : 0;
    size_t at = 18, last = 0;
    while (at + 10 < size && chunk[at] != 0) {
        last = at;
        uint64_t length = chunk[at + 1]; /* 0xff: 8 bytes of length follow (host order) */
        if (length == 0xff)
            memcpy(&length, chunk + at + 2, 8);
        at += (chunk[at + 1] == 0xff ? 10 : 2) + (size_t)length;
    }
    /* the group's body: self and name (compressed), a type byte, then the
     * count's length byte */
    size_t pos = last + 2;
    for (int field = 0; field < 2 && pos < size; field++)
        pos += 1 + (chunk[pos] == 0xff ? 0 : chunk[pos]);
    pos += 1;
    if (!f || size != sizeof(chunk) || at >= size || chunk[at] != 0 || chunk[last] != 18 ||
        pos >= size || chunk[pos] != 1 || fseek(f, (long)pos, SEEK_SET) != 0 ||
        fputc(4, f) == EOF) {
        fprintf(stderr, "write_broken_trace: no group ends the first chunk of %s\n", path);
        exit(1);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: write_broken_trace DIR VARIANT\n");
        return 2;
    }
    variant = argv[2];
    bool known = false;
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        known = known || is(variants[i]);
    if (!known) {
        fprintf(stderr, "write_broken_trace: unknown variant '%s'\n", variant);
        return 2;
    }
    OTF2_Archive *archive =
        OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        fprintf(stderr, "write_broken_trace: cannot create %s\n", argv[1]);
        return 1;
    }
    check(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "collectives");
    check(OTF2_Archive_OpenEvtFiles(archive), "open event files");
    void (*writers[3])(OTF2_EvtWriter *) = {rank0_master, rank0_thread1, rank1_master};
    const uint64_t ids[3] = {L0, L1, L2};
    for (int i = 0; i < 3; i++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, ids[i]);
        writers[i](w);
        check(OTF2_EvtWriter_GetNumberOfEvents(w, &events[i]), "count events");
        check(OTF2_Archive_CloseEvtWriter(archive, w), "close event writer");
    }
    check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
    check(OTF2_Archive_OpenDefFiles(archive), "open definition files");
    for (int i = 0; i < 3; i++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(archive, ids[i]);
        if (ids[i] == L2)
            rank1_offsets(d);
        check(OTF2_Archive_CloseDefWriter(archive, d), "close definition writer");
    }
    check(OTF2_Archive_CloseDefFiles(archive), "close definition files");
    write_definitions(archive);
    check(OTF2_Archive_Close(archive), "close archive");
    if (is("bytes_deleted"))
        delete_lock_records(argv[1]);
    if (is("group_count_damaged"))
        damage_group_count(argv[1]);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
