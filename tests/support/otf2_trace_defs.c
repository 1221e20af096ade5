/* Global definition reading for the test trace reader: one OTF2 callback per definition
 * kind the tests care about (clock properties, strings, regions, system tree, location
 * groups, locations and their properties, groups, communicators), each appending to the
 * model. After reading, string ids are resolved to texts and the per-region counters of
 * every location are sized. Other definition kinds are ignored.
 */
#include "otf2_trace_internal.h"

#include <stdlib.h>
#include <string.h>

static OTF2_CallbackCode on_clock_properties(void *data, uint64_t timer_resolution,
                                             uint64_t global_offset, uint64_t trace_length,
                                             uint64_t realtime_timestamp)
{
    trace_model *t = ((trace__loader *)data)->model;
    t->has_clock_properties = true;
    t->timer_resolution = timer_resolution;
    t->global_offset = global_offset;
    t->trace_length = trace_length;
    t->realtime_timestamp = realtime_timestamp;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode out_of_memory(trace__loader *ld, const char *what)
{
    trace__fail(ld, "out of memory while reading %s definitions", what);
    return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode on_string(void *data, OTF2_StringRef self, const char *string)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    void *grown = trace__grow(t->strings, &ld->string_cap, t->string_count, sizeof *t->strings);
    if (grown == NULL)
        return out_of_memory(ld, "string");
    t->strings = grown;
    char *copy = trace__strdup(string != NULL ? string : "");
    if (copy == NULL)
        return out_of_memory(ld, "string");
    t->strings[t->string_count++] = (trace_string){.id = self, .text = copy};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric_member(void *data, OTF2_MetricMemberRef self,
                                          OTF2_StringRef name, OTF2_StringRef description,
                                          OTF2_MetricType metric_type, OTF2_MetricMode mode,
                                          OTF2_Type value_type, OTF2_Base base, int64_t exponent,
                                          OTF2_StringRef unit)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    (void)description;
    (void)base;
    void *grown = trace__grow(t->metric_members, &ld->metric_member_cap, t->metric_member_count,
                              sizeof *t->metric_members);
    if (grown == NULL)
        return out_of_memory(ld, "metric member");
    t->metric_members = grown;
    t->metric_members[t->metric_member_count++] = (trace_metric_member){
        .id = self,
        .name_id = name,
        .unit_id = unit,
        .metric_type = metric_type,
        .mode = mode,
        .value_type = value_type,
        .exponent = exponent,
    };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric_class(void *data, OTF2_MetricRef self, uint8_t count,
                                         const OTF2_MetricMemberRef *members,
                                         OTF2_MetricOccurrence occurrence,
                                         OTF2_RecorderKind recorder_kind)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    (void)occurrence;
    (void)recorder_kind;
    void *grown = trace__grow(t->metric_classes, &ld->metric_class_cap, t->metric_class_count,
                              sizeof *t->metric_classes);
    if (grown == NULL)
        return out_of_memory(ld, "metric class");
    t->metric_classes = grown;
    trace_metric_class *c = &t->metric_classes[t->metric_class_count++];
    *c = (trace_metric_class){.id = self, .member_count = count};
    for (uint8_t i = 0; i < count && i < TRACE_METRIC_MEMBERS_KEPT; i++)
        c->members[i] = members[i];
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *data, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical_name, OTF2_StringRef description,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef source_file,
                                   uint32_t begin_line, uint32_t end_line)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    (void)description;
    (void)flags;
    void *grown = trace__grow(t->regions, &ld->region_cap, t->region_count, sizeof *t->regions);
    if (grown == NULL)
        return out_of_memory(ld, "region");
    t->regions = grown;
    t->regions[t->region_count++] = (trace_region){
        .id = self,
        .name_id = name,
        .canonical_name_id = canonical_name,
        .source_file_id = source_file,
        .begin_line = begin_line,
        .end_line = end_line,
        .role = role,
        .paradigm = paradigm,
    };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_system_tree_node(void *data, OTF2_SystemTreeNodeRef self,
                                             OTF2_StringRef name, OTF2_StringRef class_name,
                                             OTF2_SystemTreeNodeRef parent)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    void *grown = trace__grow(t->system_tree_nodes, &ld->system_tree_node_cap,
                              t->system_tree_node_count, sizeof *t->system_tree_nodes);
    if (grown == NULL)
        return out_of_memory(ld, "system tree node");
    t->system_tree_nodes = grown;
    t->system_tree_nodes[t->system_tree_node_count++] = (trace_system_tree_node){
        .id = self, .name_id = name, .class_name_id = class_name, .parent = parent};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location_group(void *data, OTF2_LocationGroupRef self,
                                           OTF2_StringRef name, OTF2_LocationGroupType type,
                                           OTF2_SystemTreeNodeRef system_tree_parent,
                                           OTF2_LocationGroupRef creating_group)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    (void)creating_group;
    void *grown = trace__grow(t->location_groups, &ld->location_group_cap, t->location_group_count,
                              sizeof *t->location_groups);
    if (grown == NULL)
        return out_of_memory(ld, "location group");
    t->location_groups = grown;
    t->location_groups[t->location_group_count++] = (trace_location_group){
        .id = self, .name_id = name, .type = type, .system_tree_parent = system_tree_parent};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *data, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t number_of_events,
                                     OTF2_LocationGroupRef group)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    void *grown =
        trace__grow(t->locations, &ld->location_cap, t->location_count, sizeof *t->locations);
    if (grown == NULL)
        return out_of_memory(ld, "location");
    t->locations = grown;
    trace_location_stats *loc = &t->locations[t->location_count++];
    memset(loc, 0, sizeof *loc);
    loc->id = self;
    loc->name_id = name;
    loc->type = type;
    loc->group = group;
    loc->defined_event_count = number_of_events;
    return OTF2_CALLBACK_SUCCESS;
}

