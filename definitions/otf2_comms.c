/* SPDX-License-Identifier: BSD-3-Clause */
/* Groups and communicators of the OTF2 definitions, as Scalasca expects them
 * (docs/dev/OTF2-CONVENTIONS.md section 3):
 *
 *   - first, per paradigm that has communicators, one COMM_LOCATIONS group:
 *     for MPI ("MPI") the thread-0 location of every process in rank order,
 *     whose OTF2 id (0 << 32 | rank) is the rank itself; for thread teams
 *     ("OpenMP" for paradigm OPENMP) every location in registry order, which
 *     for a unified registry is process after process;
 *   - then per communicator, in registry order (Comm id = registry id), a
 *     group and the Comm: MPI_COMM_SELF is a COMM_SELF group without
 *     members; other MPI communicators a COMM_GROUP whose members are world
 *     ranks; thread teams a COMM_GROUP whose members are indices into the
 *     thread list (registry location ids).
 *
 * Group ids are handed out in that order from 0. For a single process with
 * thread teams this is the "OpenMP" list (group 0) and group 1 + id per
 * team, as before MPI support. */
#include <stdlib.h>

#include "otf2_writer_internal.h"
#include "weft/alloc.h"

void weft__otf2_comms_scan(const weft_registry *reg, weft__otf2_comm_plan *plan)
{
    for (uint32_t p = 0; p < WEFT_PARADIGM_COUNT; p++) {
        plan->has_comms[p] = false;
        plan->list_name[p] = WEFT_STRING_INVALID;
    }
    uint32_t count = weft_registry_comm_count(reg);
    for (uint32_t id = 0; id < count; id++) {
        weft_comm_def def;
        if (weft_registry_comm_get(reg, (weft_comm){id}, &def) == WEFT_OK)
            plan->has_comms[def.paradigm] = true;
    }
}

weft_status weft__otf2_comms_prepare(weft_registry *reg, weft__otf2_comm_plan *plan)
{
#define PARADIGM_NAME(name) #name,
    static const char *const names[] = {WEFT_PARADIGM_LIST(PARADIGM_NAME)};
#undef PARADIGM_NAME
    weft_status st = WEFT_OK;
    for (uint32_t p = 0; p < WEFT_PARADIGM_COUNT && st == WEFT_OK; p++) {
        if (!plan->has_comms[p])
            continue;
        const char *name = names[p];
        if (p == WEFT_PARADIGM_OPENMP)
            name = "OpenMP"; /* Score-P's name */
        st = weft_registry_string(reg, name, &plan->list_name[p]);
    }
    return st;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The members of a location list: MPI's thread-0 locations by rank, or all
 * locations. *ids is weft_alloc'ed. */
static bool list_members(const weft_registry *reg, const weft__otf2_tree *tree, bool mpi,
                         uint64_t **ids, uint32_t *count)
{
    *count = mpi ? tree->process_count : weft_registry_location_count(reg);
    *ids = weft_calloc(*count ? *count : 1, sizeof(**ids));
    if (!*ids)
        return false;
    for (uint32_t i = 0; i < *count; i++) {
        weft_location_def def;
        if (mpi)
            (*ids)[i] = tree->processes[i].rank; /* thread 0 of that rank */
        else if (weft_registry_location_get(reg, (weft_location){i}, &def) == WEFT_OK)
            (*ids)[i] = weft_location_otf2_id(&def);
        else
            return false;
    }
    if (mpi)
        qsort(*ids, *count, sizeof(**ids), compare_u64);
    return true;
}

static bool write_location_lists(OTF2_GlobalDefWriter *w, const weft_registry *reg,
                                 const weft__otf2_comm_plan *plan, const weft__otf2_tree *tree,
                                 OTF2_GroupRef *next_group)
{
    for (uint32_t p = 0; p < WEFT_PARADIGM_COUNT; p++) {
        if (!plan->has_comms[p])
            continue;
        uint64_t *ids = NULL;
        uint32_t count = 0;
        bool ok =
            list_members(reg, tree, p == WEFT_PARADIGM_MPI, &ids, &count) &&
            !weft__otf2_failed(OTF2_GlobalDefWriter_WriteGroup(
                                   w, (*next_group)++, weft__otf2_string_ref(plan->list_name[p]),
                                   OTF2_GROUP_TYPE_COMM_LOCATIONS, weft_paradigm_to_otf2(p),
                                   OTF2_GROUP_FLAG_NONE, count, ids),
                               "a communication location group");
        weft_free(ids);
        if (!ok)
            return false;
    }
    return true;
}

/* The known members of a communicator (positions never seen are left out). */
static bool comm_members(const weft_registry *reg, weft_comm comm, uint32_t capacity,
                         uint64_t **wide, uint32_t *count)
{
    uint32_t *members = weft_calloc(capacity ? capacity : 1, sizeof(*members));
    *wide = weft_calloc(capacity ? capacity : 1, sizeof(**wide));
    *count = 0;
    bool ok = members && *wide;
    if (ok) {
        uint32_t have = weft_registry_comm_members(reg, comm, members, capacity);
        if (have > capacity)
            have = capacity; /* a member arrived since: leave it out */
        for (uint32_t i = 0; i < have; i++) {
            if (members[i] != WEFT_INVALID_ID)
                (*wide)[(*count)++] = members[i];
        }
    }
    weft_free(members);
    return ok;
}

/* A parent Comm must have a smaller id and the same paradigm. */
static OTF2_CommRef parent_ref(const weft_registry *reg, uint32_t id, const weft_comm_def *def)
{
    weft_comm_def parent;
    if (def->parent.id >= id || weft_registry_comm_get(reg, def->parent, &parent) != WEFT_OK ||
        parent.paradigm != def->paradigm)
        return OTF2_UNDEFINED_COMM;
    return def->parent.id;
}

static bool write_comm(OTF2_GlobalDefWriter *w, const weft_registry *reg, uint32_t id,
                       OTF2_GroupRef group)
{
    weft_comm_def def;
    if (weft_registry_comm_get(reg, (weft_comm){id}, &def) != WEFT_OK)
        return false;
    bool self = def.paradigm == WEFT_PARADIGM_MPI && def.key == WEFT_COMM_KEY_MPI_SELF &&
                def.parent.id == WEFT_INVALID_ID;
    uint64_t *members = NULL;
    uint32_t count = 0;
    bool ok = comm_members(reg, (weft_comm){id}, def.member_count, &members, &count);
    if (self)
        count = 0;
    ok = ok &&
         !weft__otf2_failed(OTF2_GlobalDefWriter_WriteGroup(
                                w, group, weft__otf2_string_ref(def.name),
                                self ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP,
                                weft_paradigm_to_otf2(def.paradigm), OTF2_GROUP_FLAG_NONE, count,
                                members),
                            "a communicator group") &&
         !weft__otf2_failed(OTF2_GlobalDefWriter_WriteComm(w, id, weft__otf2_string_ref(def.name),
                                                           group, parent_ref(reg, id, &def),
                                                           OTF2_COMM_FLAG_NONE),
                            "a communicator");
    weft_free(members);
    return ok;
}

bool weft__otf2_comms_write(OTF2_GlobalDefWriter *w, const weft_registry *reg,
                            const weft__otf2_comm_plan *plan, const weft__otf2_tree *tree)
{
    OTF2_GroupRef next_group = 0;
    if (!write_location_lists(w, reg, plan, tree, &next_group))
        return false;
    uint32_t count = weft_registry_comm_count(reg);
    for (uint32_t id = 0; id < count; id++) {
        if (!write_comm(w, reg, id, next_group++))
            return false;
    }
    return true;
}
