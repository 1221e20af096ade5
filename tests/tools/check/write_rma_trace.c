/* Writes, with the OTF2 writer, a two-rank trace of one-sided
 * communication and MPI-IO that `weft check` must find sound ("good"), or
 * the same trace with one defect, for the tests of weft check's RMA and
 * I/O rules (check_rma.c).
 *
 *   write_rma_trace DIR VARIANT
 *
 * Each rank: creates window 0 on MPI_COMM_WORLD, a fence, a Put to the
 * other rank, a fence (completing it), an exclusive lock on the other
 * rank, a Put, the unlock (completing it), frees the window; then opens a
 * file (its own I/O handle on one shared file), writes 16 bytes, closes
 * it. Times are nanoseconds after BASE. */
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
                                       "rma_outside_epoch",
                                       "rma_never_completed",
                                       "rma_target_outside",
                                       "rma_fences_differ",
                                       "rma_release_not_held",
                                       "rma_use_after_destroy",
                                       "io_complete_without_begin",
                                       "io_never_completed",
                                       "io_after_destroy"};

static bool is(const char *name)
{
    return strcmp(variant, name) == 0;
}

static void check(OTF2_ErrorCode rc, const char *what)
{
    if (rc != OTF2_SUCCESS) {
        fprintf(stderr, "write_rma_trace: %s: %s\n", what, OTF2_Error_GetName(rc));
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
    S_EMPTY,
    S_MAIN,
    S_CREATE,
    S_FENCE,
    S_PUT,
    S_LOCK,
    S_UNLOCK,
    S_FREE,
    S_OPEN,
    S_WRITE,
    S_CLOSE,
    S_MACHINE,
    S_NODE,
    S_RANK0,
    S_RANK1,
    S_MASTER,
    S_WORLD,
    S_WIN,
    S_FILE,
    S_MPIIO,
    S_COUNT
};
static const char *const strings[S_COUNT] = {"",
                                             "main",
                                             "MPI_Win_create",
                                             "MPI_Win_fence",
                                             "MPI_Put",
                                             "MPI_Win_lock",
                                             "MPI_Win_unlock",
                                             "MPI_Win_free",
                                             "MPI_File_open",
                                             "MPI_File_write",
                                             "MPI_File_close",
                                             "machine",
                                             "node",
                                             "MPI Rank 0",
                                             "MPI Rank 1",
                                             "Master thread",
                                             "MPI_COMM_WORLD",
                                             "MPI Window",
                                             "data.out",
                                             "MPI-IO"};
enum {
    R_MAIN,
    R_CREATE,
    R_FENCE,
    R_PUT,
    R_LOCK,
    R_UNLOCK,
    R_FREE,
    R_OPEN,
    R_WRITE,
    R_CLOSE,
    R_COUNT
};
enum {
    WIN = 0,
    LOCK_ID = 7,
    FENCE_LEVEL = OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY
};

static uint64_t events[2];

static void fence(OTF2_EvtWriter *w, uint64_t t, int complete_id)
{
    OTF2_EvtWriter_Enter(w, NULL, t, R_FENCE);
    OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t + 1);
    if (complete_id)
        OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, t + 2, WIN, complete_id);
    OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t + 3, OTF2_COLLECTIVE_OP_BARRIER, FENCE_LEVEL, WIN,
                                    OTF2_UNDEFINED_UINT32, 0, 0);
    OTF2_EvtWriter_Leave(w, NULL, t + 4, R_FENCE);
}

static void put(OTF2_EvtWriter *w, uint64_t t, uint32_t remote, uint64_t id)
{
    OTF2_EvtWriter_Enter(w, NULL, t, R_PUT);
    OTF2_EvtWriter_RmaPut(w, NULL, t + 1, WIN, remote, 8, id);
    OTF2_EvtWriter_Leave(w, NULL, t + 2, R_PUT);
}

static void io_write(OTF2_EvtWriter *w, uint64_t t, uint32_t handle, bool begin, bool complete)
{
    OTF2_EvtWriter_Enter(w, NULL, t, R_WRITE);
    if (begin)
        OTF2_EvtWriter_IoOperationBegin(w, NULL, t + 1, handle, OTF2_IO_OPERATION_MODE_WRITE,
                                        OTF2_IO_OPERATION_FLAG_NONE, 16, 1);
    if (complete)
        OTF2_EvtWriter_IoOperationComplete(w, NULL, t + 2, handle, 16, 1);
    OTF2_EvtWriter_Leave(w, NULL, t + 3, R_WRITE);
}

