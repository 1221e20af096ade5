/* SPDX-License-Identifier: BSD-3-Clause */
/* Writes the definition registry as OTF2 global definitions; see
 * weft/definitions_otf2.h. This file writes the clock, strings, regions and
 * locations and decides the order; the system tree is in otf2_system_tree.c,
 * groups and communicators in otf2_comms.c. Local definition files (mapping
 * tables) are the recorder's: for a single process the global ids are the
 * local ones. */
#include "weft/definitions_otf2.h"

#include <stdio.h>
#include <stdlib.h>

#include "otf2_writer_internal.h"
#include "weft/alloc.h"

OTF2_Paradigm weft_paradigm_to_otf2(weft_paradigm paradigm)
{
#define PARADIGM_ENTRY(name) OTF2_PARADIGM_##name,
    static const OTF2_Paradigm map[] = {WEFT_PARADIGM_LIST(PARADIGM_ENTRY)};
#undef PARADIGM_ENTRY
    return paradigm < WEFT_PARADIGM_COUNT ? map[paradigm] : OTF2_PARADIGM_UNKNOWN;
}

OTF2_RegionRole weft_region_role_to_otf2(weft_region_role role)
{
#define ROLE_ENTRY(name) OTF2_REGION_ROLE_##name,
    static const OTF2_RegionRole map[] = {WEFT_REGION_ROLE_LIST(ROLE_ENTRY)};
#undef ROLE_ENTRY
    return role < WEFT_REGION_ROLE_COUNT ? map[role] : OTF2_REGION_ROLE_UNKNOWN;
}

bool weft__otf2_failed(OTF2_ErrorCode code, const char *what)
{
    if (code == OTF2_SUCCESS)
        return false;
    fprintf(stderr, "weft: writing %s failed: %s (%s)\n", what, OTF2_Error_GetName(code),
            OTF2_Error_GetDescription(code));
    return true;
}

OTF2_StringRef weft__otf2_string_ref(weft_string str)
{
    return str.id == WEFT_INVALID_ID ? OTF2_UNDEFINED_STRING : str.id;
}

static bool write_regions(OTF2_GlobalDefWriter *w, const weft_registry *reg)
{
    uint32_t count = weft_registry_region_count(reg);
    for (uint32_t id = 0; id < count; id++) {
        weft_region_def def;
        if (weft_registry_region_get(reg, (weft_region){id}, &def) != WEFT_OK)
            return false;
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteRegion(
                                  w, id, weft__otf2_string_ref(def.name),
                                  weft__otf2_string_ref(def.canonical_name),
                                  weft__otf2_string_ref(def.name),
                                  weft_region_role_to_otf2(def.role),
                                  weft_paradigm_to_otf2(def.paradigm), OTF2_REGION_FLAG_NONE,
                                  weft__otf2_string_ref(def.file), def.begin_line, def.end_line),
                              "a region definition"))
            return false;
    }
    return true;
}

/* Metric members, then the classes made of them. */
static bool write_metrics(OTF2_GlobalDefWriter *w, const weft_registry *reg)
{
#define SOURCE_ENTRY(name) OTF2_METRIC_TYPE_##name,
#define MODE_ENTRY(name) OTF2_METRIC_##name,
    static const OTF2_MetricType sources[] = {WEFT_METRIC_SOURCE_LIST(SOURCE_ENTRY)};
    static const OTF2_MetricMode modes[] = {WEFT_METRIC_MODE_LIST(MODE_ENTRY)};
#undef SOURCE_ENTRY
#undef MODE_ENTRY
    uint32_t members = weft_registry_metric_member_count(reg);
    for (uint32_t id = 0; id < members; id++) {
        weft_metric_member_def m;
        if (weft_registry_metric_member_get(reg, id, &m) != WEFT_OK)
            return false;
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteMetricMember(
                                  w, id, weft__otf2_string_ref(m.name),
                                  weft__otf2_string_ref(m.description), sources[m.source],
                                  modes[m.mode], OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, m.exponent,
                                  weft__otf2_string_ref(m.unit)),
                              "a metric member definition"))
            return false;
    }
    uint32_t classes = weft_registry_metric_class_count(reg);
    for (uint32_t id = 0; id < classes; id++) {
        uint32_t ids[WEFT_METRIC_MAX_MEMBERS];
        uint32_t count = weft_registry_metric_class_members(reg, (weft_metric){id}, ids,
                                                            WEFT_METRIC_MAX_MEMBERS);
        OTF2_MetricMemberRef refs[WEFT_METRIC_MAX_MEMBERS];
        for (uint32_t i = 0; i < count; i++)
            refs[i] = ids[i];
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteMetricClass(w, id, (uint8_t)count, refs,
                                                                    OTF2_METRIC_SYNCHRONOUS_STRICT,
                                                                    OTF2_RECORDER_KIND_CPU),
                              "a metric class definition"))
            return false;
    }
    return true;
}

