/* SPDX-License-Identifier: BSD-3-Clause */
/* The shadow archive: OTF2 reads event files only through an archive's
 * anchor file and definitions, which a process that never finished did not
 * write. So recover writes, in DIR/leftovers/shadow, an anchor with the
 * chunk sizes the recorder used (from its journal) and the few definitions
 * a reader needs to find the event files (a location group per process, a
 * location per thread, with the ids the files are named after), and links
 * the leftover event files into it. Everything else (names, regions,
 * communicators) comes from the journal into the new trace directly. */
#define _GNU_SOURCE
#include "recover.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weft/log.h"
#include "escape.h"

static OTF2_FlushType pre_flush(void *user_data, OTF2_FileType file_type, OTF2_LocationRef location,
                                void *caller_data, bool final)
{
    (void)user_data, (void)file_type, (void)location, (void)caller_data, (void) final;
    return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush};

/* The journal part whose locations include registry location L. */
static size_t part_of(const recover_state *st, uint32_t l)
{
    for (size_t p = 0; p < st->part_count; p++) {
        if (l >= st->parts[p].first_location &&
            l < st->parts[p].first_location + st->parts[p].location_count)
            return p;
    }
    return 0;
}

static weft_status list_locations(recover_state *st)
{
    uint32_t n = weft_registry_location_count(st->reg);
    st->locations = calloc(n ? n : 1, sizeof(*st->locations));
    if (!st->locations)
        return WEFT_ERR_NO_MEMORY;
    for (uint32_t l = 0; l < n; l++) {
        weft_location_def def;
        weft_registry_location_get(st->reg, (weft_location){l}, &def);
        st->locations[l] = (recover_location){
            .loc = {l}, .otf2_id = weft_location_otf2_id(&def), .part = part_of(st, l)};
    }
    st->location_count = n;
    return WEFT_OK;
}

static bool ok(OTF2_ErrorCode code, const recover_state *st, const char *what)
{
    if (code == OTF2_SUCCESS)
        return true;
    weft__cli_line(stderr, "%s: %s '%s': %s", RECOVER, what, st->shadow,
                   OTF2_Error_GetDescription(code));
    return false;
}

static weft_status write_definitions(recover_state *st)
{
    const weft_journal_part *first = &st->parts[0];
    OTF2_Archive *archive = OTF2_Archive_Open(
        st->shadow, "traces", OTF2_FILEMODE_WRITE, first->event_chunk_bytes,
        first->definition_chunk_bytes, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        weft__cli_line(stderr, "%s: cannot write an OTF2 archive in '%s'", RECOVER, st->shadow);
        return WEFT_ERR_OTF2;
    }
    bool good =
        ok(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), st,
           "cannot set up the archive in") &&
        ok(OTF2_Archive_SetSerialCollectiveCallbacks(archive), st, "cannot set up the archive in");
    OTF2_GlobalDefWriter *w = good ? OTF2_Archive_GetGlobalDefWriter(archive) : NULL;
    good = good && w;
    good = good && ok(OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, 0, 0, 0), st,
                      "cannot write the definitions of");
    good = good && ok(OTF2_GlobalDefWriter_WriteString(w, 0, "leftover"), st,
                      "cannot write the definitions of");
    good = good &&
           ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, 0, 0, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
              st, "cannot write the definitions of");
    for (size_t p = 0; good && p < st->part_count; p++)
        good = ok(OTF2_GlobalDefWriter_WriteLocationGroup(w, st->parts[p].rank, 0,
                                                          OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                          OTF2_UNDEFINED_LOCATION_GROUP),
                  st, "cannot write the definitions of");
    for (size_t l = 0; good && l < st->location_count; l++) {
        const recover_location *loc = &st->locations[l];
        good =
            ok(OTF2_GlobalDefWriter_WriteLocation(w, loc->otf2_id, 0, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                  OTF2_UNDEFINED_UINT64, st->parts[loc->part].rank),
               st, "cannot write the definitions of");
    }
    OTF2_ErrorCode closed = OTF2_Archive_Close(archive);
    good = good && ok(closed, st, "cannot close the archive in");
    return good ? WEFT_OK : WEFT_ERR_OTF2;
}

