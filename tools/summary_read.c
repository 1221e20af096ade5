/* Reads an OTF2 archive for `weft summary`: the global definitions (clock,
 * strings, regions, location groups, locations), then each location's events
 * in turn through a local event reader, feeding enter/leave to the summary
 * builder. Only one location is being read at any time, so memory does not
 * grow with the number of events. Errors of the OTF2 library are captured
 * and folded into the single line this file prints when reading fails. */
#include "summary.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#define NOT_FOUND SIZE_MAX
#define DAMAGED "the trace is damaged or truncated"

typedef struct string_def {
    uint64_t ref;
    char *text; /* owned */
} string_def;

typedef struct region_def {
    uint64_t ref;
    uint64_t name_ref;
} region_def;

typedef struct location_def {
    uint64_t ref;
    uint64_t event_count; /* as the definition claims */
} location_def;

/* Everything collected while reading; freed by free_state. */
typedef struct read_state {
    const char *path;

    string_def *strings;
    size_t string_count, string_capacity;
    region_def *regions; /* sorted by ref once the definitions are read */
    size_t region_count, region_capacity;
    location_def *locations; /* sorted by ref, duplicates dropped; read in this order */
    size_t location_count, location_capacity;
    uint64_t group_count;
    bool have_clock;
    uint64_t timer_resolution;
    uint64_t trace_length;

    weft_summary_builder *builder;
    uint64_t event_count;
    uint64_t undefined_region_count;
    weft_status failure; /* why a callback stopped the reading */
} read_state;

/* The first message the OTF2 library reported since the last reset. OTF2's
 * error callback is process-wide, so this is too; the command is single-threaded. */
static char otf2_message[256];

static OTF2_ErrorCode capture_otf2_error(void *user_data, const char *file, uint64_t line,
                                         const char *function, OTF2_ErrorCode code,
                                         const char *format, va_list va)
{
    (void)user_data;
    (void)file;
    (void)line;
    (void)function;
    if (otf2_message[0] == '\0') {
        char text[200] = "";
        if (format)
            vsnprintf(text, sizeof(text), format, va);
        const char *description = OTF2_Error_GetDescription(code);
        if (!description)
            description = "unknown OTF2 error";
        if (text[0])
            snprintf(otf2_message, sizeof(otf2_message), "%s (%s)", text, description);
        else
            snprintf(otf2_message, sizeof(otf2_message), "%s", text[0] ? text : description);
        /* Keep the report to one line. */
        for (char *p = otf2_message; *p; p++) {
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        }
    }
    return code;
}

/* Prints the one failure line, "weft summary: WHAT 'PATH': WHY; HINT": what
 * failed, on which file, why (the OTF2 library's first message, else the
 * description of CODE) and, when HINT is not NULL, what to make of it. */
static void report(const read_state *st, OTF2_ErrorCode code, const char *hint, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));

static void report(const read_state *st, OTF2_ErrorCode code, const char *hint, const char *fmt,
                   ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    const char *why = otf2_message[0]        ? otf2_message
                      : code != OTF2_SUCCESS ? OTF2_Error_GetDescription(code)
                                             : NULL;
    fprintf(stderr, "weft summary: %s '%s'%s%s%s%s\n", what, st->path, why ? ": " : "",
            why ? why : "", hint ? "; " : "", hint ? hint : "");
}

/* Makes room for one more item in a growable array of COUNT items. Returns
 * the array to use from now on (ITEMS itself while there is room), or NULL
 * when out of memory, leaving ITEMS and *CAPACITY as they were. */
static void *room_for_one(void *items, size_t *capacity, size_t count, size_t item_size)
{
    if (count < *capacity)
        return items;
    size_t grown_capacity = *capacity ? 2 * *capacity : 64;
    if (grown_capacity > SIZE_MAX / item_size)
        return NULL;
    void *grown = realloc(items, grown_capacity * item_size);
    if (grown)
        *capacity = grown_capacity;
    return grown;
}

static OTF2_CallbackCode interrupt(read_state *st, weft_status why)
{
    st->failure = why;
    return OTF2_CALLBACK_INTERRUPT;
}

