/* Writes the definition registry as OTF2 global definitions; see
 * weft/definitions_otf2.h. Local definition files stay empty for a single
 * process: the global ids are the local ones. */
#include "weft/definitions_otf2.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* Ids of the system tree and location group: one process, rank 0. */
enum { MACHINE_NODE = 0, HOST_NODE = 1, PROCESS_GROUP = 0 };

/* The strings the system tree needs, interned before strings are written. */
typedef struct tree_strings {
    weft_string machine, machine_class, host, host_class, process;
    weft_string openmp; /* only interned when there are thread teams */
} tree_strings;

static weft_status intern_tree_strings(weft_registry *reg, tree_strings *out)
{
    char host[256] = "localhost";
    if (gethostname(host, sizeof(host)) != 0)
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    weft_status st = weft_registry_string(reg, "Linux", &out->machine);
    if (st == WEFT_OK)
        st = weft_registry_string(reg, "machine", &out->machine_class);
    if (st == WEFT_OK)
        st = weft_registry_string(reg, host, &out->host);
    if (st == WEFT_OK)
        st = weft_registry_string(reg, "node", &out->host_class);
    if (st == WEFT_OK)
        st = weft_registry_string(reg, "Process", &out->process);
    out->openmp = WEFT_STRING_INVALID;
    if (st == WEFT_OK && weft_registry_comm_count(reg) > 0)
        st = weft_registry_string(reg, "OpenMP", &out->openmp);
    return st;
}

static bool otf2_failed(OTF2_ErrorCode code, const char *what)
{
    if (code == OTF2_SUCCESS)
        return false;
    fprintf(stderr, "weft: writing %s failed: %s (%s)\n", what, OTF2_Error_GetName(code),
            OTF2_Error_GetDescription(code));
    return true;
}

static OTF2_StringRef string_ref(weft_string str)
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
        if (otf2_failed(OTF2_GlobalDefWriter_WriteRegion(
                            w, id, string_ref(def.name), string_ref(def.canonical_name),
                            string_ref(def.name), weft_region_role_to_otf2(def.role),
                            weft_paradigm_to_otf2(def.paradigm), OTF2_REGION_FLAG_NONE,
                            string_ref(def.file), def.begin_line, def.end_line),
                        "a region definition"))
            return false;
    }
    return true;
}

static bool write_locations(OTF2_GlobalDefWriter *w, const weft_registry *reg)
{
    uint32_t count = weft_registry_location_count(reg);
    for (uint32_t id = 0; id < count; id++) {
        weft_location_def def;
        if (weft_registry_location_get(reg, (weft_location){id}, &def) != WEFT_OK)
            return false;
        if (otf2_failed(OTF2_GlobalDefWriter_WriteLocation(
                            w, weft_location_otf2_id(&def), string_ref(def.name),
                            OTF2_LOCATION_TYPE_CPU_THREAD, def.event_count, def.group),
                        "a location definition"))
            return false;
    }
    uint32_t props = weft_registry_property_count(reg);
    for (uint32_t i = 0; i < props; i++) {
        weft_location_property prop;
        weft_location_def def;
        if (weft_registry_property_get(reg, i, &prop) != WEFT_OK ||
            weft_registry_location_get(reg, prop.location, &def) != WEFT_OK)
            return false;
        OTF2_AttributeValue value = {.uint64 = prop.value};
        if (otf2_failed(OTF2_GlobalDefWriter_WriteLocationProperty(w, weft_location_otf2_id(&def),
                                                                   string_ref(prop.name),
                                                                   OTF2_TYPE_UINT64, value),
                        "a location property"))
            return false;
    }
    return true;
}

/* Thread teams as Scalasca expects them: one COMM_LOCATIONS group "OpenMP"
 * listing every location (group 0), then per team a COMM_GROUP whose members
 * are indices into that list (group 1 + comm id) and the Comm itself. With
 * one process, a location's index in the list is its registry id. */
enum { OPENMP_LOCATIONS_GROUP = 0 };

static bool write_openmp_locations(OTF2_GlobalDefWriter *w, const weft_registry *reg,
                                   weft_string name)
{
    uint32_t count = weft_registry_location_count(reg);
    uint64_t *ids = weft_calloc(count ? count : 1, sizeof(*ids));
    if (!ids)
        return false;
    bool ok = true;
    for (uint32_t i = 0; i < count && ok; i++) {
        weft_location_def def;
        ok = weft_registry_location_get(reg, (weft_location){i}, &def) == WEFT_OK;
        ids[i] = ok ? weft_location_otf2_id(&def) : 0;
    }
    ok = ok && !otf2_failed(OTF2_GlobalDefWriter_WriteGroup(
                                w, OPENMP_LOCATIONS_GROUP, string_ref(name),
                                OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                OTF2_GROUP_FLAG_NONE, count, ids),
                            "the OpenMP location group");
    weft_free(ids);
    return ok;
}

