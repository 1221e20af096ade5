/* A test-only OTF version 1 writer, with the OTF library's own writer, the
 * way VampirTrace and elg2otf wrote POMP-era traces
 * (docs/dev/LEGACY-FORMATS.md section 2): the same scenarios as
 * write_epilog.c, so check_converted checks both conversions.
 *
 *   write_otf1 SCENARIO NAMESTUB [--compressed] [--metrics] [--zero-receives]
 *              [--elg2otf [--odd=KIND]]
 *
 * SCENARIO: omp, mpi or hybrid (see write_epilog.c). OTF1 has no lock
 * events; a master's fork/join is its "parallel region" (function group
 * PREG). --metrics: a counter sample at every enter and leave; --compressed:
 * zlib streams.
 *
 * Without --elg2otf, VampirTrace's layout: every thread is an OTF process
 * (thread << 20) + rank + 1 whose parent is its MPI process, and one group
 * MPI_COMM_WORLD. --zero-receives writes receives with length 0 as elg2otf
 * does, in that layout.
 *
 * --elg2otf: what Scalasca 1.x's elg2otf makes of write_epilog's trace of
 * the same SCENARIO. Processes 1, 2, ... in EPILOG location order, none
 * with a parent, named "process r" (masters) and "thread r:t"; creator and
 * timer resolution (10^10) as elg2otf writes them; the system tree as
 * groups from 10000002 (per threaded process "process r" of its threads,
 * nodes, the machine, "all_flat"); the communicators as groups 20000000 +
 * cid of the masters; per threaded process its team "tgroup r", 30000000 +
 * r; function ids = region ids + 1, then "tracing", "off", "idle" and
 * "parallel region"; barriers in group OMP-SYNC; a COP record for each MPI
 * collective and OpenMP barrier, stamped from its enter plus 1 to its leave
 * minus 1; receives of length 0; each worker thread in "idle" from time 0
 * to the end; counter samples right after their enter or leave.
 * KIND changes that layout: no-groups (no "process r" or "tgroup r"
 * groups), bad-name (no-groups, thread 1 of rank 0 named "thread 0-1"),
 * no-master (no-groups, the master of rank 0 named "rank 0"),
 * unknown-member (rank 0's groups also name process 99), crossed-groups
 * (the groups list EPILOG location ids of a trace that numbered the masters
 * first, which elg2otf would write unmapped). */
#include <otf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static OTF_Writer *w;
static uint64_t now = 1000, last;
static uint64_t cycles = 1000;
static bool metrics, elg2otf, zero_receives, threaded, thread_groups = true;
static const char *odd = "";
static unsigned processes, threads;
static uint64_t entered[2][2]; /* the last enter time per rank and thread */

enum { G_USR = 1, G_OMP, G_MPI, G_ELG, G_IDLE, G_PREG, G_OMP_SYNC };
enum { /* elg2otf: EPILOG region ids + 1, then its own functions */
       F_MAIN = 1,
       F_PARALLEL,
       F_FOR,
       F_FOR_BARRIER,
       F_CRITICAL,
       F_SBLOCK,
       F_SET_LOCK,
       F_UNSET_LOCK,
       F_PAR_BARRIER,
       F_SEND,
       F_RECV,
       F_ALLREDUCE,
       F_BARRIER,
       F_BCAST,
       F_TRACING,
       F_OFF,
       F_IDLE,
       F_PREG
};
enum { COMM_WORLD = 1 };
enum { OP_ALLREDUCE = 1, OP_BARRIER, OP_BCAST };
#define ELG_GROUPS 10000002u /* elg2otf's first system-tree group */
#define ELG_COMMS 20000000u
#define ELG_TEAMS 30000000u