/* --- Global definitions ---------------------------------------------------- */

static OTF2_CallbackCode on_clock(void *user_data, uint64_t resolution, uint64_t offset,
                                  uint64_t length, uint64_t realtime)
{
    (void)offset;
    (void)realtime;
    read_state *st = user_data;
    st->have_clock = true;
    st->timer_resolution = resolution;
    st->trace_length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *user_data, OTF2_StringRef self, const char *text)
{
    read_state *st = user_data;
    string_def *strings =
        room_for_one(st->strings, &st->string_capacity, st->string_count, sizeof(*strings));
    if (!strings)
        return interrupt(st, WEFT_ERR_NO_MEMORY);
    st->strings = strings;
    char *copy = strdup(text ? text : "");
    if (!copy)
        return interrupt(st, WEFT_ERR_NO_MEMORY);
    st->strings[st->string_count++] = (string_def){.ref = self, .text = copy};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *user_data, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical_name, OTF2_StringRef description,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef source_file,
                                   uint32_t begin_line, uint32_t end_line)
{
    (void)canonical_name;
    (void)description;
    (void)role;
    (void)paradigm;
    (void)flags;
    (void)source_file;
    (void)begin_line;
    (void)end_line;
    read_state *st = user_data;
    region_def *regions =
        room_for_one(st->regions, &st->region_capacity, st->region_count, sizeof(*regions));
    if (!regions)
        return interrupt(st, WEFT_ERR_NO_MEMORY);
    st->regions = regions;
    st->regions[st->region_count++] = (region_def){.ref = self, .name_ref = name};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location_group(void *user_data, OTF2_LocationGroupRef self,
                                           OTF2_StringRef name, OTF2_LocationGroupType type,
                                           OTF2_SystemTreeNodeRef parent,
                                           OTF2_LocationGroupRef creator)
{
    (void)self;
    (void)name;
    (void)type;
    (void)parent;
    (void)creator;
    read_state *st = user_data;
    st->group_count++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *user_data, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t event_count,
                                     OTF2_LocationGroupRef group)
{
    (void)name;
    (void)type;
    (void)group;
    read_state *st = user_data;
    location_def *locations =
        room_for_one(st->locations, &st->location_capacity, st->location_count, sizeof(*locations));
    if (!locations)
        return interrupt(st, WEFT_ERR_NO_MEMORY);
    st->locations = locations;
    st->locations[st->location_count++] = (location_def){.ref = self, .event_count = event_count};
    return OTF2_CALLBACK_SUCCESS;
}

static int compare_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

static int compare_strings(const void *a, const void *b)
{
    return compare_u64(((const string_def *)a)->ref, ((const string_def *)b)->ref);
}

static int compare_regions(const void *a, const void *b)
{
    return compare_u64(((const region_def *)a)->ref, ((const region_def *)b)->ref);
}

static int compare_locations(const void *a, const void *b)
{
    return compare_u64(((const location_def *)a)->ref, ((const location_def *)b)->ref);
}

/* Sorts the locations and drops repeated definitions, so that no location's
 * events are read twice. */
static void sort_locations(read_state *st)
{
    if (st->location_count < 2)
        return;
    qsort(st->locations, st->location_count, sizeof(*st->locations), compare_locations);
    size_t kept = 0;
    for (size_t i = 0; i < st->location_count; i++) {
        if (kept == 0 || st->locations[kept - 1].ref != st->locations[i].ref)
            st->locations[kept++] = st->locations[i];
    }
    st->location_count = kept;
}

/* Definitions usually number their refs 0, 1, 2, ...: then ref is the index. */
static const string_def *find_string(const read_state *st, uint64_t ref)
{
    if (ref < st->string_count && st->strings[ref].ref == ref)
        return &st->strings[ref];
    if (st->string_count == 0)
        return NULL;
    string_def key = {.ref = ref};
    return bsearch(&key, st->strings, st->string_count, sizeof(key), compare_strings);
}

static size_t find_region(const read_state *st, uint64_t ref)
{
    if (ref < st->region_count && st->regions[ref].ref == ref)
        return (size_t)ref;
    if (st->region_count == 0)
        return NOT_FOUND;
    region_def key = {.ref = ref};
    const region_def *found =
        bsearch(&key, st->regions, st->region_count, sizeof(key), compare_regions);
    return found ? (size_t)(found - st->regions) : NOT_FOUND;
}

/* True when CODE is success; otherwise reports "WHAT '<path>': why" and returns false. */
static bool otf2_ok(const read_state *st, OTF2_ErrorCode code, const char *what)
{
    if (code == OTF2_SUCCESS)
        return true;
    report(st, code, NULL, "%s", what);
    return false;
}

static weft_status register_global_def_callbacks(read_state *st, OTF2_Reader *reader,
                                                 OTF2_GlobalDefReader *defs,
                                                 OTF2_GlobalDefReaderCallbacks *cb)
{
    const char *what = "cannot set up reading the definitions of";
    if (!otf2_ok(st, OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock), what))
        return WEFT_ERR_OTF2;
    if (!otf2_ok(st, OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string), what))
        return WEFT_ERR_OTF2;
    if (!otf2_ok(st, OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region), what))
        return WEFT_ERR_OTF2;
    if (!otf2_ok(st, OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group),
                 what))
        return WEFT_ERR_OTF2;
    if (!otf2_ok(st, OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location), what))
        return WEFT_ERR_OTF2;
    if (!otf2_ok(st, OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, st), what))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