/* Widens a property value to 64 bits as documented on trace_property.value. */
static uint64_t attribute_to_u64(OTF2_Type type, OTF2_AttributeValue value)
{
    uint32_t bits32 = 0;
    uint64_t bits64 = 0;
    switch (type) {
    case OTF2_TYPE_NONE:
        return 0;
    case OTF2_TYPE_UINT8:
        return value.uint8;
    case OTF2_TYPE_UINT16:
        return value.uint16;
    case OTF2_TYPE_UINT32:
        return value.uint32;
    case OTF2_TYPE_UINT64:
        return value.uint64;
    case OTF2_TYPE_INT8:
        return (uint64_t)(int64_t)value.int8;
    case OTF2_TYPE_INT16:
        return (uint64_t)(int64_t)value.int16;
    case OTF2_TYPE_INT32:
        return (uint64_t)(int64_t)value.int32;
    case OTF2_TYPE_INT64:
        return (uint64_t)value.int64;
    case OTF2_TYPE_FLOAT:
        memcpy(&bits32, &value.float32, sizeof bits32);
        return bits32;
    case OTF2_TYPE_DOUBLE:
        memcpy(&bits64, &value.float64, sizeof bits64);
        return bits64;
    case OTF2_TYPE_LOCATION:
        return value.locationRef;
    default:
        /* Every other OTF2 type is a 32-bit definition reference. */
        return value.uint32;
    }
}