/* The number of events in a file of whole chunks: its last chunk's header
 * holds the positions of its first and last event (OTF2's chunk header: a
 * byte 3, a byte order mark, the two positions as 64-bit integers). A file
 * OTF2 never finished does not end in an end-of-file record, and OTF2's
 * reader would go on reading its last chunk again and again: recover reads
 * exactly this many events instead. 0 when the header is not one. */
static uint64_t events_in(const char *path, uint64_t size, uint64_t chunk)
{
    unsigned char header[18];
    FILE *f = size >= chunk ? fopen(path, "rb") : NULL;
    bool read = f && fseeko(f, (off_t)(size - chunk), SEEK_SET) == 0 &&
                fread(header, 1, sizeof(header), f) == sizeof(header);
    if (f)
        fclose(f);
    if (!read || header[0] != 3)
        return 0;
    uint64_t first, last;
    memcpy(&first, header + 2, 8);
    memcpy(&last, header + 10, 8);
    return last >= first ? last : 0;
}

/* Whether the file ends as OTF2 ends the files it closes: an end-of-file
 * record, then an end-of-buffer one (bytes 2 and 1). */
static bool closed_by_otf2(const char *path, uint64_t size)
{
    unsigned char tail[2];
    FILE *f = size >= 2 ? fopen(path, "rb") : NULL;
    bool read = f && fseeko(f, (off_t)(size - 2), SEEK_SET) == 0 && fread(tail, 1, 2, f) == 2;
    if (f)
        fclose(f);
    return read && tail[0] == 2 && tail[1] == 1;
}

/* Links traces/<id>.evt of the leftovers into the shadow archive, first
 * cutting off a last chunk that was only partly written when the process
 * ended (OTF2 writes whole chunks; a reader stops at a partial one). A
 * file the process closed (its events all written, then an end-of-file
 * record) is read to its end instead. */
static weft_status link_event_file(recover_state *st, recover_location *loc)
{
    char from[4500], to[4500];
    snprintf(from, sizeof(from), "%s/traces/%llu.evt", st->leftovers,
             (unsigned long long)loc->otf2_id);
    snprintf(to, sizeof(to), "%s/traces/%llu.evt", st->shadow, (unsigned long long)loc->otf2_id);
    struct stat sb;
    if (stat(from, &sb) != 0 || sb.st_size == 0)
        return WEFT_OK; /* nothing of it reached the disk */
    uint64_t size = (uint64_t)sb.st_size;
    uint64_t chunk = st->parts[loc->part].event_chunk_bytes;
    if (size % chunk != 0 && closed_by_otf2(from, size)) {
        loc->events_on_disk = OTF2_UNDEFINED_UINT64;
    } else {
        uint64_t whole = size / chunk * chunk;
        if (whole < size && truncate(from, (off_t)whole) != 0) {
            weft__cli_line(stderr, "%s: cannot cut the partly written end off '%s': %s", RECOVER,
                           from, strerror(errno));
            return WEFT_ERR_IO;
        }
        loc->bytes_cut = size - whole;
        loc->events_on_disk = events_in(from, whole, chunk);
        if (loc->events_on_disk == 0)
            return WEFT_OK;
    }
    char *absolute = realpath(from, NULL);
    int rc = absolute ? symlink(absolute, to) : -1;
    free(absolute);
    if (rc != 0) {
        weft__cli_line(stderr, "%s: cannot link '%s' into '%s': %s", RECOVER, from, st->shadow,
                       strerror(errno));
        return WEFT_ERR_IO;
    }
    loc->has_file = true;
    return WEFT_OK;
}

weft_status recover_shadow_create(recover_state *st)
{
    weft_status status = list_locations(st);
    if (status == WEFT_OK && mkdir(st->shadow, 0777) != 0) {
        weft__cli_line(stderr, "%s: cannot create '%s': %s", RECOVER, st->shadow, strerror(errno));
        status = WEFT_ERR_IO;
    }
    if (status == WEFT_OK)
        status = write_definitions(st);
    char traces[4400];
    snprintf(traces, sizeof(traces), "%s/traces", st->shadow);
    if (status == WEFT_OK && mkdir(traces, 0777) != 0 && errno != EEXIST) {
        weft__cli_line(stderr, "%s: cannot create '%s': %s", RECOVER, traces, strerror(errno));
        status = WEFT_ERR_IO;
    }
    for (size_t l = 0; status == WEFT_OK && l < st->location_count; l++)
        status = link_event_file(st, &st->locations[l]);
    return status;
}