static weft_status read_global_defs(read_state *st, OTF2_Reader *reader)
{
    OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(reader);
    if (!defs) {
        report(st, OTF2_SUCCESS, DAMAGED, "cannot open the global definitions of");
        return WEFT_ERR_OTF2;
    }
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!cb) {
        report(st, OTF2_SUCCESS, NULL, "out of memory reading");
        return WEFT_ERR_NO_MEMORY;
    }
    weft_status status = register_global_def_callbacks(st, reader, defs, cb);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    if (status != WEFT_OK)
        return status;

    uint64_t count = 0;
    OTF2_ErrorCode code = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &count);
    if (code != OTF2_SUCCESS) {
        if (st->failure == WEFT_ERR_NO_MEMORY) {
            report(st, OTF2_SUCCESS, NULL, "out of memory reading the definitions of");
            return WEFT_ERR_NO_MEMORY;
        }
        report(st, code, DAMAGED, "cannot read the global definitions of");
        return WEFT_ERR_OTF2;
    }
    if (!otf2_ok(st, OTF2_Reader_CloseGlobalDefReader(reader, defs),
                 "cannot close the global definitions of"))
        return WEFT_ERR_OTF2;

    if (!st->have_clock || st->timer_resolution == 0) {
        report(st, OTF2_SUCCESS, DAMAGED, "no ClockProperties definition (timer resolution) in");
        return WEFT_ERR_OTF2;
    }
    /* qsort and bsearch want valid arrays even when empty; glibc marks them nonnull. */
    if (st->string_count > 1)
        qsort(st->strings, st->string_count, sizeof(*st->strings), compare_strings);
    if (st->region_count > 1)
        qsort(st->regions, st->region_count, sizeof(*st->regions), compare_regions);
    sort_locations(st);
    return WEFT_OK;
}

/* --- Events ------------------------------------------------------------------ */

static OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    (void)location;
    (void)position;
    (void)attributes;
    read_state *st = user_data;
    size_t index = find_region(st, region);
    if (index == NOT_FOUND) {
        st->undefined_region_count++;
        return OTF2_CALLBACK_SUCCESS;
    }
    weft_status status = weft__summary_enter(st->builder, index, time);
    return status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : interrupt(st, status);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    (void)location;
    (void)position;
    (void)attributes;
    read_state *st = user_data;
    size_t index = find_region(st, region);
    if (index == NOT_FOUND)
        st->undefined_region_count++;
    else
        weft__summary_leave(st->builder, index, time);
    return OTF2_CALLBACK_SUCCESS;
}