static OTF2_CallbackCode on_location_property(void *data, OTF2_LocationRef location,
                                              OTF2_StringRef name, OTF2_Type type,
                                              OTF2_AttributeValue value)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    void *grown = trace__grow(t->location_properties, &ld->location_property_cap,
                              t->location_property_count, sizeof *t->location_properties);
    if (grown == NULL)
        return out_of_memory(ld, "location property");
    t->location_properties = grown;
    t->location_properties[t->location_property_count++] = (trace_property){
        .location = location,
        .name_id = name,
        .type = type,
        .value = attribute_to_u64(type, value),
    };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *data, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
                                  uint32_t member_count, const uint64_t *members)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    (void)flags;
    void *grown = trace__grow(t->groups, &ld->group_cap, t->group_count, sizeof *t->groups);
    if (grown == NULL)
        return out_of_memory(ld, "group");
    t->groups = grown;
    uint64_t *copy = NULL;
    if (member_count > 0) {
        copy = malloc(member_count * sizeof *copy);
        if (copy == NULL)
            return out_of_memory(ld, "group");
        memcpy(copy, members, member_count * sizeof *copy);
    }
    t->groups[t->group_count++] = (trace_group){
        .id = self,
        .name_id = name,
        .type = type,
        .paradigm = paradigm,
        .member_count = member_count,
        .members = copy,
    };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *data, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    trace__loader *ld = data;
    trace_model *t = ld->model;
    (void)flags;
    void *grown = trace__grow(t->comms, &ld->comm_cap, t->comm_count, sizeof *t->comms);
    if (grown == NULL)
        return out_of_memory(ld, "comm");
    t->comms = grown;
    t->comms[t->comm_count++] = (trace_comm){
        .id = self,
        .name_id = name,
        .group = group,
        .parent = parent,
        .paradigm = OTF2_PARADIGM_UNKNOWN,
    };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode add_object(trace__loader *ld, trace_object obj)
{
    trace_model *t = ld->model;
    void *grown = trace__grow(t->objects, &ld->object_cap, t->object_count, sizeof *t->objects);
    if (grown == NULL)
        return out_of_memory(ld, "I/O or RMA definition");
    t->objects = grown;
    t->objects[t->object_count++] = obj;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_io_file(void *data, OTF2_IoFileRef self, OTF2_StringRef name,
                                    OTF2_SystemTreeNodeRef scope)
{
    (void)scope;
    return add_object(data, (trace_object){.kind = TRACE_OBJECT_IO_FILE,
                                           .id = self,
                                           .name_id = name,
                                           .file = OTF2_UNDEFINED_IO_FILE,
                                           .comm = OTF2_UNDEFINED_COMM});
}

static OTF2_CallbackCode on_io_handle(void *data, OTF2_IoHandleRef self, OTF2_StringRef name,
                                      OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm,
                                      OTF2_IoHandleFlag flags, OTF2_CommRef comm,
                                      OTF2_IoHandleRef parent)
{
    (void)paradigm, (void)flags, (void)parent;
    return add_object(data, (trace_object){.kind = TRACE_OBJECT_IO_HANDLE,
                                           .id = self,
                                           .name_id = name,
                                           .file = file,
                                           .comm = comm});
}

static OTF2_CallbackCode on_rma_win(void *data, OTF2_RmaWinRef self, OTF2_StringRef name,
                                    OTF2_CommRef comm, OTF2_RmaWinFlag flags)
{
    (void)flags;
    return add_object(data, (trace_object){.kind = TRACE_OBJECT_RMA_WIN,
                                           .id = self,
                                           .name_id = name,
                                           .file = OTF2_UNDEFINED_IO_FILE,
                                           .comm = comm});
}

static OTF2_CallbackCode on_io_paradigm(void *data, OTF2_IoParadigmRef self,
                                        OTF2_StringRef identification, OTF2_StringRef name,
                                        OTF2_IoParadigmClass cls, OTF2_IoParadigmFlag flags,
                                        uint8_t properties, const OTF2_IoParadigmProperty *keys,
                                        const OTF2_Type *types, const OTF2_AttributeValue *values)
{
    trace__loader *ld = data;
    (void)self, (void)identification, (void)name, (void)cls, (void)flags, (void)properties;
    (void)keys, (void)types, (void)values;
    ld->model->io_paradigm_count++;
    return OTF2_CALLBACK_SUCCESS;
}

/* The setters fail only for a NULL callbacks struct, but each return is checked anyway. */
static int register_callbacks(trace__loader *ld, OTF2_GlobalDefReaderCallbacks *cb)
{
    typedef struct {
        OTF2_ErrorCode rc;
        const char *what;
    } result;
    const result results[] = {
        {OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock_properties),
         "SetClockPropertiesCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string), "SetStringCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region), "SetRegionCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, on_metric_member),
         "SetMetricMemberCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, on_metric_class),
         "SetMetricClassCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_system_tree_node),
         "SetSystemTreeNodeCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group),
         "SetLocationGroupCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location), "SetLocationCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(cb, on_location_property),
         "SetLocationPropertyCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group), "SetGroupCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm), "SetCommCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(cb, on_io_file),
         "SetIoRegularFileCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(cb, on_io_handle),
         "SetIoHandleCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, on_rma_win), "SetRmaWinCallback"},
        {OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(cb, on_io_paradigm),
         "SetIoParadigmCallback"},
    };
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        if (trace__check(ld, results[i].rc, results[i].what))
            return -1;
    }
    return 0;
}

