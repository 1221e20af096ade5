/* SPDX-License-Identifier: BSD-3-Clause */
/* Experiment directory and OTF2 archive; see archive.h. */
#include "archive.h"

#include <errno.h>
#include <otf2/OTF2_Pthread_Locks.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "disk_reserve.h"
#include "journal.h"
#include "otf2_memory.h"
#include "weft/alloc.h"
#include "weft/log.h"
#include "weft/unify.h"

static OTF2_Archive *archive;
static char directory[4096];

static OTF2_FlushType pre_flush(void *user_data, OTF2_FileType file_type,
                                OTF2_LocationRef location, void *caller_data, bool final)
{
    (void)user_data, (void)caller_data, (void)final;
    /* Events reach the disk only after their definitions reached the
     * journal (journal.c), and into space no other process can take
     * (disk_reserve.c). */
    if (file_type == OTF2_FILETYPE_EVENTS) {
        weft__journal_before_flush();
        weft__disk_reserve_before_flush(location);
    }
    return OTF2_FLUSH;
}

/* No post-flush callback: OTF2 then writes no BufferFlush record of its own.
 * Its flushes happen on the writer thread and cost the program nothing. */
static OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush};

/* Creates missing parent directories of path (like mkdir -p, without the
 * last component). */
static int make_parents(const char *path)
{
    char buf[sizeof(directory)];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

/* Claims a new directory named base, or base.1, base.2, ... */
static weft_status claim_directory(const char *base, bool user_named)
{
    if (make_parents(base) != 0) {
        weft_log_error("cannot create the experiment directory '%s': %s; no trace is written, "
                       "the program continues",
                       base, strerror(errno));
        return WEFT_ERR_IO;
    }
    for (unsigned attempt = 0; attempt < 1000; attempt++) {
        if (attempt == 0)
            snprintf(directory, sizeof(directory), "%s", base);
        else
            snprintf(directory, sizeof(directory), "%s.%u", base, attempt);
        if (mkdir(directory, 0777) == 0) {
            if (attempt > 0 && user_named)
                weft_log_error("experiment directory '%s' already exists; writing the trace to "
                               "'%s' instead",
                               base, directory);
            return WEFT_OK;
        }
        if (errno != EEXIST)
            break;
    }
    weft_log_error("cannot create the experiment directory '%s': %s; no trace is written, the "
                   "program continues (set WEFT_EXPERIMENT_DIRECTORY to a writable place)",
                   directory, errno == EEXIST ? "too many with this name exist" : strerror(errno));
    directory[0] = '\0';
    return WEFT_ERR_IO;
}

static bool otf2_failed(OTF2_ErrorCode code, const char *what)
{
    if (code == OTF2_SUCCESS)
        return false;
    weft_log_error("%s failed in '%s': %s (%s)", what, directory, OTF2_Error_GetName(code),
                   OTF2_Error_GetDescription(code));
    return true;
}

/* The directory's name before any ".N" (WEFT_EXPERIMENT_DIRECTORY, or
 * weft-DATE_TIME_PID), fixed when recording starts: a fork()ed child names
 * its own after it, perhaps before this one is claimed, and localtime is
 * not safe in the child of a threaded process. */
static char base_name[sizeof(directory) - 16]; /* room for ".N" */

/* A relative NAME is taken in the directory the program was in when
 * recording started: the directory is made later (at the first flush or at
 * the end), and a program that changed its working directory in between
 * had its trace land there, or lost it when that directory was gone. */
static void set_base_name(const char *name)
{
    char cwd[sizeof(base_name)];
    size_t at = 0;
    if (name[0] != '/' && getcwd(cwd, sizeof(cwd)) &&
        strlen(cwd) + strlen(name) + 2 < sizeof(cwd) && strcmp(cwd, "/") != 0) {
        at = strlen(cwd);
        memcpy(base_name, cwd, at);
        base_name[at++] = '/';
    }
    snprintf(base_name + at, sizeof(base_name) - at, "%s", name);
}

void weft__archive_prepare_name(const weft_config *cfg)
{
    if (cfg->experiment_directory) {
        set_base_name(cfg->experiment_directory);
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32] = "unknown";
    if (localtime_r(&now, &tm))
        strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", &tm);
    char name[64];
    snprintf(name, sizeof(name), "weft-%s_%ld", stamp, (long)getpid());
    set_base_name(name);
}

const char *weft__archive_base_name(void)
{
    return base_name;
}

weft_status weft__archive_claim(const weft_config *cfg)
{
    if (!base_name[0])
        weft__archive_prepare_name(cfg);
    return claim_directory(base_name, cfg->experiment_directory != NULL);
}

void weft__archive_adopt(const char *claimed)
{
    snprintf(directory, sizeof(directory), "%s", claimed);
}

weft_status weft__archive_create(weft_archive_collectives collectives, void *data)
{
    archive = OTF2_Archive_Open(directory, "traces", OTF2_FILEMODE_WRITE,
                                WEFT_OTF2_EVENT_CHUNK_BYTES, WEFT_OTF2_DEF_CHUNK_BYTES,
                                OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        weft_log_error("cannot open an OTF2 archive in '%s'; no trace is written, the program "
                       "continues",
                       directory);
        return WEFT_ERR_OTF2;
    }
    bool failed =
        otf2_failed(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL),
                    "setting OTF2 flush callbacks") ||
        otf2_failed(OTF2_Archive_SetMemoryCallbacks(archive, weft__otf2_memory_callbacks(), NULL),
                    "setting OTF2 memory callbacks") ||
        (collectives ? collectives(archive, data) != 0
                     : otf2_failed(OTF2_Archive_SetSerialCollectiveCallbacks(archive),
                                   "setting OTF2 collective callbacks")) ||
        otf2_failed(OTF2_Pthread_Archive_SetLockingCallbacks(archive, NULL),
                    "setting OTF2 locking callbacks") ||
        otf2_failed(OTF2_Archive_SetCreator(archive, "weft " WEFT_VERSION),
                    "setting the OTF2 creator");
    if (failed) {
        OTF2_Archive_Close(archive);
        archive = NULL;
        return WEFT_ERR_OTF2;
    }
    return WEFT_OK;
}