static bool write_comm(OTF2_GlobalDefWriter *w, const weft_registry *reg, uint32_t id)
{
    weft_comm_def def;
    if (weft_registry_comm_get(reg, (weft_comm){id}, &def) != WEFT_OK)
        return false;
    uint32_t *members = weft_calloc(def.member_count ? def.member_count : 1, sizeof(*members));
    uint64_t *wide = weft_calloc(def.member_count ? def.member_count : 1, sizeof(*wide));
    bool ok = members && wide;
    if (ok) {
        uint32_t count =
            weft_registry_comm_members(reg, (weft_comm){id}, members, def.member_count);
        if (count > def.member_count)
            count = def.member_count; /* a member arrived since: leave it out */
        uint32_t known = 0;           /* positions never seen are left out */
        for (uint32_t i = 0; i < count; i++) {
            if (members[i] != WEFT_INVALID_ID)
                wide[known++] = members[i];
        }
        count = known;
        OTF2_GroupRef group = OPENMP_LOCATIONS_GROUP + 1 + id;
        ok =
            !otf2_failed(OTF2_GlobalDefWriter_WriteGroup(w, group, string_ref(def.name),
                                                         OTF2_GROUP_TYPE_COMM_GROUP,
                                                         weft_paradigm_to_otf2(def.paradigm),
                                                         OTF2_GROUP_FLAG_NONE, count, wide),
                         "a thread team group") &&
            !otf2_failed(OTF2_GlobalDefWriter_WriteComm(
                             w, id, string_ref(def.name), group,
                             def.parent.id == WEFT_INVALID_ID ? OTF2_UNDEFINED_COMM : def.parent.id,
                             OTF2_COMM_FLAG_NONE),
                         "a thread team");
    }
    weft_free(members);
    weft_free(wide);
    return ok;
}

static bool write_comms(OTF2_GlobalDefWriter *w, const weft_registry *reg, weft_string openmp)
{
    uint32_t count = weft_registry_comm_count(reg);
    if (count == 0)
        return true;
    if (!write_openmp_locations(w, reg, openmp))
        return false;
    for (uint32_t id = 0; id < count; id++) {
        if (!write_comm(w, reg, id))
            return false;
    }
    return true;
}

weft_status weft_defs_write_otf2(weft_registry *reg, OTF2_Archive *archive,
                                 const weft_clock_properties *clock)
{
    tree_strings tree;
    weft_status st = intern_tree_strings(reg, &tree);
    if (st != WEFT_OK)
        return st;
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(archive);
    if (!w) {
        fprintf(stderr, "weft: the OTF2 archive gave no global definition writer\n");
        return WEFT_ERR_OTF2;
    }
    if (otf2_failed(OTF2_GlobalDefWriter_WriteClockProperties(
                        w, clock->ticks_per_second, clock->global_offset, clock->trace_length,
                        clock->realtime_ns),
                    "the clock properties"))
        return WEFT_ERR_OTF2;

    uint32_t strings = weft_registry_string_count(reg);
    for (uint32_t id = 0; id < strings; id++) {
        const char *text = weft_registry_string_text(reg, (weft_string){id});
        if (otf2_failed(OTF2_GlobalDefWriter_WriteString(w, id, text), "a string definition"))
            return WEFT_ERR_OTF2;
    }
    if (!write_regions(w, reg))
        return WEFT_ERR_OTF2;
    if (otf2_failed(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, MACHINE_NODE, tree.machine.id,
                                                             tree.machine_class.id,
                                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE),
                    "the system tree") ||
        otf2_failed(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, HOST_NODE, tree.host.id,
                                                             tree.host_class.id, MACHINE_NODE),
                    "the system tree") ||
        otf2_failed(OTF2_GlobalDefWriter_WriteLocationGroup(
                        w, PROCESS_GROUP, tree.process.id, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                        HOST_NODE, OTF2_UNDEFINED_LOCATION_GROUP),
                    "the location group"))
        return WEFT_ERR_OTF2;
    if (!write_locations(w, reg) || !write_comms(w, reg, tree.openmp))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}