static int compare_string_ptr(const void *a, const void *b)
{
    const trace_string *sa = *(const trace_string *const *)a;
    const trace_string *sb = *(const trace_string *const *)b;
    return (sa->id > sb->id) - (sa->id < sb->id);
}

/* The string table sorted by id, for bsearch; OTF2 does not promise dense or ordered ids. */
typedef struct string_index {
    const trace_string **sorted;
    size_t count;
} string_index;

static const char *string_text(const string_index *index, uint32_t id)
{
    if (id == OTF2_UNDEFINED_STRING || index->count == 0)
        return NULL;
    const trace_string key = {.id = id};
    const trace_string *key_ptr = &key;
    const trace_string *const *hit =
        bsearch(&key_ptr, index->sorted, index->count, sizeof *index->sorted, compare_string_ptr);
    return hit != NULL ? (*hit)->text : NULL;
}

static void resolve_names(trace_model *t, const string_index *ix)
{
    for (size_t i = 0; i < t->region_count; i++) {
        trace_region *r = &t->regions[i];
        r->name = string_text(ix, r->name_id);
        r->canonical_name = string_text(ix, r->canonical_name_id);
        r->source_file = string_text(ix, r->source_file_id);
    }
    for (size_t i = 0; i < t->system_tree_node_count; i++) {
        trace_system_tree_node *n = &t->system_tree_nodes[i];
        n->name = string_text(ix, n->name_id);
        n->class_name = string_text(ix, n->class_name_id);
    }
    for (size_t i = 0; i < t->location_group_count; i++)
        t->location_groups[i].name = string_text(ix, t->location_groups[i].name_id);
    for (size_t i = 0; i < t->location_property_count; i++)
        t->location_properties[i].name = string_text(ix, t->location_properties[i].name_id);
    for (size_t i = 0; i < t->group_count; i++)
        t->groups[i].name = string_text(ix, t->groups[i].name_id);
    for (size_t i = 0; i < t->comm_count; i++)
        t->comms[i].name = string_text(ix, t->comms[i].name_id);
    for (size_t i = 0; i < t->object_count; i++)
        t->objects[i].name = string_text(ix, t->objects[i].name_id);
    for (size_t i = 0; i < t->location_count; i++)
        t->locations[i].name = string_text(ix, t->locations[i].name_id);
    for (size_t i = 0; i < t->metric_member_count; i++) {
        t->metric_members[i].name = string_text(ix, t->metric_members[i].name_id);
        t->metric_members[i].unit = string_text(ix, t->metric_members[i].unit_id);
    }
}

static int resolve_strings(trace__loader *ld)
{
    trace_model *t = ld->model;
    string_index index = {.sorted = NULL, .count = t->string_count};
    if (t->string_count > 0) {
        index.sorted = malloc(t->string_count * sizeof *index.sorted);
        if (index.sorted == NULL)
            return trace__fail(ld, "out of memory while indexing strings");
        for (size_t i = 0; i < t->string_count; i++)
            index.sorted[i] = &t->strings[i];
        qsort(index.sorted, index.count, sizeof *index.sorted, compare_string_ptr);
    }
    resolve_names(t, &index);
    free(index.sorted);
    return 0;
}