weft_status weft__archive_open_events(void)
{
    if (otf2_failed(OTF2_Archive_OpenEvtFiles(archive), "opening the OTF2 event files")) {
        OTF2_Archive_Close(archive);
        archive = NULL;
        return WEFT_ERR_OTF2;
    }
    weft_log_verbose("writing the trace to '%s'", directory);
    return WEFT_OK;
}

weft_status weft__archive_open(const weft_config *cfg)
{
    weft_status st = weft__archive_claim(cfg);
    if (st == WEFT_OK)
        st = weft__archive_create(NULL, NULL);
    if (st == WEFT_OK)
        st = weft__archive_open_events();
    return st;
}

OTF2_Archive *weft__archive_get(void)
{
    return archive;
}

void weft__archive_forget(void)
{
    archive = NULL;
}

void weft__archive_forget_all(void)
{
    archive = NULL;
    directory[0] = '\0';
}

const char *weft__archive_directory(void)
{
    return directory[0] ? directory : NULL;
}

/* One location's local definitions: the mapping of the process's ids to
 * the global ones where they differ, and the process's clock offsets. */
static bool write_location_defs(OTF2_DefWriter *w, const weft_local_defs *local)
{
    struct {
        OTF2_MappingType type;
        const uint32_t *map;
        uint32_t count;
    } maps[] = {{OTF2_MAPPING_STRING, local->string_map, local->string_count},
                {OTF2_MAPPING_REGION, local->region_map, local->region_count},
                {OTF2_MAPPING_COMM, local->comm_map, local->comm_count},
                {OTF2_MAPPING_METRIC, local->metric_map, local->metric_count},
                {OTF2_MAPPING_IO_HANDLE, local->object_map, local->object_count},
                {OTF2_MAPPING_RMA_WIN, local->object_map, local->object_count},
                {OTF2_MAPPING_GROUP, local->group_map, local->group_count}};
    for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
        if (!maps[i].map || weft_id_map_is_identity(maps[i].map, maps[i].count))
            continue; /* (OTF2 would give no map for the identity either) */
        OTF2_IdMap *id_map = OTF2_IdMap_CreateFromUint32Array(maps[i].count, maps[i].map, true);
        if (!id_map) {
            weft_log_error("out of memory writing the id mapping of '%s'", directory);
            return false;
        }
        OTF2_ErrorCode code = OTF2_DefWriter_WriteMappingTable(w, maps[i].type, id_map);
        OTF2_IdMap_Free(id_map);
        if (otf2_failed(code, "writing an id mapping table"))
            return false;
    }
    for (size_t i = 0; i < local->offset_count; i++) {
        const weft_clock_offset *o = &local->offsets[i];
        if (otf2_failed(OTF2_DefWriter_WriteClockOffset(w, o->time, o->offset, o->stddev),
                        "writing a clock offset"))
            return false;
    }
    return true;
}

/* Local definition files, one per location of this process (readers expect
 * them even when they are empty, as for a single process whose ids are the
 * global ones). The opening and closing are collective in a job: they are
 * called whatever happens in between. */
static bool write_local_definitions(weft_registry *reg, const weft_local_defs *local)
{
    if (otf2_failed(OTF2_Archive_OpenDefFiles(archive), "opening the OTF2 definition files"))
        return false;
    bool ok = true;
    uint32_t count = weft_registry_location_count(reg);
    for (uint32_t id = 0; id < count && ok; id++) {
        weft_location_def def;
        weft_registry_location_get(reg, (weft_location){id}, &def);
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(archive, weft_location_otf2_id(&def));
        if (!w) {
            weft_log_error("the OTF2 library gave no definition writer in '%s'", directory);
            ok = false;
            break;
        }
        if (local)
            ok = write_location_defs(w, local);
        OTF2_Archive_CloseDefWriter(archive, w);
    }
    return !otf2_failed(OTF2_Archive_CloseDefFiles(archive), "closing the OTF2 definition files") &&
           ok;
}

weft_status weft__archive_close(weft_registry *reg, weft_registry *global,
                                const weft_clock_properties *clock, const weft_local_defs *local)
{
    if (!archive)
        return WEFT_ERR_STATE;
    weft_status st = WEFT_OK;
    if (otf2_failed(OTF2_Archive_CloseEvtFiles(archive), "closing the OTF2 event files"))
        st = WEFT_ERR_OTF2;
    if (!write_local_definitions(reg, local))
        st = WEFT_ERR_OTF2;
    if (global) {
        weft_status written = weft_defs_write_otf2(global, archive, clock);
        if (st == WEFT_OK)
            st = written;
    }
    if (otf2_failed(OTF2_Archive_Close(archive), "closing the OTF2 archive"))
        st = WEFT_ERR_OTF2;
    archive = NULL;
    return st;
}