typedef struct location_key {
    uint32_t group, thread_number, id;
} location_key;

static int compare_location_keys(const void *a, const void *b)
{
    const location_key *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->thread_number != y->thread_number)
        return x->thread_number < y->thread_number ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The registry's location ids in the order their definitions are written:
 * by process, then by thread number. Scalasca's analyzer replays the n-th
 * location defined in a process as its thread n and takes that thread's
 * implicit task to be named n (the location's thread number, see
 * recorder/otf2_events.h); in registry order, where a thread that got a
 * higher number registered first, it crashed. *order is weft_alloc'ed. */
static bool location_order(const weft_registry *reg, uint32_t count, uint32_t **order)
{
    location_key *keys = weft_calloc(count ? count : 1, sizeof(*keys));
    *order = weft_calloc(count ? count : 1, sizeof(**order));
    bool ok = keys && *order;
    for (uint32_t id = 0; ok && id < count; id++) {
        weft_location_def def;
        ok = weft_registry_location_get(reg, (weft_location){id}, &def) == WEFT_OK;
        keys[id] = (location_key){def.group, def.thread_number, id};
    }
    if (ok) {
        qsort(keys, count, sizeof(*keys), compare_location_keys);
        for (uint32_t i = 0; i < count; i++)
            (*order)[i] = keys[i].id;
    }
    weft_free(keys);
    return ok;
}

static bool write_locations(OTF2_GlobalDefWriter *w, const weft_registry *reg)
{
    uint32_t count = weft_registry_location_count(reg);
    uint32_t *order = NULL;
    bool ok = location_order(reg, count, &order);
    for (uint32_t i = 0; ok && i < count; i++) {
        weft_location_def def;
        ok = weft_registry_location_get(reg, (weft_location){order[i]}, &def) == WEFT_OK &&
             !weft__otf2_failed(OTF2_GlobalDefWriter_WriteLocation(
                                    w, weft_location_otf2_id(&def), weft__otf2_string_ref(def.name),
                                    OTF2_LOCATION_TYPE_CPU_THREAD, def.event_count, def.group),
                                "a location definition");
    }
    weft_free(order);
    if (!ok)
        return false;
    uint32_t props = weft_registry_property_count(reg);
    for (uint32_t i = 0; i < props; i++) {
        weft_location_property prop;
        weft_location_def def;
        if (weft_registry_property_get(reg, i, &prop) != WEFT_OK ||
            weft_registry_location_get(reg, prop.location, &def) != WEFT_OK)
            return false;
        OTF2_AttributeValue value = {.uint64 = prop.value};
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteLocationProperty(
                                  w, weft_location_otf2_id(&def), weft__otf2_string_ref(prop.name),
                                  OTF2_TYPE_UINT64, value),
                              "a location property"))
            return false;
    }
    return true;
}

static bool write_strings(OTF2_GlobalDefWriter *w, const weft_registry *reg)
{
    uint32_t strings = weft_registry_string_count(reg);
    for (uint32_t id = 0; id < strings; id++) {
        const char *text = weft_registry_string_text(reg, (weft_string){id});
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteString(w, id, text), "a string definition"))
            return false;
    }
    return true;
}

/* The attributes events use (weft_registry_attribute_used); their
 * descriptions were interned by intern_fixed_definition_strings. */
static bool write_attributes(OTF2_GlobalDefWriter *w, weft_registry *reg)
{
    for (uint32_t id = 0; id < WEFT_ATTRIBUTE_COUNT; id++) {
        if (!weft_registry_attribute_used(reg, id))
            continue;
        weft_string name, description;
        if (weft_registry_string(reg, weft_attribute_name(id), &name) != WEFT_OK ||
            weft_registry_string(reg, weft_attribute_description(id), &description) != WEFT_OK)
            return false;
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteAttribute(
                                  w, id, weft__otf2_string_ref(name),
                                  weft__otf2_string_ref(description), OTF2_TYPE_STRING),
                              "an attribute definition"))
            return false;
    }
    return true;
}

