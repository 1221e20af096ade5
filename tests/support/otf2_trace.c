/* Loader and lookups of the test trace reader: opens an archive with the OTF2 reader,
 * reads the global definitions (otf2_trace_defs.c), then each location's local
 * definitions and events (otf2_trace_events.c), and turns any failure into one line of
 * text. It also holds the small query helpers of otf2_trace.h and trace_free().
 */
#include "otf2_trace.h"
#include "otf2_trace_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int trace__fail(trace__loader *ld, const char *fmt, ...)
{
    if (ld->failed)
        return -1;
    ld->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ld->message, sizeof ld->message, fmt, ap);
    va_end(ap);
    return -1;
}

int trace__check(trace__loader *ld, OTF2_ErrorCode rc, const char *what)
{
    if (rc == OTF2_SUCCESS)
        return 0;
    return trace__fail(ld, "%s failed: %s", what, OTF2_Error_GetName(rc));
}

void *trace__grow(void *items, size_t *cap, size_t len, size_t size)
{
    if (len < *cap)
        return items;
    size_t new_cap = *cap > 0 ? *cap * 2 : 16;
    if (new_cap > SIZE_MAX / size)
        return NULL;
    void *grown = realloc(items, new_cap * size);
    if (grown != NULL)
        *cap = new_cap;
    return grown;
}

char *trace__strdup(const char *s)
{
    if (s == NULL)
        return NULL;
    size_t len = strlen(s) + 1;
    char *copy = malloc(len);
    if (copy != NULL)
        memcpy(copy, s, len);
    return copy;
}

/* OTF2_Reader_Open only says NULL, and OTF2 3.0.2 leaks the anchor's file handle when the
 * anchor cannot be parsed. So the anchor is checked first: it must be readable and start
 * like every OTF2 anchor file, with a chunk header byte, an endianness byte and "OTF2". */
static int check_anchor(trace__loader *ld, const char *path)
{
    unsigned char head[6] = {0};
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return trace__fail(ld, "cannot open: %s", strerror(errno));
    size_t len = fread(head, 1, sizeof head, f);
    fclose(f);
    if (len < sizeof head || memcmp(head + 2, "OTF2", 4) != 0)
        return trace__fail(ld, "not an OTF2 anchor file (no OTF2 header)");
    return 0;
}

bool trace__local_file_absent(const trace__loader *ld, uint64_t location, const char *ext)
{
    const char *suffix = ".otf2";
    size_t len = strlen(ld->anchor_path);
    size_t suffix_len = strlen(suffix);
    if (!ld->posix_substrate || len < suffix_len ||
        strcmp(ld->anchor_path + len - suffix_len, suffix) != 0)
        return false;
    char *path = malloc(len + 32);
    if (path == NULL)
        return false;
    snprintf(path, len + 32, "%.*s/%" PRIu64 ".%s", (int)(len - suffix_len), ld->anchor_path,
             location, ext);
    FILE *f = fopen(path, "rb");
    bool absent = f == NULL && errno == ENOENT;
    if (f != NULL)
        fclose(f);
    free(path);
    return absent;
}

/* State of one location's local definition reading: the ClockOffset callback appends to
 * loc->clock_offsets. */
typedef struct local_def_reader {
    trace__loader *ld;
    trace_location_stats *loc;
    size_t clock_offset_cap;
} local_def_reader;

static OTF2_CallbackCode on_clock_offset(void *data, OTF2_TimeStamp time, int64_t offset,
                                         double stddev)
{
    local_def_reader *r = data;
    trace_location_stats *loc = r->loc;
    void *grown = trace__grow(loc->clock_offsets, &r->clock_offset_cap, loc->clock_offset_count,
                              sizeof *loc->clock_offsets);
    if (grown == NULL) {
        trace__fail(r->ld, "out of memory for the clock offsets of location %" PRIu64, loc->id);
        return OTF2_CALLBACK_INTERRUPT;
    }
    loc->clock_offsets = grown;
    loc->clock_offsets[loc->clock_offset_count++] =
        (trace_clock_offset){.time = time, .offset = offset, .stddev = stddev};
    return OTF2_CALLBACK_SUCCESS;
}

/* Local definition files are optional (weft may write none); when present they may carry
 * mapping tables and clock offsets, which OTF2 applies to the location's event reader; the
 * clock offsets are also kept in `loc`. A location without a file, or whose file cannot be
 * read, is read without them. Returns -1 only when a callback failed (out of memory). */