static const struct {
    unsigned id;
    const char *name;
    unsigned group, line;
} functions[] = {
    {F_MAIN, "main", G_USR, 1},
    {F_PARALLEL, "!$omp parallel @omp.c:10", G_OMP, 10},
    {F_FOR, "!$omp for @omp.c:12", G_OMP, 12},
    {F_FOR_BARRIER, "!$omp ibarrier @omp.c:14", G_OMP, 14},
    {F_CRITICAL, "!$omp critical @omp.c:16", G_OMP, 16},
    {F_SBLOCK, "!$omp critical sblock @omp.c:16", G_OMP, 16},
    {F_SET_LOCK, "omp_set_lock", G_OMP, 0},
    {F_UNSET_LOCK, "omp_unset_lock", G_OMP, 0},
    {F_PAR_BARRIER, "!$omp ibarrier @omp.c:20", G_OMP, 20},
    {F_SEND, "MPI_Send", G_MPI, 0},
    {F_RECV, "MPI_Recv", G_MPI, 0},
    {F_ALLREDUCE, "MPI_Allreduce", G_MPI, 0},
    {F_BARRIER, "MPI_Barrier", G_MPI, 0},
    {F_BCAST, "MPI_Bcast", G_MPI, 0},
    {F_TRACING, "tracing", G_ELG, 0},
    {F_OFF, "off", G_ELG, 0},
    {F_IDLE, "idle", G_IDLE, 0},
    {F_PREG, "parallel region", G_PREG, 0},
};

/* OTF process ids: VampirTrace's (thread << 20) + rank + 1, elg2otf's
 * EPILOG location id + 1. */
static uint32_t proc(unsigned rank, unsigned thread)
{
    return elg2otf ? rank * threads + thread + 1 : (thread << 20) + rank + 1;
}

static uint32_t world(void)
{
    return elg2otf ? ELG_COMMS : COMM_WORLD;
}

static void sample(unsigned r, unsigned t)
{
    if (metrics)
        OTF_Writer_writeCounter(w, now, proc(r, t), 1, cycles += 777);
}

/* The fork and join of OTF1 carry no sample. */
static void enter(unsigned r, unsigned t, unsigned f)
{
    if (f != F_PREG && !elg2otf)
        sample(r, t);
    OTF_Writer_writeEnter(w, now, f, proc(r, t), 0);
    if (f != F_PREG && elg2otf)
        sample(r, t);
    entered[r][t] = last = now;
    now += 1000;
}

/* elg2otf's COP record of a collective whose region (t's innermost) ends now. */
static void cop(unsigned r, unsigned t, unsigned f, uint32_t group, uint32_t root, uint32_t sent,
                uint32_t received)
{
    uint64_t begin = entered[r][t] + 1, end = now - 1;
    OTF_Writer_writeCollectiveOperation(w, begin, proc(r, t), f, group, root, sent, received,
                                        end - begin, 0);
}

static void leave(unsigned r, unsigned t, unsigned f)
{
    if (elg2otf && (f == F_FOR_BARRIER || f == F_PAR_BARRIER))
        cop(r, t, f, ELG_TEAMS + r, 0, 0, 0);
    if (f != F_PREG && !elg2otf)
        sample(r, t);
    OTF_Writer_writeLeave(w, now, f, proc(r, t), 0);
    if (f != F_PREG && elg2otf)
        sample(r, t);
    last = now;
    now += 1000;
}

static void functions_and_counters(void)
{
    unsigned scl = 0;
    for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++) {
        unsigned id = functions[i].id, group = functions[i].group, source = 0;
        if (!elg2otf && id >= F_TRACING && id != F_PREG)
            continue;
        if (elg2otf && strncmp(functions[i].name, "!$omp ibarrier", 14) == 0)
            group = G_OMP_SYNC; /* elg2otf moves barriers there */
        if (functions[i].line) {
            source = elg2otf ? ++scl : id;
            OTF_Writer_writeDefScl(w, 0, source, 1, functions[i].line);
        }
        OTF_Writer_writeDefFunction(w, 0, id, functions[i].name, group, source);
    }
    if (metrics && elg2otf)
        OTF_Writer_writeDefCounterGroup(w, 0, 1, "HW Counters");
    if (metrics)
        OTF_Writer_writeDefCounter(w, 0, 1, "PAPI_TOT_CYC",
                                   OTF_COUNTER_TYPE_ACC | OTF_COUNTER_SCOPE_START, elg2otf ? 1 : 0,
                                   "#");
}