static void rank(OTF2_EvtWriter *w, uint32_t me)
{
    uint32_t other = 1 - me, handle = me;
    OTF2_EvtWriter_Enter(w, NULL, BASE + 1, R_MAIN);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 10, R_CREATE);
    OTF2_EvtWriter_RmaWinCreate(w, NULL, BASE + 11, WIN);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 12, R_CREATE);
    bool early = me == 0 && is("rma_outside_epoch");
    if (early)
        put(w, BASE + 15, other, 1);
    fence(w, BASE + 20, 0);
    if (!early)
        put(w, BASE + 30, me == 0 && is("rma_target_outside") ? 5 : other, 1);
    fence(w, BASE + 40, 1);

    bool locked = !(me == 0 && is("rma_release_not_held"));
    OTF2_EvtWriter_Enter(w, NULL, BASE + 50, R_LOCK);
    if (locked) {
        OTF2_EvtWriter_RmaRequestLock(w, NULL, BASE + 51, WIN, other, LOCK_ID, OTF2_LOCK_EXCLUSIVE);
        OTF2_EvtWriter_RmaAcquireLock(w, NULL, BASE + 52, WIN, other, LOCK_ID, OTF2_LOCK_EXCLUSIVE);
    }
    OTF2_EvtWriter_Leave(w, NULL, BASE + 53, R_LOCK);
    put(w, BASE + 54, other, 2);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 60, R_UNLOCK);
    if (!(me == 0 && is("rma_never_completed")))
        OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, BASE + 61, WIN, 2);
    OTF2_EvtWriter_RmaReleaseLock(w, NULL, BASE + 62, WIN, other, LOCK_ID);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 63, R_UNLOCK);
    if (me == 1 && is("rma_fences_differ"))
        fence(w, BASE + 64, 0);
    OTF2_EvtWriter_Enter(w, NULL, BASE + 70, R_FREE);
    OTF2_EvtWriter_RmaWinDestroy(w, NULL, BASE + 71, WIN);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 72, R_FREE);
    if (me == 1 && is("rma_use_after_destroy"))
        put(w, BASE + 74, other, 3);

    OTF2_EvtWriter_Enter(w, NULL, BASE + 80, R_OPEN);
    OTF2_EvtWriter_IoCreateHandle(w, NULL, BASE + 81, handle, OTF2_IO_ACCESS_MODE_WRITE_ONLY,
                                  OTF2_IO_CREATION_FLAG_CREATE, OTF2_IO_STATUS_FLAG_NONE);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 82, R_OPEN);
    io_write(w, BASE + 90, handle, !(me == 0 && is("io_complete_without_begin")),
             !(me == 1 && is("io_never_completed")));
    OTF2_EvtWriter_Enter(w, NULL, BASE + 100, R_CLOSE);
    OTF2_EvtWriter_IoDestroyHandle(w, NULL, BASE + 101, handle);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 102, R_CLOSE);
    if (me == 0 && is("io_after_destroy"))
        io_write(w, BASE + 110, handle, true, true);
    OTF2_EvtWriter_Leave(w, NULL, BASE + 200, R_MAIN);
}

static void write_definitions(OTF2_Archive *archive)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive);
    check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, BASE, 300, 0), "clock");
    for (uint32_t s = 0; s < S_COUNT; s++)
        check(OTF2_GlobalDefWriter_WriteString(g, s, strings[s]), "string");
    for (uint32_t r = 0; r < R_COUNT; r++) {
        uint32_t name = S_MAIN + r;
        OTF2_RegionRole role = r == R_MAIN   ? OTF2_REGION_ROLE_FUNCTION
                               : r >= R_OPEN ? OTF2_REGION_ROLE_FILE_IO
                                             : OTF2_REGION_ROLE_RMA;
        OTF2_Paradigm paradigm = r == R_MAIN ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI;
        check(OTF2_GlobalDefWriter_WriteRegion(g, r, name, name, S_EMPTY, role, paradigm,
                                               OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0),
              "region");
    }
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_MACHINE, S_NODE,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "node");
    for (uint32_t r = 0; r < 2; r++) {
        check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, r ? S_RANK1 : S_RANK0,
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "location group");
        check(OTF2_GlobalDefWriter_WriteLocation(g, r, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 events[r], r),
              "location");
    }
    const uint64_t locations[] = {0, 1}, world[] = {0, 1};
    check(OTF2_GlobalDefWriter_WriteGroup(g, 0, S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, locations),
          "group");
    check(OTF2_GlobalDefWriter_WriteGroup(g, 1, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, world),
          "group");
    check(
        OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
        "comm");
    check(OTF2_GlobalDefWriter_WriteIoParadigm(g, 0, S_MPIIO, S_MPIIO,
                                               OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                               OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL),
          "I/O paradigm");
    check(OTF2_GlobalDefWriter_WriteIoRegularFile(g, 0, S_FILE, 0), "file");
    for (uint32_t h = 0; h < 2; h++)
        check(OTF2_GlobalDefWriter_WriteIoHandle(g, h, S_FILE, 0, 0, OTF2_IO_HANDLE_FLAG_NONE, 0,
                                                 OTF2_UNDEFINED_IO_HANDLE),
              "handle");
    check(
        OTF2_GlobalDefWriter_WriteRmaWin(g, WIN, S_WIN, 0, OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS),
        "window");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: write_rma_trace DIR VARIANT\n");
        return 2;
    }
    variant = argv[2];
    bool known = false;
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        known = known || is(variants[i]);
    if (!known) {
        fprintf(stderr, "write_rma_trace: unknown variant '%s'\n", variant);
        return 2;
    }
    OTF2_Archive *archive =
        OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        fprintf(stderr, "write_rma_trace: cannot create %s\n", argv[1]);
        return 1;
    }
    check(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "collectives");
    check(OTF2_Archive_OpenEvtFiles(archive), "open event files");
    for (uint32_t r = 0; r < 2; r++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, r);
        rank(w, r);
        check(OTF2_EvtWriter_GetNumberOfEvents(w, &events[r]), "count events");
        check(OTF2_Archive_CloseEvtWriter(archive, w), "close event writer");
    }
    check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
    check(OTF2_Archive_OpenDefFiles(archive), "open definition files");
    for (uint32_t r = 0; r < 2; r++)
        check(OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, r)),
              "close definition writer");
    check(OTF2_Archive_CloseDefFiles(archive), "close definition files");
    write_definitions(archive);
    check(OTF2_Archive_Close(archive), "close archive");
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