/* The parameters, all of them when events use any (readers expect the ids
 * of one kind of definition dense and in order: 0, 1, 2, ...; see
 * intern_fixed_definition_strings, which marks them all used then). */
static bool write_parameters(OTF2_GlobalDefWriter *w, weft_registry *reg)
{
    for (uint32_t id = 0; id < WEFT_PARAMETER_COUNT; id++) {
        if (!weft_registry_parameter_used(reg, id))
            continue;
        weft_string name;
        if (weft_registry_string(reg, weft_parameter_name(id), &name) != WEFT_OK)
            return false;
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteParameter(
                                  w, id, weft__otf2_string_ref(name), OTF2_PARAMETER_TYPE_INT64),
                              "a parameter definition"))
            return false;
    }
    return true;
}

/* The strings write_attributes and write_parameters use that events did
 * not intern: attribute descriptions, and all parameter names once one is
 * used. */
static weft_status intern_fixed_definition_strings(weft_registry *reg)
{
    weft_string str;
    for (uint32_t id = 0; id < WEFT_ATTRIBUTE_COUNT; id++) {
        if (weft_registry_attribute_used(reg, id) &&
            weft_registry_string(reg, weft_attribute_description(id), &str) != WEFT_OK)
            return WEFT_ERR_NO_MEMORY;
    }
    bool any = false;
    for (uint32_t id = 0; id < WEFT_PARAMETER_COUNT; id++)
        any = any || weft_registry_parameter_used(reg, id);
    for (uint32_t id = 0; any && id < WEFT_PARAMETER_COUNT; id++) {
        if (weft_registry_parameter_use(reg, id) != WEFT_OK)
            return WEFT_ERR_NO_MEMORY;
    }
    return WEFT_OK;
}

static bool write_all(OTF2_GlobalDefWriter *w, weft_registry *reg,
                      const weft_clock_properties *clock, const weft__otf2_tree *tree,
                      const weft__otf2_comm_plan *plan, const weft__otf2_io_names *io)
{
    return !weft__otf2_failed(OTF2_GlobalDefWriter_WriteClockProperties(
                                  w, clock->ticks_per_second, clock->global_offset,
                                  clock->trace_length, clock->realtime_ns),
                              "the clock properties") &&
           write_strings(w, reg) && write_attributes(w, reg) && write_parameters(w, reg) &&
           write_regions(w, reg) &&
           weft__otf2_tree_write(w, tree) && write_locations(w, reg) &&
           weft__otf2_comms_write(w, reg, plan, tree) && weft__otf2_objects_write(w, reg, io) &&
           write_metrics(w, reg);
}

weft_status weft_defs_write_otf2(weft_registry *reg, OTF2_Archive *archive,
                                 const weft_clock_properties *clock)
{
    /* Every string must be interned before the strings are written. */
    weft__otf2_comm_plan plan;
    weft__otf2_comms_scan(reg, &plan);
    weft__otf2_tree tree;
    weft_status st = intern_fixed_definition_strings(reg);
    if (st == WEFT_OK)
        st = weft__otf2_tree_prepare(reg, plan.has_comms[WEFT_PARADIGM_MPI], &tree);
    if (st != WEFT_OK)
        return st;
    st = weft__otf2_comms_prepare(reg, &plan);
    weft__otf2_io_names io = {0};
    if (st == WEFT_OK)
        st = weft__otf2_objects_prepare(reg, &io);
    OTF2_GlobalDefWriter *w = st == WEFT_OK ? OTF2_Archive_GetGlobalDefWriter(archive) : NULL;
    if (st == WEFT_OK && !w) {
        fprintf(stderr, "weft: the OTF2 archive gave no global definition writer\n");
        st = WEFT_ERR_OTF2;
    }
    if (st == WEFT_OK && !write_all(w, reg, clock, &tree, &plan, &io))
        st = WEFT_ERR_OTF2;
    weft__otf2_tree_release(&tree);
    return st;
}