/* Local definitions hold the mapping tables of a location; they are optional. */
static weft_status read_local_defs(read_state *st, OTF2_Reader *reader, uint64_t location)
{
    OTF2_DefReader *defs = OTF2_Reader_GetDefReader(reader, location);
    if (!defs) {
        otf2_message[0] = '\0'; /* whatever OTF2 said about the missing file */
        return WEFT_OK;
    }
    uint64_t count = 0;
    OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &count);
    if (code != OTF2_SUCCESS) {
        report(st, code, DAMAGED, "cannot read the definitions of location %" PRIu64 " in",
               location);
        return WEFT_ERR_OTF2;
    }
    if (!otf2_ok(st, OTF2_Reader_CloseDefReader(reader, defs),
                 "cannot close the local definitions of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

/* Reads one location's local definitions and events into the builder. A
 * location whose definition claims no events may lack an event file. */
static weft_status read_location(read_state *st, OTF2_Reader *reader, bool have_def_files,
                                 const OTF2_EvtReaderCallbacks *cb, const location_def *def)
{
    uint64_t location = def->ref;
    if (have_def_files) {
        weft_status status = read_local_defs(st, reader, location);
        if (status != WEFT_OK)
            return status;
    }
    OTF2_EvtReader *events = OTF2_Reader_GetEvtReader(reader, location);
    if (!events && def->event_count == 0) {
        otf2_message[0] = '\0';
        return WEFT_OK;
    }
    if (!events) {
        report(st, OTF2_SUCCESS, DAMAGED, "cannot open the events of location %" PRIu64 " in",
               location);
        return WEFT_ERR_OTF2;
    }
    if (!otf2_ok(st, OTF2_Reader_RegisterEvtCallbacks(reader, events, cb, st),
                 "cannot set up reading the events of"))
        return WEFT_ERR_OTF2;

    weft__summary_location_begin(st->builder);
    uint64_t count = 0;
    OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalEvents(reader, events, &count);
    st->event_count += count;
    if (code != OTF2_SUCCESS) {
        if (st->failure == WEFT_ERR_NO_MEMORY) {
            report(st, OTF2_SUCCESS, NULL, "out of memory reading");
            return WEFT_ERR_NO_MEMORY;
        }
        report(st, code, DAMAGED, "cannot read the events of location %" PRIu64 " in", location);
        return WEFT_ERR_OTF2;
    }
    weft__summary_location_end(st->builder);
    if (!otf2_ok(st, OTF2_Reader_CloseEvtReader(reader, events), "cannot close the events of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

static weft_status read_events(read_state *st, OTF2_Reader *reader,
                               const OTF2_EvtReaderCallbacks *cb)
{
    for (size_t i = 0; i < st->location_count; i++) {
        if (!otf2_ok(st, OTF2_Reader_SelectLocation(reader, st->locations[i].ref),
                     "cannot select the locations of"))
            return WEFT_ERR_OTF2;
    }
    bool have_def_files = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
    otf2_message[0] = '\0'; /* local definition files are optional */
    if (!otf2_ok(st, OTF2_Reader_OpenEvtFiles(reader), "cannot open the event files of"))
        return WEFT_ERR_OTF2;
    for (size_t i = 0; i < st->location_count; i++) {
        weft_status status = read_location(st, reader, have_def_files, cb, &st->locations[i]);
        if (status != WEFT_OK)
            return status;
    }
    if (!otf2_ok(st, OTF2_Reader_CloseEvtFiles(reader), "cannot close the event files of"))
        return WEFT_ERR_OTF2;
    if (have_def_files &&
        !otf2_ok(st, OTF2_Reader_CloseDefFiles(reader), "cannot close the definition files of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

static weft_status read_all_events(read_state *st, OTF2_Reader *reader)
{
    st->builder = weft__summary_builder_create(st->region_count);
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!st->builder || !cb) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        report(st, OTF2_SUCCESS, NULL, "out of memory reading");
        return WEFT_ERR_NO_MEMORY;
    }
    weft_status status = WEFT_OK;
    OTF2_ErrorCode code = OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
    if (code != OTF2_SUCCESS) {
        report(st, code, NULL, "cannot set up reading the events of");
        status = WEFT_ERR_OTF2;
    } else {
        status = read_events(st, reader, cb);
    }
    OTF2_EvtReaderCallbacks_Delete(cb);
    return status;
}

/* --- The result ----------------------------------------------------------------- */

static char *region_name(const read_state *st, const region_def *def)
{
    const string_def *name = find_string(st, def->name_ref);
    if (name)
        return strdup(name->text);
    char fallback[48];
    snprintf(fallback, sizeof(fallback), "<region %" PRIu64 ">", def->ref);
    return strdup(fallback);
}

static weft_status make_summary(read_state *st, weft_summary *out)
{
    const weft_summary_region *sums = weft__summary_builder_regions(st->builder);
    weft_summary_totals totals = weft__summary_builder_totals(st->builder);

    out->trace_path = strdup(st->path);
    size_t visited = 0;
    for (size_t i = 0; i < st->region_count; i++)
        visited += sums[i].visits > 0;
    out->regions = calloc(visited ? visited : 1, sizeof(*out->regions));
    if (!out->trace_path || !out->regions) {
        report(st, OTF2_SUCCESS, NULL, "out of memory summarising");
        return WEFT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < st->region_count; i++) {
        if (sums[i].visits == 0)
            continue;
        weft_summary_region *r = &out->regions[out->region_count++];
        *r = sums[i];
        r->name = region_name(st, &st->regions[i]);
        if (!r->name) {
            report(st, OTF2_SUCCESS, NULL, "out of memory summarising");
            return WEFT_ERR_NO_MEMORY;
        }
    }
    weft__summary_sort(out);

    out->timer_resolution = st->timer_resolution;
    if (st->trace_length > 0)
        out->duration_ticks = st->trace_length;
    else if (totals.last_ticks > totals.first_ticks)
        out->duration_ticks = totals.last_ticks - totals.first_ticks;
    out->location_group_count = st->group_count;
    out->location_count = st->location_count;
    out->event_count = st->event_count;
    out->root_incl_ticks = totals.root_incl_ticks;
    out->unbalanced_count = totals.unbalanced_count;
    out->undefined_region_count = st->undefined_region_count;
    return WEFT_OK;
}

static void free_state(read_state *st)
{
    weft__summary_builder_destroy(st->builder);
    for (size_t i = 0; i < st->string_count; i++)
        free(st->strings[i].text);
    free(st->strings);
    free(st->regions);
    free(st->locations);
}

weft_status weft__summary_read(const char *anchor_path, weft_summary *out)
{
    memset(out, 0, sizeof(*out));
    read_state st = {.path = anchor_path, .failure = WEFT_OK};
    otf2_message[0] = '\0';
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(capture_otf2_error, NULL);

    weft_status status = WEFT_OK;
    OTF2_Reader *reader = OTF2_Reader_Open(anchor_path);
    if (!reader) {
        report(&st, OTF2_SUCCESS, "give an experiment directory or its .otf2 anchor file",
               "cannot open the OTF2 archive");
        status = WEFT_ERR_OTF2;
        goto fail;
    }
    OTF2_ErrorCode code = OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    if (code != OTF2_SUCCESS) {
        report(&st, code, NULL, "cannot set up reading");
        status = WEFT_ERR_OTF2;
        goto fail;
    }
    status = read_global_defs(&st, reader);
    if (status == WEFT_OK)
        status = read_all_events(&st, reader);
    if (status == WEFT_OK)
        status = make_summary(&st, out);

fail:
    if (reader) {
        code = OTF2_Reader_Close(reader);
        if (code != OTF2_SUCCESS && status == WEFT_OK) {
            report(&st, code, DAMAGED, "cannot close");
            status = WEFT_ERR_OTF2;
        }
    }
    free_state(&st);
    OTF2_Error_RegisterCallback(previous, NULL);
    if (status != WEFT_OK)
        weft__summary_clear(out);
    return status;
}
