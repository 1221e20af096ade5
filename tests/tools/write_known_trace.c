/* Writes a small OTF2 archive whose profile is known exactly, for testing
 * `weft summary`. Three locations in two processes; times are whole
 * milliseconds at a resolution of 1e9 ticks per second. Variants: `unbalanced`
 * adds a stray leave and leaves a region open; `idle` adds a fourth location
 * with no events and no event file; `truncated` cuts the first location's
 * event file in half. The balanced profile is in known_trace.expected. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#define MS UINT64_C(1000000)

enum { REGION_A, REGION_B, REGION_C, REGION_COUNT };

/* clang-format off */
enum { STR_EMPTY, STR_A, STR_B, STR_C, STR_MACHINE, STR_NODE, STR_NODE_NAME, STR_RANK0,
       STR_RANK1, STR_THREAD0, STR_THREAD1, STR_COUNT };

static const char *const strings[STR_COUNT] = {
    [STR_EMPTY] = "",           [STR_A] = "A",
    [STR_B] = "B",              [STR_C] = "C",
    [STR_MACHINE] = "machine",  [STR_NODE] = "node",
    [STR_NODE_NAME] = "test",   [STR_RANK0] = "MPI Rank 0",
    [STR_RANK1] = "MPI Rank 1", [STR_THREAD0] = "Master thread",
    [STR_THREAD1] = "OpenMP thread 1",
};
/* clang-format on */

typedef enum { EV_ENTER, EV_LEAVE, EV_FLUSH, EV_END } ev_kind;

typedef struct {
    ev_kind kind;
    uint32_t region;
    uint64_t time_ms;
} ev;

typedef struct {
    uint64_t id; /* (thread << 32) | rank */
    uint32_t group;
    OTF2_StringRef name;
    const ev *events;
} loc;

/* clang-format off */
/* Rank 0, thread 0: A [0,100] holding B [10,30] and B [40,60], a buffer flush at 70-80. */
static const ev rank0_thread0[] = {
    {EV_ENTER, REGION_A, 0},   {EV_ENTER, REGION_B, 10}, {EV_LEAVE, REGION_B, 30},
    {EV_ENTER, REGION_B, 40},  {EV_LEAVE, REGION_B, 60}, {EV_FLUSH, 0, 70},
    {EV_LEAVE, REGION_A, 100}, {EV_END, 0, 0},
};

/* Rank 0, thread 1: A [0,50] holding B [5,45], which recursively holds B [10,20]. */
static const ev rank0_thread1[] = {
    {EV_ENTER, REGION_A, 0},  {EV_ENTER, REGION_B, 5},  {EV_ENTER, REGION_B, 10},
    {EV_LEAVE, REGION_B, 20}, {EV_LEAVE, REGION_B, 45}, {EV_LEAVE, REGION_A, 50},
    {EV_END, 0, 0},
};

/* Rank 1, thread 0: C [0,90] holding A [20,40]. */
static const ev rank1_thread0[] = {
    {EV_ENTER, REGION_C, 0},  {EV_ENTER, REGION_A, 20}, {EV_LEAVE, REGION_A, 40},
    {EV_LEAVE, REGION_C, 90}, {EV_END, 0, 0},
};

/* Unbalanced rank 1: a leave of B that was never entered, and C never left (closed by the
 * reader at 40, the location's last timestamp). */
static const ev rank1_unbalanced[] = {
    {EV_LEAVE, REGION_B, 0},  {EV_ENTER, REGION_C, 0}, {EV_ENTER, REGION_A, 20},
    {EV_LEAVE, REGION_A, 40}, {EV_END, 0, 0},
};
/* clang-format on */

#define LOC_COUNT_MAX 4
#define BUSY_LOC_COUNT 3 /* the first three have events; the fourth is `idle` only */

static const ev no_events[] = {{EV_END, 0, 0}};

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