static void vampirtrace_definitions(void)
{
    OTF_Writer_writeDefTimerResolution(w, 0, 1000000000);
    OTF_Writer_writeDefCreator(w, 0, "weft test writer");
    for (unsigned r = 0; r < processes; r++) {
        char name[64];
        snprintf(name, sizeof(name), "process %u", r);
        OTF_Writer_writeDefProcess(w, 0, proc(r, 0), name, 0);
        for (unsigned t = 1; t < threads; t++) {
            snprintf(name, sizeof(name), "thread %u:%u", r, t);
            OTF_Writer_writeDefProcess(w, 0, proc(r, t), name, proc(r, 0));
        }
    }
    if (processes > 1) {
        uint32_t masters[2] = {proc(0, 0), proc(1, 0)};
        OTF_Writer_writeDefProcessGroup(w, 0, COMM_WORLD, "MPI_COMM_WORLD", 2, masters);
        OTF_Writer_writeDefCollectiveOperation(w, 0, OP_ALLREDUCE, "MPI_Allreduce",
                                               OTF_COLLECTIVE_TYPE_ALL2ALL);
        OTF_Writer_writeDefCollectiveOperation(w, 0, OP_BARRIER, "MPI_Barrier",
                                               OTF_COLLECTIVE_TYPE_BARRIER);
        OTF_Writer_writeDefCollectiveOperation(w, 0, OP_BCAST, "MPI_Bcast",
                                               OTF_COLLECTIVE_TYPE_ONE2ALL);
    }
    OTF_Writer_writeDefFunctionGroup(w, 0, G_USR, "USR");
    OTF_Writer_writeDefFunctionGroup(w, 0, G_OMP, "OMP");
    OTF_Writer_writeDefFunctionGroup(w, 0, G_MPI, "MPI");
    OTF_Writer_writeDefFunctionGroup(w, 0, G_PREG, "PREG");
    OTF_Writer_writeDefSclFile(w, 0, 1, "omp.c");
    functions_and_counters();
}

/* A process's threads as an elg2otf group: "process r" or "tgroup r". */
static void thread_group(uint32_t id, const char *prefix, unsigned r)
{
    char name[32];
    uint32_t members[3];
    unsigned count = 0;
    for (unsigned t = 0; t < threads; t++) /* crossed: masters numbered first */
        members[count++] = strcmp(odd, "crossed-groups") == 0 ? t * processes + r + 1 : proc(r, t);
    if (r == 0 && strcmp(odd, "unknown-member") == 0)
        members[count++] = 99;
    snprintf(name, sizeof(name), "%s %u", prefix, r);
    OTF_Writer_writeDefProcessGroup(w, 0, id, name, count, members);
}