static void resolve_comm_paradigms(trace_model *t)
{
    for (size_t i = 0; i < t->comm_count; i++) {
        for (size_t g = 0; g < t->group_count; g++) {
            if (t->groups[g].id == t->comms[i].group) {
                t->comms[i].paradigm = t->groups[g].paradigm;
                break;
            }
        }
    }
}

static int index_regions(trace__loader *ld)
{
    trace_model *t = ld->model;
    uint32_t max_id = 0;
    for (size_t i = 0; i < t->region_count; i++) {
        if (t->regions[i].id >= TRACE__MAX_REGION_SLOTS)
            return trace__fail(ld, "region id %u is too large for per-region counters",
                               (unsigned)t->regions[i].id);
        if (t->regions[i].id > max_id)
            max_id = t->regions[i].id;
    }
    if (t->region_count == 0)
        return 0;
    t->region_slots = max_id + 1;
    t->region_by_id = calloc(t->region_slots, sizeof *t->region_by_id);
    if (t->region_by_id == NULL)
        return trace__fail(ld, "out of memory while indexing regions");
    for (size_t i = t->region_count; i-- > 0;)
        t->region_by_id[t->regions[i].id] = &t->regions[i]; /* the first definition wins */
    return 0;
}

static int size_region_counters(trace__loader *ld)
{
    trace_model *t = ld->model;
    if (t->region_slots == 0)
        return 0;
    for (size_t i = 0; i < t->location_count; i++) {
        trace_location_stats *loc = &t->locations[i];
        loc->enter_counts = calloc(t->region_slots, sizeof *loc->enter_counts);
        loc->leave_counts = calloc(t->region_slots, sizeof *loc->leave_counts);
        if (loc->enter_counts == NULL || loc->leave_counts == NULL)
            return trace__fail(ld, "out of memory for per-region counters");
        loc->region_slots = t->region_slots;
    }
    return 0;
}

int trace__defs_read(OTF2_Reader *reader, trace__loader *ld)
{
    int result = -1;
    uint64_t definitions_read = 0;
    OTF2_GlobalDefReaderCallbacks *cb = NULL;
    OTF2_GlobalDefReader *def_reader = OTF2_Reader_GetGlobalDefReader(reader);
    if (def_reader == NULL) {
        trace__fail(ld, "OTF2_Reader_GetGlobalDefReader failed (definition file missing or "
                        "damaged?)");
        goto fail;
    }
    cb = OTF2_GlobalDefReaderCallbacks_New();
    if (cb == NULL) {
        trace__fail(ld, "OTF2_GlobalDefReaderCallbacks_New failed");
        goto fail;
    }
    if (register_callbacks(ld, cb) ||
        trace__check(ld, OTF2_Reader_RegisterGlobalDefCallbacks(reader, def_reader, cb, ld),
                     "OTF2_Reader_RegisterGlobalDefCallbacks"))
        goto fail;
    if (trace__check(ld,
                     OTF2_Reader_ReadAllGlobalDefinitions(reader, def_reader, &definitions_read),
                     "OTF2_Reader_ReadAllGlobalDefinitions"))
        goto fail;
    if (resolve_strings(ld) || index_regions(ld) || size_region_counters(ld))
        goto fail;
    resolve_comm_paradigms(ld->model);
    result = 0;
fail:
    if (cb != NULL)
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
    if (def_reader != NULL) {
        OTF2_ErrorCode rc = OTF2_Reader_CloseGlobalDefReader(reader, def_reader);
        if (result == 0 && trace__check(ld, rc, "OTF2_Reader_CloseGlobalDefReader"))
            result = -1;
    }
    return result;
}
/* SPDX-License-Identifier: BSD-3-Clause */