static int read_local_definitions(OTF2_Reader *reader, trace__loader *ld, trace_location_stats *loc)
{
    if (trace__local_file_absent(ld, loc->id, "def"))
        return 0;
    OTF2_DefReader *def_reader = OTF2_Reader_GetDefReader(reader, loc->id);
    if (def_reader == NULL)
        return 0;
    local_def_reader r = {.ld = ld, .loc = loc};
    OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
    if (cb != NULL &&
        OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, on_clock_offset) == OTF2_SUCCESS)
        (void)OTF2_Reader_RegisterDefCallbacks(reader, def_reader, cb, &r);
    uint64_t definitions_read = 0;
    (void)OTF2_Reader_ReadAllLocalDefinitions(reader, def_reader, &definitions_read);
    (void)OTF2_Reader_CloseDefReader(reader, def_reader);
    if (cb != NULL)
        OTF2_DefReaderCallbacks_Delete(cb);
    if (loc->clock_offsets != NULL && loc->clock_offset_count < r.clock_offset_cap) {
        trace_clock_offset *shrunk =
            realloc(loc->clock_offsets, loc->clock_offset_count * sizeof *loc->clock_offsets);
        if (shrunk != NULL)
            loc->clock_offsets = shrunk;
    }
    return ld->failed ? -1 : 0;
}

static int read_locations(OTF2_Reader *reader, trace__loader *ld)
{
    trace_model *t = ld->model;
    for (size_t i = 0; i < t->location_count; i++) {
        if (trace__check(ld, OTF2_Reader_SelectLocation(reader, t->locations[i].id),
                         "OTF2_Reader_SelectLocation"))
            return -1;
    }
    /* Fails when the archive has no local definition files at all; see above. */
    bool have_defs = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
    int result = trace__check(ld, OTF2_Reader_OpenEvtFiles(reader), "OTF2_Reader_OpenEvtFiles");
    bool have_events = result == 0;
    for (size_t i = 0; result == 0 && i < t->location_count; i++) {
        if (have_defs)
            result = read_local_definitions(reader, ld, &t->locations[i]);
        if (result == 0)
            result = trace__events_read_location(reader, ld, &t->locations[i]);
    }
    if (have_events) {
        OTF2_ErrorCode rc = OTF2_Reader_CloseEvtFiles(reader);
        if (result == 0)
            result = trace__check(ld, rc, "OTF2_Reader_CloseEvtFiles");
    }
    if (have_defs) {
        OTF2_ErrorCode rc = OTF2_Reader_CloseDefFiles(reader);
        if (result == 0)
            result = trace__check(ld, rc, "OTF2_Reader_CloseDefFiles");
    }
    return result;
}

static int read_archive(trace__loader *ld, const char *anchor_path)
{
    if (check_anchor(ld, anchor_path))
        return -1;
    OTF2_Reader *reader = OTF2_Reader_Open(anchor_path);
    if (reader == NULL)
        return trace__fail(ld, "OTF2_Reader_Open failed (damaged anchor file?)");
    int result = -1;
    OTF2_FileSubstrate substrate = OTF2_SUBSTRATE_UNDEFINED;
    if (trace__check(ld, OTF2_Reader_SetSerialCollectiveCallbacks(reader),
                     "OTF2_Reader_SetSerialCollectiveCallbacks") == 0 &&
        trace__check(ld, OTF2_Reader_GetFileSubstrate(reader, &substrate),
                     "OTF2_Reader_GetFileSubstrate") == 0) {
        ld->posix_substrate = substrate == OTF2_SUBSTRATE_POSIX;
        if (trace__defs_read(reader, ld) == 0 && read_locations(reader, ld) == 0)
            result = 0;
    }
    OTF2_ErrorCode rc = OTF2_Reader_Close(reader);
    if (result == 0)
        result = trace__check(ld, rc, "OTF2_Reader_Close");
    return result;
}

int trace_load(const char *anchor_path, const trace_options *opt, trace_model **out, char *err,
               size_t err_len)
{
    trace__loader ld = {.keep_events = opt != NULL && opt->keep_events, .anchor_path = anchor_path};
    if (err_len > 0)
        err[0] = '\0';
    if (out != NULL)
        *out = NULL;
    if (anchor_path == NULL || out == NULL) {
        if (err_len > 0)
            snprintf(err, err_len, "trace_load: anchor_path and out must not be NULL");
        return -1;
    }
    ld.model = calloc(1, sizeof *ld.model);
    if (ld.model == NULL)
        trace__fail(&ld, "out of memory");
    else if ((ld.model->program_region = UINT32_MAX, read_archive(&ld, anchor_path)) == 0)
        *out = ld.model;

    if (*out != NULL)
        return 0;
    trace_free(ld.model);
    if (err_len > 0)
        snprintf(err, err_len, "%s: %s", anchor_path, ld.message);
    return -1;
}