static OTF2_TimeStamp post_flush(void *user_data, OTF2_FileType file_type,
                                 OTF2_LocationRef location)
{
    (void)user_data;
    (void)file_type;
    (void)location;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {
    .otf2_pre_flush = pre_flush,
    .otf2_post_flush = post_flush,
};

static bool check(OTF2_ErrorCode code, const char *what)
{
    if (code == OTF2_SUCCESS)
        return true;
    fprintf(stderr, "write_known_trace: %s: %s\n", what, OTF2_Error_GetName(code));
    return false;
}

static bool write_events(OTF2_Archive *archive, const loc *l)
{
    OTF2_EvtWriter *writer = OTF2_Archive_GetEvtWriter(archive, l->id);
    if (!writer) {
        fprintf(stderr, "write_known_trace: no event writer for location %" PRIu64 "\n", l->id);
        return false;
    }
    bool ok = true;
    for (const ev *e = l->events; ok && e->kind != EV_END; e++) {
        uint64_t t = e->time_ms * MS;
        switch (e->kind) {
        case EV_ENTER:
            ok = check(OTF2_EvtWriter_Enter(writer, NULL, t, e->region), "Enter");
            break;
        case EV_LEAVE:
            ok = check(OTF2_EvtWriter_Leave(writer, NULL, t, e->region), "Leave");
            break;
        case EV_FLUSH:
            ok = check(OTF2_EvtWriter_BufferFlush(writer, NULL, t, t + 10 * MS), "BufferFlush");
            break;
        case EV_END:
            break;
        }
    }
    return check(OTF2_Archive_CloseEvtWriter(archive, writer), "CloseEvtWriter") && ok;
}

static bool write_local_defs(OTF2_Archive *archive, const loc *locs, int loc_count)
{
    if (!check(OTF2_Archive_OpenDefFiles(archive), "OpenDefFiles"))
        return false;
    for (int i = 0; i < loc_count; i++) {
        OTF2_DefWriter *writer = OTF2_Archive_GetDefWriter(archive, locs[i].id);
        if (!writer) {
            fprintf(stderr, "write_known_trace: no definition writer\n");
            return false;
        }
        if (!check(OTF2_Archive_CloseDefWriter(archive, writer), "CloseDefWriter"))
            return false;
    }
    return check(OTF2_Archive_CloseDefFiles(archive), "CloseDefFiles");
}

static bool write_global_defs(OTF2_Archive *archive, const loc *locs, int loc_count)
{
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(archive);
    if (!w) {
        fprintf(stderr, "write_known_trace: no global definition writer\n");
        return false;
    }
    bool ok = check(OTF2_GlobalDefWriter_WriteClockProperties(w, 1000 * MS, 0, 100 * MS,
                                                              OTF2_UNDEFINED_TIMESTAMP),
                    "ClockProperties");
    for (uint32_t s = 0; ok && s < STR_COUNT; s++)
        ok = check(OTF2_GlobalDefWriter_WriteString(w, s, strings[s]), "String");
    static const OTF2_StringRef region_names[REGION_COUNT] = {STR_A, STR_B, STR_C};
    for (uint32_t r = 0; ok && r < REGION_COUNT; r++) {
        ok = check(OTF2_GlobalDefWriter_WriteRegion(
                       w, r, region_names[r], region_names[r], STR_EMPTY, OTF2_REGION_ROLE_FUNCTION,
                       OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, STR_EMPTY, 0, 0),
                   "Region");
    }
    if (ok) {
        ok = check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, STR_MACHINE, STR_MACHINE,
                                                            OTF2_UNDEFINED_SYSTEM_TREE_NODE),
                   "SystemTreeNode") &&
             check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 1, STR_NODE_NAME, STR_NODE, 0),
                   "SystemTreeNode");
    }
    static const OTF2_StringRef group_names[2] = {STR_RANK0, STR_RANK1};
    for (uint32_t g = 0; ok && g < 2; g++) {
        ok = check(OTF2_GlobalDefWriter_WriteLocationGroup(w, g, group_names[g],
                                                           OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                                           OTF2_UNDEFINED_LOCATION_GROUP),
                   "LocationGroup");
    }
    for (int i = 0; ok && i < loc_count; i++) {
        uint64_t count = 0;
        while (locs[i].events[count].kind != EV_END)
            count++;
        ok = check(OTF2_GlobalDefWriter_WriteLocation(w, locs[i].id, locs[i].name,
                                                      OTF2_LOCATION_TYPE_CPU_THREAD, count,
                                                      locs[i].group),
                   "Location");
    }
    return ok;
}

/* Cuts DIR/traces/0.evt (rank 0, thread 0) to half its size. */
static bool truncate_first_events(const char *dir)
{
    char path[4096];
    int n = snprintf(path, sizeof(path), "%s/traces/0.evt", dir);
    struct stat st;
    if (n < 0 || (size_t)n >= sizeof(path) || stat(path, &st) != 0 ||
        truncate(path, st.st_size / 2) != 0) {
        fprintf(stderr, "write_known_trace: cannot truncate %s\n", path);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    const char *variant = argc == 3 ? argv[2] : "balanced";
    bool unbalanced = strcmp(variant, "unbalanced") == 0;
    bool truncated = strcmp(variant, "truncated") == 0;
    bool idle = strcmp(variant, "idle") == 0;
    if (argc < 2 || argc > 3 ||
        (!unbalanced && !truncated && !idle && strcmp(variant, "balanced") != 0)) {
        fprintf(stderr, "usage: write_known_trace DIR [balanced|unbalanced|idle|truncated]\n");
        return 2;
    }
    const char *dir = argv[1];
    const int loc_count = idle ? LOC_COUNT_MAX : BUSY_LOC_COUNT;
    const loc locs[LOC_COUNT_MAX] = {
        {0, 0, STR_THREAD0, rank0_thread0},
        {UINT64_C(1) << 32, 0, STR_THREAD1, rank0_thread1},
        {1, 1, STR_THREAD0, unbalanced ? rank1_unbalanced : rank1_thread0},
        {(UINT64_C(1) << 32) | 1, 1, STR_THREAD1, no_events}, /* only in `idle` */
    };

    OTF2_Archive *archive =
        OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        fprintf(stderr, "write_known_trace: cannot create an archive in %s\n", dir);
        return 1;
    }
    bool ok =
        check(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL),
              "SetFlushCallbacks") &&
        check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "SetSerialCollectiveCallbacks") &&
        check(OTF2_Archive_OpenEvtFiles(archive), "OpenEvtFiles");
    for (int i = 0; ok && i < BUSY_LOC_COUNT; i++) /* the idle location gets no event file */
        ok = write_events(archive, &locs[i]);
    ok = ok && check(OTF2_Archive_CloseEvtFiles(archive), "CloseEvtFiles");
    ok = ok && write_local_defs(archive, locs, loc_count);
    ok = ok && write_global_defs(archive, locs, loc_count);
    ok = check(OTF2_Archive_Close(archive), "Close") && ok;
    if (ok && truncated)
        ok = truncate_first_events(dir);
    return ok ? 0 : 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
