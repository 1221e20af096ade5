/* SPDX-License-Identifier: BSD-3-Clause */
/* The global definitions the trace tools need: clock, strings, regions,
 * location groups and locations, the MPI groups and communicators. After
 * reading, every array is sorted by ref for lookups, each location gets its
 * world rank and each communicator its member list, so that the peer rank of
 * an MPI event can be turned into a world rank. Memory grows with the number
 * of definitions only. */
#include "trace_reader.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

/* --- Callbacks ----------------------------------------------------------------- */

static OTF2_CallbackCode on_clock(void *user_data, uint64_t resolution, uint64_t offset,
                                  uint64_t length, uint64_t realtime)
{
    (void)realtime;
    weft_trace_reader *st = user_data;
    st->have_clock = true;
    st->global_offset = offset;
    st->timer_resolution = resolution;
    st->trace_length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *user_data, OTF2_StringRef self, const char *text)
{
    weft_trace_reader *st = user_data;
    string_def def = {.ref = self, .text = strdup(text ? text : "")};
    if (!def.text)
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    if (!weft__cli_grow(&st->strings, &st->string_capacity, st->string_count + 1,
                        sizeof(*st->strings))) {
        free(def.text);
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    }
    st->strings[st->string_count++] = def;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *user_data, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical_name, OTF2_StringRef description,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef source_file,
                                   uint32_t begin_line, uint32_t end_line)
{
    (void)description;
    (void)flags;
    (void)end_line;
    weft_trace_reader *st = user_data;
    region_def def = {.ref = self,
                      .name_ref = name,
                      .canonical_ref = canonical_name,
                      .file_ref = source_file,
                      .begin_line = begin_line,
                      .paradigm = paradigm,
                      .role = role};
    if (!weft__cli_grow(&st->regions, &st->region_capacity, st->region_count + 1,
                        sizeof(*st->regions)))
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    st->regions[st->region_count++] = def;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location_group(void *user_data, OTF2_LocationGroupRef self,
                                           OTF2_StringRef name, OTF2_LocationGroupType type,
                                           OTF2_SystemTreeNodeRef parent,
                                           OTF2_LocationGroupRef creator)
{
    (void)parent;
    (void)creator;
    weft_trace_reader *st = user_data;
    /* Without an MPI location list, a location group's id is its rank, as in
     * Score-P's and weft's traces. */
    group_def def = {.ref = self,
                     .name_ref = name,
                     .type = type,
                     .rank = self < WEFT_TRACE_NO_RANK ? (uint32_t)self : WEFT_TRACE_NO_RANK};
    if (!weft__cli_grow(&st->groups, &st->group_capacity, st->group_count + 1, sizeof(*st->groups)))
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    st->groups[st->group_count++] = def;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *user_data, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t event_count,
                                     OTF2_LocationGroupRef group)
{
    weft_trace_reader *st = user_data;
    location_def def = {.ref = self,
                        .name_ref = name,
                        .group_ref = group,
                        .event_count = event_count,
                        .type = type,
                        .rank = WEFT_TRACE_NO_RANK,
                        .defined_at = (uint32_t)st->location_count};
    if (!weft__cli_grow(&st->locations, &st->location_capacity, st->location_count + 1,
                        sizeof(*st->locations)))
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    st->locations[st->location_count++] = def;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *user_data, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
                                  uint32_t count, const uint64_t *members)
{
    (void)name;
    weft_trace_reader *st = user_data;
    if (type != OTF2_GROUP_TYPE_COMM_LOCATIONS && type != OTF2_GROUP_TYPE_COMM_GROUP &&
        type != OTF2_GROUP_TYPE_COMM_SELF)
        return OTF2_CALLBACK_SUCCESS; /* location, region and metric groups: not needed */
    members_def def = {
        .ref = self, .type = type, .paradigm = paradigm, .flags = flags, .count = count};
    if (count > 0) {
        def.members = malloc(count * sizeof(*def.members));
        if (!def.members)
            return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
        memcpy(def.members, members, count * sizeof(*def.members));
    }
    if (!weft__cli_grow(&st->member_groups, &st->member_group_capacity, st->member_group_count + 1,
                        sizeof(*st->member_groups))) {
        free(def.members);
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    }
    st->member_groups[st->member_group_count++] = def;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *user_data, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    (void)flags;
    weft_trace_reader *st = user_data;
    comm_def def = {
        .ref = self, .name_ref = name, .group_ref = group, .parent = parent, .members = NOT_FOUND};
    if (!weft__cli_grow(&st->comms, &st->comm_capacity, st->comm_count + 1, sizeof(*st->comms)))
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    st->comms[st->comm_count++] = def;
    return OTF2_CALLBACK_SUCCESS;
}

/* The recorder's and weft recover's location properties: weft::events_lost,
 * weft::recovered and weft::events_left_out are kept (strings may come
 * after the properties, so the name is looked at later). */
static OTF2_CallbackCode on_location_property(void *user_data, OTF2_LocationRef location,
                                              OTF2_StringRef name, OTF2_Type type,
                                              OTF2_AttributeValue value)
{
    weft_trace_reader *st = user_data;
    uint64_t number;
    switch (type) {
    case OTF2_TYPE_UINT8:
        number = value.uint8;
        break;
    case OTF2_TYPE_UINT16:
        number = value.uint16;
        break;
    case OTF2_TYPE_UINT32:
        number = value.uint32;
        break;
    case OTF2_TYPE_UINT64:
        number = value.uint64;
        break;
    default:
        return OTF2_CALLBACK_SUCCESS; /* not one weft writes */
    }
    if (number == 0)
        return OTF2_CALLBACK_SUCCESS; /* nothing lost, nothing to keep */
    if (!weft__cli_grow(&st->properties, &st->property_capacity, st->property_count + 1,
                        sizeof(*st->properties)))
        return weft__trace_interrupt(st, WEFT_ERR_NO_MEMORY);
    st->properties[st->property_count++] =
        (property_def){.location = location, .name_ref = name, .value = number};
    return OTF2_CALLBACK_SUCCESS;
}

/* --- Sorting and lookups -------------------------------------------------------- */

/* Every definition struct starts with its uint64_t ref. */
static int compare_refs(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts COUNT items of SIZE bytes by ref and drops repeated definitions of
 * one ref (the first stays), so that no location's events are read twice.
 * Returns the new count. */
static size_t sort_unique(void *items, size_t count, size_t size)
{
    if (count < 2)
        return count;
    qsort(items, count, size, compare_refs);
    char *base = items;
    size_t kept = 1;
    for (size_t i = 1; i < count; i++) {
        if (compare_refs(base + (kept - 1) * size, base + i * size) != 0) {
            if (kept != i)
                memcpy(base + kept * size, base + i * size, size);
            kept++;
        }
    }
    return kept;
}

/* Definitions usually number their refs 0, 1, 2, ...: then ref is the index. */
static size_t find(const void *items, size_t count, size_t size, uint64_t ref)
{
    const char *base = items;
    if (ref < count && *(const uint64_t *)(base + ref * size) == ref)
        return (size_t)ref;
    if (count == 0)
        return NOT_FOUND;
    const char *found = bsearch(&ref, items, count, size, compare_refs);
    return found ? (size_t)(found - base) / size : NOT_FOUND;
}

const char *weft__trace_string(const weft_trace_reader *st, uint64_t ref)
{
    size_t i = find(st->strings, st->string_count, sizeof(*st->strings), ref);
    return i == NOT_FOUND ? NULL : st->strings[i].text;
}

size_t weft__trace_find_region(const weft_trace_reader *st, uint64_t ref)
{
    return find(st->regions, st->region_count, sizeof(*st->regions), ref);
}

/* Whether TEXT is NAME's strings ARGS joined by spaces (the canonical
 * name of a program region). */
static bool is_command_line(const weft_trace_reader *st, const char *text, const char *name,
                            uint32_t argc, const OTF2_StringRef *args)
{
    size_t len = strlen(name);
    if (strncmp(text, name, len) != 0)
        return false;
    text += len;
    for (uint32_t i = 0; i < argc; i++) {
        const char *arg = weft__trace_string(st, args[i]);
        if (!arg || *text != ' ')
            return false;
        len = strlen(arg);
        if (strncmp(text + 1, arg, len) != 0)
            return false;
        text += 1 + len;
    }
    return *text == '\0';
}

size_t weft__trace_find_program_region(const weft_trace_reader *st, uint64_t name, uint32_t argc,
                                         const OTF2_StringRef *args)
{
    const char *path = weft__trace_string(st, name);
    if (!path)
        return NOT_FOUND;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    for (size_t i = 0; i < st->region_count; i++) {
        const region_def *r = &st->regions[i];
        const char *display = weft__trace_string(st, r->name_ref);
        const char *canonical = weft__trace_string(st, r->canonical_ref);
        if (r->role == OTF2_REGION_ROLE_ARTIFICIAL &&
            r->paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM && display && canonical &&
            strcmp(display, base) == 0 && is_command_line(st, canonical, path, argc, args))
            return i;
    }
    return NOT_FOUND;
}

size_t weft__trace_find_comm(const weft_trace_reader *st, uint64_t ref)
{
    return find(st->comms, st->comm_count, sizeof(*st->comms), ref);
}

static size_t find_location(const weft_trace_reader *st, uint64_t ref)
{
    return find(st->locations, st->location_count, sizeof(*st->locations), ref);
}

size_t weft__trace_find_group(const weft_trace_reader *st, uint64_t ref)
{
    return find(st->groups, st->group_count, sizeof(*st->groups), ref);
}

/* The MPI location list (docs/dev/OTF2-CONVENTIONS.md section 3): member I is the
 * master location of world rank I. When a trace has one, it decides the
 * rank of each location group. Then every location takes its group's rank. */
static void resolve_ranks(weft_trace_reader *st)
{
    for (size_t g = 0; g < st->member_group_count; g++) {
        const members_def *list = &st->member_groups[g];
        if (list->type != OTF2_GROUP_TYPE_COMM_LOCATIONS || list->paradigm != OTF2_PARADIGM_MPI)
            continue;
        for (uint32_t rank = 0; rank < list->count && rank < WEFT_TRACE_NO_RANK; rank++) {
            size_t l = find_location(st, list->members[rank]);
            size_t group = l == NOT_FOUND
                               ? NOT_FOUND
                               : weft__trace_find_group(st, st->locations[l].group_ref);
            if (group != NOT_FOUND)
                st->groups[group].rank = rank;
        }
        break;
    }
    for (size_t l = 0; l < st->location_count; l++) {
        size_t group = weft__trace_find_group(st, st->locations[l].group_ref);
        if (group != NOT_FOUND)
            st->locations[l].rank = st->groups[group].rank;
    }
}

/* Each location's weft::events_lost, weft::recovered and
 * weft::events_left_out, once strings and locations are sorted. */
static void resolve_properties(weft_trace_reader *st)
{
    for (size_t i = 0; i < st->property_count; i++) {
        const property_def *p = &st->properties[i];
        const char *name = weft__trace_string(st, p->name_ref);
        size_t l = find_location(st, p->location);
        if (!name || l == NOT_FOUND)
            continue;
        if (strcmp(name, WEFT_TRACE_EVENTS_LOST) == 0)
            st->locations[l].events_lost = p->value;
        else if (strcmp(name, WEFT_TRACE_RECOVERED) == 0)
            st->locations[l].recovered = true;
        else if (strcmp(name, WEFT_TRACE_EVENTS_LEFT_OUT) == 0)
            st->locations[l].events_left_out = p->value;
    }
}

static void resolve_comms(weft_trace_reader *st)
{
    for (size_t c = 0; c < st->comm_count; c++) {
        st->comms[c].members = find(st->member_groups, st->member_group_count,
                                    sizeof(*st->member_groups), st->comms[c].group_ref);
    }
}

/* docs/dev/OTF2-CONVENTIONS.md section 3: a COMM_GROUP's members are world ranks
 * (indices into the MPI location list), and an event on it names the
 * member's index, unless the group says its event ranks are global already. */
uint32_t weft__trace_world_rank(const weft_trace_reader *st, size_t comm, uint32_t rank,
                                  uint32_t own_rank)
{
    if (comm == NOT_FOUND)
        return WEFT_TRACE_NO_RANK;
    size_t g = st->comms[comm].members;
    if (g == NOT_FOUND)
        return rank; /* no group: take the rank as it is */
    const members_def *group = &st->member_groups[g];
    switch (group->type) {
    case OTF2_GROUP_TYPE_COMM_SELF:
        return own_rank;
    case OTF2_GROUP_TYPE_COMM_GROUP:
        if (group->flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS)
            return rank;
        if (rank < group->count && group->members[rank] < WEFT_TRACE_NO_RANK)
            return (uint32_t)group->members[rank];
        return WEFT_TRACE_NO_RANK;
    default:
        return rank;
    }
}

uint64_t weft__trace_comm_size(const weft_trace_reader *st, size_t comm)
{
    size_t g = comm == NOT_FOUND ? NOT_FOUND : st->comms[comm].members;
    if (g == NOT_FOUND)
        return 0;
    const members_def *group = &st->member_groups[g];
    return group->type == OTF2_GROUP_TYPE_COMM_SELF ? 1 : group->count;
}

/* --- Reading ------------------------------------------------------------------------ */

static weft_status register_callbacks(weft_trace_reader *st, OTF2_Reader *reader,
                                      OTF2_GlobalDefReader *defs, OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_ErrorCode code = OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
    if (code == OTF2_SUCCESS)
        code = weft__trace_set_io_rma_def_callbacks(cb);
    if (code == OTF2_SUCCESS)
        code = OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(cb, on_location_property);
    if (code == OTF2_SUCCESS)
        code = OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, st);
    return weft__trace_otf2_ok(st, code, "cannot set up reading the definitions of")
               ? WEFT_OK
               : WEFT_ERR_OTF2;
}

weft_status weft__trace_read_defs(weft_trace_reader *st, OTF2_Reader *reader)
{
    OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(reader);
    if (!defs) {
        weft__trace_report(st, OTF2_SUCCESS, DAMAGED, "cannot open the global definitions of");
        return WEFT_ERR_OTF2;
    }
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!cb) {
        weft__trace_report(st, OTF2_SUCCESS, NULL, "out of memory reading");
        return WEFT_ERR_NO_MEMORY;
    }
    weft_status status = register_callbacks(st, reader, defs, cb);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    if (status != WEFT_OK)
        return status;

    uint64_t count = 0;
    OTF2_ErrorCode code = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &count);
    if (code != OTF2_SUCCESS) {
        if (st->failure == WEFT_ERR_NO_MEMORY) {
            weft__trace_report(st, OTF2_SUCCESS, NULL,
                                 "out of memory reading the definitions of");
            return WEFT_ERR_NO_MEMORY;
        }
        weft__trace_report(st, code, DAMAGED, "cannot read the global definitions of");
        return WEFT_ERR_OTF2;
    }
    if (!weft__trace_otf2_ok(st, OTF2_Reader_CloseGlobalDefReader(reader, defs),
                               "cannot close the global definitions of"))
        return WEFT_ERR_OTF2;

    if (!st->have_clock || st->timer_resolution == 0) {
        weft__trace_report(st, OTF2_SUCCESS, DAMAGED,
                             "no ClockProperties definition (timer resolution) in");
        return WEFT_ERR_OTF2;
    }
    /* A repeated string, region or group keeps its first definition; the
     * strings of dropped duplicates are freed first. */
    if (st->string_count > 1) {
        qsort(st->strings, st->string_count, sizeof(*st->strings), compare_refs);
        size_t kept = 1;
        for (size_t i = 1; i < st->string_count; i++) {
            if (st->strings[i].ref == st->strings[kept - 1].ref)
                free(st->strings[i].text);
            else
                st->strings[kept++] = st->strings[i];
        }
        st->string_count = kept;
    }
    if (st->member_group_count > 1) {
        qsort(st->member_groups, st->member_group_count, sizeof(*st->member_groups), compare_refs);
        size_t kept = 1;
        for (size_t i = 1; i < st->member_group_count; i++) {
            if (st->member_groups[i].ref == st->member_groups[kept - 1].ref)
                free(st->member_groups[i].members);
            else
                st->member_groups[kept++] = st->member_groups[i];
        }
        st->member_group_count = kept;
    }
    st->region_count = sort_unique(st->regions, st->region_count, sizeof(*st->regions));
    st->group_count = sort_unique(st->groups, st->group_count, sizeof(*st->groups));
    st->location_count = sort_unique(st->locations, st->location_count, sizeof(*st->locations));
    st->comm_count = sort_unique(st->comms, st->comm_count, sizeof(*st->comms));
    resolve_ranks(st);
    resolve_comms(st);
    resolve_properties(st);
    return WEFT_OK;
}

void weft__trace_free(weft_trace_reader *st)
{
    for (size_t i = 0; i < st->string_count; i++)
        free(st->strings[i].text);
    free(st->strings);
    free(st->regions);
    free(st->groups);
    free(st->locations);
    for (size_t i = 0; i < st->member_group_count; i++)
        free(st->member_groups[i].members);
    free(st->member_groups);
    free(st->comms);
    weft__trace_io_rma_free(st);
    free(st->properties);
    free(st->archive_base);
    st->archive_base = NULL;
}