static void elg2otf_definitions(void)
{
    OTF_Writer_writeDefCreator(w, 0, "epilog -> otf converter 1.0");
    OTF_Writer_writeDefTimerResolution(w, 0, 10000000000u);
    for (unsigned r = 0; r < processes; r++) {
        for (unsigned t = 0; t < threads; t++) {
            char name[64];
            snprintf(name, sizeof(name), t ? "thread %u:%u" : "process %u", r, t);
            if (r == 0 && t == 1 && strcmp(odd, "bad-name") == 0)
                snprintf(name, sizeof(name), "thread 0-1");
            if (r == 0 && t == 0 && strcmp(odd, "no-master") == 0)
                snprintf(name, sizeof(name), "rank 0");
            OTF_Writer_writeDefProcess(w, 0, proc(r, t), name, 0);
        }
    }
    /* The system tree, children first: rank r runs on node r % 2. */
    uint32_t group = ELG_GROUPS, nodes[2], all[4];
    for (unsigned n = 0; n < 2; n++) {
        uint32_t members[2];
        unsigned count = 0;
        for (unsigned r = n; r < processes; r += 2) {
            members[count] = proc(r, 0);
            if (threaded && thread_groups) {
                thread_group(group, "process", r);
                members[count] = group++;
            }
            count++;
        }
        nodes[n] = group;
        OTF_Writer_writeDefProcessGroup(w, 0, group++, n ? "node-b" : "node-a", count, members);
    }
    OTF_Writer_writeDefProcessGroup(w, 0, group++, "cluster", 2, nodes);
    for (unsigned i = 0; i < processes * threads; i++)
        all[i] = i + 1;
    OTF_Writer_writeDefProcessGroup(w, 0, group++, "all_flat", processes * threads, all);
    if (processes > 1) { /* write_epilog's MPI_COMM 0 (world, a group), 1 and 2 (self) */
        uint32_t masters[2] = {proc(0, 0), proc(1, 0)};
        OTF_Writer_writeDefProcessGroup(w, 0, ELG_COMMS, "group 0", 2, masters);
        OTF_Writer_writeDefProcessGroup(w, 0, ELG_COMMS + 1, "comm 1", 1, &masters[0]);
        OTF_Writer_writeDefProcessGroup(w, 0, ELG_COMMS + 2, "comm 2", 1, &masters[1]);
    }
    for (unsigned r = 0; threaded && thread_groups && r < processes; r++)
        thread_group(ELG_TEAMS + r, "tgroup", r);
    OTF_Writer_writeDefSclFile(w, 0, 1, "omp.c");
    OTF_Writer_writeDefSclFile(w, 0, 2, "MPI");
    OTF_Writer_writeDefSclFile(w, 0, 3, "OMP");
    static const char *const groups[] = {"USR", "OMP", "MPI", "ELG", "IDLE", "PREG", "OMP-SYNC"};
    for (unsigned g = 0; g < 7; g++)
        OTF_Writer_writeDefFunctionGroup(w, 0, G_USR + g, groups[g]);
    functions_and_counters();
    /* elg2otf's collective operations: the collective regions' ids and names */
    static const struct {
        unsigned f, type;
    } glops[] = {{F_FOR_BARRIER, OTF_COLLECTIVE_TYPE_BARRIER},
                 {F_PAR_BARRIER, OTF_COLLECTIVE_TYPE_BARRIER},
                 {F_ALLREDUCE, OTF_COLLECTIVE_TYPE_ALL2ALL},
                 {F_BARRIER, OTF_COLLECTIVE_TYPE_BARRIER},
                 {F_BCAST, OTF_COLLECTIVE_TYPE_ONE2ALL}};
    for (size_t i = 0; i < sizeof(glops) / sizeof(glops[0]); i++)
        OTF_Writer_writeDefCollectiveOperation(w, 0, glops[i].f, functions[glops[i].f - 1].name,
                                               glops[i].type);
}

static void openmp(unsigned r)
{
    for (int k = 0; k < 2; k++) {
        enter(r, 0, F_PREG);
        for (unsigned t = 0; t < threads; t++)
            enter(r, t, F_PARALLEL);
        for (unsigned t = 0; t < threads; t++) {
            enter(r, t, F_FOR);
            enter(r, t, F_FOR_BARRIER);
        }
        for (unsigned t = 0; t < threads; t++) {
            leave(r, t, F_FOR_BARRIER);
            leave(r, t, F_FOR);
        }
        for (unsigned t = 0; t < threads; t++) {
            enter(r, t, F_CRITICAL);
            enter(r, t, F_SBLOCK);
            leave(r, t, F_SBLOCK);
            leave(r, t, F_CRITICAL);
        }
        if (threads > 1) {
            enter(r, 1, F_SET_LOCK);
            leave(r, 1, F_SET_LOCK);
            enter(r, 1, F_UNSET_LOCK);
            leave(r, 1, F_UNSET_LOCK);
        }
        for (unsigned t = 0; t < threads; t++)
            enter(r, t, F_PAR_BARRIER);
        for (unsigned t = 0; t < threads; t++) {
            leave(r, t, F_PAR_BARRIER);
            leave(r, t, F_PARALLEL);
        }
        leave(r, 0, F_PREG);
    }
}

static void message(unsigned from, unsigned to, uint32_t tag, uint32_t bytes)
{
    enter(from, 0, F_SEND);
    OTF_Writer_writeSendMsg(w, now, proc(from, 0), proc(to, 0), world(), tag, bytes, 0);
    now += 1000;
    leave(from, 0, F_SEND);
    enter(to, 0, F_RECV);
    OTF_Writer_writeRecvMsg(w, now, proc(to, 0), proc(from, 0), world(), tag,
                            elg2otf || zero_receives ? 0 : bytes, 0);
    now += 1000;
    leave(to, 0, F_RECV);
}

