/* A test-only OTF version 1 writer, with the OTF library's own writer, the
 * way VampirTrace and elg2otf wrote POMP-era traces
 * (../shared/LEGACY-FORMATS.md section 2): the same scenarios as
 * write_epilog.c, so check_converted_epilog checks both conversions.
 *
 *   write_otf1 SCENARIO NAMESTUB [--compressed] [--metrics] [--elg2otf]
 *
 * SCENARIO: omp, mpi or hybrid (see write_epilog.c). Every thread is an OTF
 * process whose parent is its MPI process; a master's fork/join is its
 * "parallel region" (function group PREG); OTF1 has no lock events.
 * --elg2otf writes receives with length 0, as elg2otf does; --metrics a
 * counter sample right before every enter and leave; --compressed zlib
 * streams. */
#include <otf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static OTF_Writer *w;
static uint64_t now = 1000;
static uint64_t cycles = 1000;
static bool metrics, elg2otf;
static unsigned processes, threads;

enum { G_USR = 1, G_OMP, G_MPI, G_PREG };
enum {
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
    F_PREG
};
enum { COMM_WORLD = 1 };
enum { OP_ALLREDUCE = 1, OP_BARRIER, OP_BCAST };

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
    {F_PREG, "parallel region", G_PREG, 0},
};

/* OTF process ids: VampirTrace's (thread << 20) + rank + 1. */
static uint32_t proc(unsigned rank, unsigned thread)
{
    return (thread << 20) + rank + 1;
}

static void sample(uint32_t p)
{
    if (metrics)
        OTF_Writer_writeCounter(w, now, p, 1, cycles += 777);
}

static void enter(uint32_t p, unsigned f)
{
    if (f != F_PREG) /* the fork and join of OTF1 carry no sample */
        sample(p);
    OTF_Writer_writeEnter(w, now, f, p, 0);
    now += 1000;
}

static void leave(uint32_t p, unsigned f)
{
    if (f != F_PREG)
        sample(p);
    OTF_Writer_writeLeave(w, now, f, p, 0);
    now += 1000;
}

static void definitions(void)
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
        uint32_t world[2] = {proc(0, 0), proc(1, 0)};
        OTF_Writer_writeDefProcessGroup(w, 0, COMM_WORLD, "MPI_COMM_WORLD", 2, world);
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
    for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++) {
        unsigned source = 0;
        if (functions[i].line) {
            source = functions[i].id;
            OTF_Writer_writeDefScl(w, 0, source, 1, functions[i].line);
        }
        OTF_Writer_writeDefFunction(w, 0, functions[i].id, functions[i].name, functions[i].group,
                                    source);
    }
    if (metrics)
        OTF_Writer_writeDefCounter(w, 0, 1, "PAPI_TOT_CYC",
                                   OTF_COUNTER_TYPE_ACC | OTF_COUNTER_SCOPE_START, 0, "#");
}

static void openmp(unsigned r)
{
    for (int k = 0; k < 2; k++) {
        enter(proc(r, 0), F_PREG);
        for (unsigned t = 0; t < threads; t++)
            enter(proc(r, t), F_PARALLEL);
        for (unsigned t = 0; t < threads; t++) {
            enter(proc(r, t), F_FOR);
            enter(proc(r, t), F_FOR_BARRIER);
        }
        for (unsigned t = 0; t < threads; t++) {
            leave(proc(r, t), F_FOR_BARRIER);
            leave(proc(r, t), F_FOR);
        }
        for (unsigned t = 0; t < threads; t++) {
            enter(proc(r, t), F_CRITICAL);
            enter(proc(r, t), F_SBLOCK);
            leave(proc(r, t), F_SBLOCK);
            leave(proc(r, t), F_CRITICAL);
        }
        if (threads > 1) {
            enter(proc(r, 1), F_SET_LOCK);
            leave(proc(r, 1), F_SET_LOCK);
            enter(proc(r, 1), F_UNSET_LOCK);
            leave(proc(r, 1), F_UNSET_LOCK);
        }
        for (unsigned t = 0; t < threads; t++)
            enter(proc(r, t), F_PAR_BARRIER);
        for (unsigned t = 0; t < threads; t++) {
            leave(proc(r, t), F_PAR_BARRIER);
            leave(proc(r, t), F_PARALLEL);
        }
        leave(proc(r, 0), F_PREG);
    }
}

static void message(unsigned from, unsigned to, uint32_t tag, uint32_t bytes)
{
    enter(proc(from, 0), F_SEND);
    OTF_Writer_writeSendMsg(w, now, proc(from, 0), proc(to, 0), COMM_WORLD, tag, bytes, 0);
    now += 1000;
    leave(proc(from, 0), F_SEND);
    enter(proc(to, 0), F_RECV);
    OTF_Writer_writeRecvMsg(w, now, proc(to, 0), proc(from, 0), COMM_WORLD, tag,
                            elg2otf ? 0 : bytes, 0);
    now += 1000;
    leave(proc(to, 0), F_RECV);
}

static void collective(unsigned f, unsigned op, int root, uint32_t sent, uint32_t received)
{
    for (unsigned r = 0; r < 2; r++)
        enter(proc(r, 0), f);
    for (unsigned r = 0; r < 2; r++) {
        bool is_root = root == (int)r;
        OTF_Writer_writeCollectiveOperation(
            w, now, proc(r, 0), op, COMM_WORLD, root < 0 ? 0 : proc((unsigned)root, 0),
            root < 0 || is_root ? sent : 0, root < 0 || !is_root ? received : 0, 500, 0);
        now += 1000;
    }
    for (unsigned r = 0; r < 2; r++)
        leave(proc(r, 0), f);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: write_otf1 omp|mpi|hybrid NAMESTUB [--compressed] [--metrics] "
                        "[--elg2otf]\n");
        return 2;
    }
    bool compressed = false;
    for (int i = 3; i < argc; i++) {
        compressed |= strcmp(argv[i], "--compressed") == 0;
        metrics |= strcmp(argv[i], "--metrics") == 0;
        elg2otf |= strcmp(argv[i], "--elg2otf") == 0;
    }
    bool omp = strcmp(argv[1], "mpi") != 0, mpi = strcmp(argv[1], "omp") != 0;
    processes = mpi ? 2 : 1;
    threads = omp ? 2 : 1;
    OTF_FileManager *files = OTF_FileManager_open(100);
    w = files ? OTF_Writer_open(argv[2], processes, files) : NULL;
    if (!w)
        return 3;
    if (compressed)
        OTF_Writer_setCompression(w, OTF_FILECOMPRESSION_COMPRESSED);
    definitions();
    for (unsigned r = 0; r < processes; r++)
        for (unsigned t = 0; t < threads; t++)
            enter(proc(r, t), F_MAIN);
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
            leave(proc(r, t), F_MAIN);
    OTF_Writer_close(w);
    OTF_FileManager_close(files);
    return 0;
}