static void free_locations(trace_model *t)
{
    for (size_t i = 0; i < t->location_count; i++) {
        free(t->locations[i].enter_counts);
        free(t->locations[i].leave_counts);
        free(t->locations[i].events);
        free(t->locations[i].clock_offsets);
    }
    free(t->locations);
}

void trace_free(trace_model *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->string_count; i++)
        free(t->strings[i].text);
    free(t->strings);
    free(t->regions);
    free(t->metric_members);
    free(t->metric_classes);
    free(t->system_tree_nodes);
    free(t->location_groups);
    free(t->location_properties);
    for (size_t i = 0; i < t->group_count; i++)
        free(t->groups[i].members);
    free(t->groups);
    free(t->comms);
    free(t->objects);
    free_locations(t);
    free(t->region_by_id);
    free(t);
}

#define TRACE_EVENT_KIND_NAME(name, text) [name] = text,
static const char *const kind_names[TRACE_EVENT_KIND_COUNT] = {
    TRACE_EVENT_KIND_LIST(TRACE_EVENT_KIND_NAME)};
#undef TRACE_EVENT_KIND_NAME

const trace_object *trace_object_by_id(const trace_model *t, trace_object_kind kind, uint32_t id)
{
    for (size_t i = 0; i < t->object_count; i++) {
        if (t->objects[i].kind == kind && t->objects[i].id == id)
            return &t->objects[i];
    }
    return NULL;
}

const char *trace_event_kind_name(trace_event_kind kind)
{
    if ((unsigned)kind >= TRACE_EVENT_KIND_COUNT)
        return "INVALID";
    return kind_names[kind];
}

const trace_region *trace_region_by_name(const trace_model *t, const char *name)
{
    if (t == NULL || name == NULL)
        return NULL;
    for (size_t i = 0; i < t->region_count; i++) {
        if (t->regions[i].name != NULL && strcmp(t->regions[i].name, name) == 0)
            return &t->regions[i];
    }
    return NULL;
}

const trace_region *trace_region_by_id(const trace_model *t, uint32_t region_id)
{
    if (t == NULL || region_id >= t->region_slots)
        return NULL;
    return t->region_by_id[region_id];
}

const trace_location_stats *trace_location_by_id(const trace_model *t, uint64_t location_id)
{
    if (t == NULL)
        return NULL;
    for (size_t i = 0; i < t->location_count; i++) {
        if (t->locations[i].id == location_id)
            return &t->locations[i];
    }
    return NULL;
}

uint64_t trace_enter_count(const trace_location_stats *loc, uint32_t region_id)
{
    if (loc == NULL || region_id >= loc->region_slots)
        return 0;
    return loc->enter_counts[region_id];
}

uint64_t trace_leave_count(const trace_location_stats *loc, uint32_t region_id)
{
    if (loc == NULL || region_id >= loc->region_slots)
        return 0;
    return loc->leave_counts[region_id];
}

const char *trace_location_property(const trace_model *t, uint64_t location_id, const char *name,
                                    uint64_t *value)
{
    if (t == NULL || name == NULL)
        return NULL;
    for (size_t i = 0; i < t->location_property_count; i++) {
        const trace_property *p = &t->location_properties[i];
        if (p->location == location_id && p->name != NULL && strcmp(p->name, name) == 0) {
            if (value != NULL)
                *value = p->value;
            return p->name;
        }
    }
    return NULL;
}

uint64_t trace_total_events(const trace_model *t)
{
    uint64_t total = 0;
    for (size_t i = 0; t != NULL && i < t->location_count; i++)
        total += t->locations[i].event_count;
    return total;
}

const char *trace_string_text(const trace_model *t, uint32_t id)
{
    for (size_t i = 0; t != NULL && i < t->string_count; i++) {
        if (t->strings[i].id == id)
            return t->strings[i].text;
    }
    return NULL;
}

const trace_region *trace_program_region(const trace_model *t)
{
    return t != NULL ? trace_region_by_id(t, t->program_region) : NULL;
}
/* SPDX-License-Identifier: BSD-3-Clause */