/* VampirTrace: one COP per rank at the collective's time; elg2otf: one
 * right before each rank's leave, spanning its enter to its leave. */
static void collective(unsigned f, unsigned op, int root, uint32_t sent, uint32_t received)
{
    for (unsigned r = 0; r < 2; r++)
        enter(r, 0, f);
    for (unsigned r = 0; r < 2; r++) {
        bool is_root = root == (int)r;
        uint32_t root_id = root < 0 ? 0 : proc((unsigned)root, 0);
        uint32_t s = root < 0 || is_root ? sent : 0, v = root < 0 || !is_root ? received : 0;
        if (elg2otf) {
            cop(r, 0, f, ELG_COMMS, root_id, s, v);
            leave(r, 0, f);
            continue;
        }
        OTF_Writer_writeCollectiveOperation(w, now, proc(r, 0), op, COMM_WORLD, root_id, s, v, 500,
                                            0);
        now += 1000;
    }
    for (unsigned r = 0; !elg2otf && r < 2; r++)
        leave(r, 0, f);
}

/* elg2otf keeps every worker thread in "idle" from time 0 to the end. */
static void idle(bool begin)
{
    for (unsigned r = 0; threaded && r < processes; r++) {
        for (unsigned t = 1; t < threads; t++) {
            if (begin)
                OTF_Writer_writeEnter(w, 0, F_IDLE, proc(r, t), 0);
            else
                OTF_Writer_writeLeave(w, last, F_IDLE, proc(r, t), 0);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: write_otf1 omp|mpi|hybrid NAMESTUB [--compressed] [--metrics] "
                        "[--zero-receives] [--elg2otf [--odd=KIND]]\n");
        return 2;
    }
    bool compressed = false;
    for (int i = 3; i < argc; i++) {
        compressed |= strcmp(argv[i], "--compressed") == 0;
        metrics |= strcmp(argv[i], "--metrics") == 0;
        elg2otf |= strcmp(argv[i], "--elg2otf") == 0;
        zero_receives |= strcmp(argv[i], "--zero-receives") == 0;
        if (strncmp(argv[i], "--odd=", 6) == 0)
            odd = argv[i] + 6;
    }
    bool omp = strcmp(argv[1], "mpi") != 0, mpi = strcmp(argv[1], "omp") != 0;
    processes = mpi ? 2 : 1;
    threads = omp ? 2 : 1;
    threaded = elg2otf && threads > 1;
    thread_groups = strcmp(odd, "no-groups") != 0 && strcmp(odd, "bad-name") != 0 &&
                    strcmp(odd, "no-master") != 0;
    OTF_FileManager *files = OTF_FileManager_open(100);
    /* elg2otf leaves the number of streams to the OTF library */
    w = files ? OTF_Writer_open(argv[2], elg2otf ? 0 : processes, files) : NULL;
    if (!w)
        return 3;
    if (compressed)
        OTF_Writer_setCompression(w, OTF_FILECOMPRESSION_COMPRESSED);
    if (elg2otf)
        elg2otf_definitions();
    else
        vampirtrace_definitions();
    idle(true);
    for (unsigned r = 0; r < processes; r++)
        for (unsigned t = 0; t < threads; t++)
            enter(r, t, F_MAIN);
    for (unsigned r = 0; omp && r < processes; r++)
        openmp(r);
    if (mpi) {
        for (uint32_t i = 0; i < 3; i++)
            message(0, 1, 5, 64 * (i + 1));
        for (uint32_t i = 0; i < 3; i++)
            message(1, 0, 6, 32 * (i + 1));
        collective(F_ALLREDUCE, OP_ALLREDUCE, -1, 8, 8);
        collective(F_BARRIER, OP_BARRIER, -1, 0, 0);
        collective(F_BCAST, OP_BCAST, 0, 16, 16);
    }
    for (unsigned r = 0; r < processes; r++)
        for (unsigned t = 0; t < threads; t++)
            leave(r, t, F_MAIN);
    idle(false);
    OTF_Writer_close(w);
    OTF_FileManager_close(files);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
