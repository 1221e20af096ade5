/* SPDX-License-Identifier: BSD-3-Clause */
/* The definition registry: de-duplicated strings and regions, locations and
 * their properties, processes, behind one mutex per registry (communicators
 * are in comms.c).
 *
 * Entries are appended to growable arrays and never removed, so a handle is
 * simply an index. Registration is rare (once per region call site, once per
 * thread); the hot path never comes here. */
#include "weft/definitions.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "registry_internal.h"
#include "weft/alloc.h"

/* Makes room for one more element in a growable array. */
weft_status weft__registry_reserve_one(void **items, uint32_t *capacity, uint32_t count,
                                       size_t elem)
{
    if (count < *capacity)
        return WEFT_OK;
    if (count == WEFT_INVALID_ID - 1)
        return WEFT_ERR_RANGE;
    uint32_t grown = *capacity ? *capacity * 2 : 32;
    void *bigger = weft_realloc(*items, (size_t)grown * elem);
    if (!bigger)
        return WEFT_ERR_NO_MEMORY;
    *items = bigger;
    *capacity = grown;
    return WEFT_OK;
}

weft_registry *weft_registry_create(void)
{
    weft_registry *reg = weft_calloc(1, sizeof(*reg));
    if (!reg)
        return NULL;
    pthread_mutex_init(&reg->mutex, NULL);
    return reg;
}

void weft_registry_destroy(weft_registry *reg)
{
    if (!reg)
        return;
    for (uint32_t i = 0; i < reg->string_count; i++)
        weft_free(reg->strings[i]);
    weft_free(reg->strings);
    weft__hash_index_clear(&reg->string_index);
    weft_free(reg->regions);
    weft__hash_index_clear(&reg->region_index);
    weft_free(reg->locations);
    weft_free(reg->properties);
    weft__registry_comms_clear(reg);
    weft__registry_objects_clear(reg);
    weft__registry_metrics_clear(reg);
    weft_free(reg->processes);
    weft__hash_index_clear(&reg->process_index);
    pthread_mutex_destroy(&reg->mutex);
    weft_free(reg);
}

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static weft_registry *global_registry;

static void create_global(void)
{
    global_registry = weft_registry_create();
}

weft_registry *weft_defs_global(void)
{
    pthread_once(&global_once, create_global);
    return global_registry;
}

/* ---- strings ------------------------------------------------------------ */

/* A text that need not end in a NUL (texts of a packed registry). */
typedef struct counted_text {
    const char *text;
    size_t len;
} counted_text;

static bool string_equal(const void *context, uint32_t id, const void *key)
{
    const weft_registry *reg = context;
    const counted_text *k = key;
    const char *stored = reg->strings[id];
    return strncmp(stored, k->text, k->len) == 0 && stored[k->len] == '\0';
}

weft_status weft__registry_intern_locked(weft_registry *reg, const char *text, weft_string *out)
{
    return weft__registry_intern_n_locked(reg, text, strlen(text), out);
}

weft_string weft__registry_find_locked(const weft_registry *reg, const char *text)
{
    counted_text key = {text, strlen(text)};
    uint64_t hash = weft__hash_bytes(WEFT_HASH_SEED, text, key.len);
    return (weft_string){weft__hash_index_find(&reg->string_index, hash, &key, string_equal, reg)};
}

weft_status weft__registry_intern_n_locked(weft_registry *reg, const char *text, size_t len,
                                           weft_string *out)
{
    counted_text key = {text, len};
    uint64_t hash = weft__hash_bytes(WEFT_HASH_SEED, text, len);
    uint32_t id = weft__hash_index_find(&reg->string_index, hash, &key, string_equal, reg);
    if (id != WEFT_INVALID_ID) {
        out->id = id;
        return WEFT_OK;
    }
    weft_status st = weft__registry_reserve_one((void **)&reg->strings, &reg->string_capacity,
                                                reg->string_count, sizeof(*reg->strings));
    if (st != WEFT_OK)
        return st;
    char *copy = weft_alloc(len + 1);
    if (!copy)
        return WEFT_ERR_NO_MEMORY;
    memcpy(copy, text, len);
    copy[len] = '\0';
    id = reg->string_count;
    st = weft__hash_index_insert(&reg->string_index, hash, id);
    if (st != WEFT_OK) {
        weft_free(copy);
        return st;
    }
    reg->strings[id] = copy;
    reg->string_count++;
    reg->generation++;
    out->id = id;
    return WEFT_OK;
}

weft_status weft_registry_string(weft_registry *reg, const char *text, weft_string *out)
{
    *out = WEFT_STRING_INVALID;
    if (!reg || !text)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = weft__registry_intern_locked(reg, text, out);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

/* ---- regions ------------------------------------------------------------ */

static bool region_equal(const void *context, uint32_t id, const void *key)
{
    const weft_registry *reg = context;
    const weft_region_def *a = &reg->regions[id];
    const weft_region_def *b = key;
    return a->name.id == b->name.id && a->canonical_name.id == b->canonical_name.id &&
           a->file.id == b->file.id && a->begin_line == b->begin_line &&
           a->end_line == b->end_line && a->role == b->role && a->paradigm == b->paradigm;
}

static uint64_t region_hash(const weft_region_def *def)
{
    uint32_t fields[7] = {def->name.id,    def->canonical_name.id, def->file.id,
                          def->begin_line, def->end_line,          def->role,
                          def->paradigm};
    return weft__hash_bytes(WEFT_HASH_SEED, fields, sizeof(fields));
}

static weft_status region_locked(weft_registry *reg, const weft_region_desc *desc, weft_region *out)
{
    weft_region_def def = {.begin_line = desc->begin_line,
                           .end_line = desc->end_line,
                           .role = desc->role,
                           .paradigm = desc->paradigm,
                           .file = WEFT_STRING_INVALID};
    const char *canonical = desc->canonical_name ? desc->canonical_name : desc->name;
    weft_status st = weft__registry_intern_locked(reg, desc->name, &def.name);
    if (st == WEFT_OK)
        st = weft__registry_intern_locked(reg, canonical, &def.canonical_name);
    if (st == WEFT_OK && desc->file)
        st = weft__registry_intern_locked(reg, desc->file, &def.file);
    if (st != WEFT_OK)
        return st;
    return weft__registry_region_def_locked(reg, &def, out);
}

weft_status weft__registry_region_def_locked(weft_registry *reg, const weft_region_def *def,
                                             weft_region *out)
{
    uint64_t hash = region_hash(def);
    uint32_t id = weft__hash_index_find(&reg->region_index, hash, def, region_equal, reg);
    if (id == WEFT_INVALID_ID) {
        weft_status st = weft__registry_reserve_one((void **)&reg->regions, &reg->region_capacity,
                                                    reg->region_count, sizeof(*reg->regions));
        if (st != WEFT_OK)
            return st;
        id = reg->region_count;
        st = weft__hash_index_insert(&reg->region_index, hash, id);
        if (st != WEFT_OK)
            return st;
        reg->regions[id] = *def;
        reg->region_count++;
        reg->generation++;
    }
    out->id = id;
    return WEFT_OK;
}

weft_status weft_registry_region(weft_registry *reg, const weft_region_desc *desc, weft_region *out)
{
    *out = WEFT_REGION_INVALID;
    if (!reg || !desc || !desc->name || desc->role >= WEFT_REGION_ROLE_COUNT ||
        desc->paradigm >= WEFT_PARADIGM_COUNT)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = region_locked(reg, desc, out);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

/* ---- locations and their properties ------------------------------------- */

weft_status weft_registry_location(weft_registry *reg, const char *name, uint32_t thread_number,
                                   weft_location *out)
{
    return weft_registry_location_in_group(reg, name, thread_number, WEFT_INVALID_ID, out);
}

weft_status weft_registry_location_in_group(weft_registry *reg, const char *name,
                                            uint32_t thread_number, uint32_t group,
                                            weft_location *out)
{
    *out = WEFT_LOCATION_INVALID;
    if (!reg)
        return WEFT_ERR_INVALID;
    char thread_name[32];
    if (!name) { /* the names Vampir and Scalasca show for OpenMP threads */
        if (thread_number == 0)
            snprintf(thread_name, sizeof(thread_name), "Master thread");
        else
            snprintf(thread_name, sizeof(thread_name), "Thread %u", thread_number);
        name = thread_name;
    }
    pthread_mutex_lock(&reg->mutex);
    weft_location_def def = {.thread_number = thread_number,
                             .group = group != WEFT_INVALID_ID ? group : reg->location_group};
    weft_status st = weft__registry_intern_locked(reg, name, &def.name);
    if (st == WEFT_OK)
        st = weft__registry_append_location_locked(reg, &def, out);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

weft_status weft__registry_append_location_locked(weft_registry *reg, const weft_location_def *def,
                                                  weft_location *out)
{
    weft_status st = weft__registry_reserve_one((void **)&reg->locations, &reg->location_capacity,
                                                reg->location_count, sizeof(*reg->locations));
    if (st != WEFT_OK)
        return st;
    out->id = reg->location_count;
    reg->locations[reg->location_count++] = *def;
    reg->generation++;
    return WEFT_OK;
}

void weft_registry_set_location_group(weft_registry *reg, uint32_t group)
{
    if (!reg)
        return;
    pthread_mutex_lock(&reg->mutex);
    reg->location_group = group;
    for (uint32_t i = 0; i < reg->location_count; i++)
        reg->locations[i].group = group;
    reg->generation++;
    pthread_mutex_unlock(&reg->mutex);
}

void weft_registry_location_set_events(weft_registry *reg, weft_location loc, uint64_t count)
{
    pthread_mutex_lock(&reg->mutex);
    if (loc.id < reg->location_count)
        reg->locations[loc.id].event_count = count;
    pthread_mutex_unlock(&reg->mutex);
}

weft_status weft_registry_location_property(weft_registry *reg, weft_location loc, const char *name,
                                            uint64_t value)
{
    if (!reg || !name)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_string name_str = WEFT_STRING_INVALID;
    weft_status st = loc.id < reg->location_count ? WEFT_OK : WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        st = weft__registry_intern_locked(reg, name, &name_str);
    if (st == WEFT_OK)
        st = weft__registry_property_locked(reg, loc, name_str, value);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

weft_status weft__registry_property_locked(weft_registry *reg, weft_location loc, weft_string name,
                                           uint64_t value)
{
    weft_status st = weft__registry_reserve_one((void **)&reg->properties, &reg->property_capacity,
                                                reg->property_count, sizeof(*reg->properties));
    if (st == WEFT_OK) {
        /* Not a change the generation counts: reading events needs no
         * property, and finalisation adds several to every location, each
         * of which would make the recovery journal rewrite itself once per
         * location closed. */
        reg->properties[reg->property_count++] =
            (weft_location_property){.location = loc, .name = name, .value = value};
    }
    return st;
}

/* ---- processes ---------------------------------------------------------- */

static bool process_equal(const void *context, uint32_t id, const void *key)
{
    const weft_registry *reg = context;
    return reg->processes[id].rank == *(const uint32_t *)key;
}

weft_status weft__registry_process_locked(weft_registry *reg, uint32_t rank, weft_string host,
                                          weft_string *host_out)
{
    uint64_t hash = weft__hash_bytes(WEFT_HASH_SEED, &rank, sizeof(rank));
    uint32_t id = weft__hash_index_find(&reg->process_index, hash, &rank, process_equal, reg);
    if (id == WEFT_INVALID_ID) {
        weft_status st =
            weft__registry_reserve_one((void **)&reg->processes, &reg->process_capacity,
                                       reg->process_count, sizeof(*reg->processes));
        if (st != WEFT_OK)
            return st;
        id = reg->process_count;
        st = weft__hash_index_insert(&reg->process_index, hash, id);
        if (st != WEFT_OK)
            return st;
        reg->processes[id] = (weft_process_def){.rank = rank, .host = host};
        reg->process_count++;
        reg->generation++;
    }
    if (host_out)
        *host_out = reg->processes[id].host;
    return WEFT_OK;
}

weft_status weft_registry_process(weft_registry *reg, uint32_t rank, const char *host,
                                  weft_string *host_out)
{
    if (host_out)
        *host_out = WEFT_STRING_INVALID;
    if (!reg || !host)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_string host_str = WEFT_STRING_INVALID, first = WEFT_STRING_INVALID;
    weft_status st = weft__registry_intern_locked(reg, host, &host_str);
    if (st == WEFT_OK)
        st = weft__registry_process_locked(reg, rank, host_str, &first);
    if (st == WEFT_OK && first.id != host_str.id)
        st = WEFT_ERR_EXISTS;
    if (host_out)
        *host_out = first;
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

uint64_t weft_registry_generation(const weft_registry *reg)
{
    weft__registry_lock(reg);
    uint64_t generation = reg->generation;
    weft__registry_unlock(reg);
    return generation;
}

void weft_registry_fork_lock(weft_registry *reg)
{
    if (reg)
        pthread_mutex_lock(&reg->mutex);
}

void weft_registry_fork_unlock(weft_registry *reg)
{
    if (reg)
        pthread_mutex_unlock(&reg->mutex);
}

void weft_registry_forget_locations(weft_registry *reg)
{
    if (!reg)
        return;
    pthread_mutex_lock(&reg->mutex);
    reg->location_count = 0;
    reg->property_count = 0;
    reg->location_group = 0;
    for (uint32_t i = 0; i < reg->comm_count; i++) {
        if (reg->comms[i].def.paradigm != WEFT_PARADIGM_MPI)
            reg->comms[i].def.member_count = 0;
    }
    reg->generation++;
    pthread_mutex_unlock(&reg->mutex);
}

/* ---- read access -------------------------------------------------------- */
/* The registry only grows; readers take the mutex because a concurrent
 * registration may move the arrays. The mutex is the only mutable part of a
 * const registry, hence the casts in lock/unlock. */

void weft__registry_lock(const weft_registry *reg)
{
    pthread_mutex_lock((pthread_mutex_t *)&reg->mutex);
}

void weft__registry_unlock(const weft_registry *reg)
{
    pthread_mutex_unlock((pthread_mutex_t *)&reg->mutex);
}

static void lock(const weft_registry *reg)
{
    weft__registry_lock(reg);
}

static void unlock(const weft_registry *reg)
{
    weft__registry_unlock(reg);
}

uint32_t weft_registry_string_count(const weft_registry *reg)
{
    lock(reg);
    uint32_t count = reg->string_count;
    unlock(reg);
    return count;
}

const char *weft_registry_string_text(const weft_registry *reg, weft_string str)
{
    lock(reg);
    const char *text = str.id < reg->string_count ? reg->strings[str.id] : NULL;
    unlock(reg);
    return text;
}

uint32_t weft_registry_region_count(const weft_registry *reg)
{
    lock(reg);
    uint32_t count = reg->region_count;
    unlock(reg);
    return count;
}

weft_status weft_registry_region_get(const weft_registry *reg, weft_region region,
                                     weft_region_def *out)
{
    lock(reg);
    weft_status st = region.id < reg->region_count ? WEFT_OK : WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        *out = reg->regions[region.id];
    unlock(reg);
    return st;
}

bool weft_registry_region_is_omp_barrier(const weft_registry *reg, weft_region region)
{
    weft_region_def def;
    return weft_registry_region_get(reg, region, &def) == WEFT_OK &&
           def.paradigm == WEFT_PARADIGM_OPENMP &&
           (def.role == WEFT_REGION_ROLE_BARRIER || def.role == WEFT_REGION_ROLE_IMPLICIT_BARRIER);
}

uint32_t weft_registry_location_count(const weft_registry *reg)
{
    lock(reg);
    uint32_t count = reg->location_count;
    unlock(reg);
    return count;
}

weft_status weft_registry_location_get(const weft_registry *reg, weft_location loc,
                                       weft_location_def *out)
{
    lock(reg);
    weft_status st = loc.id < reg->location_count ? WEFT_OK : WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        *out = reg->locations[loc.id];
    unlock(reg);
    return st;
}

uint32_t weft_registry_property_count(const weft_registry *reg)
{
    lock(reg);
    uint32_t count = reg->property_count;
    unlock(reg);
    return count;
}

weft_status weft_registry_property_get(const weft_registry *reg, uint32_t index,
                                       weft_location_property *out)
{
    lock(reg);
    weft_status st = index < reg->property_count ? WEFT_OK : WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        *out = reg->properties[index];
    unlock(reg);
    return st;
}

uint32_t weft_registry_process_count(const weft_registry *reg)
{
    lock(reg);
    uint32_t count = reg->process_count;
    unlock(reg);
    return count;
}

weft_status weft_registry_process_get(const weft_registry *reg, uint32_t index,
                                      weft_process_def *out)
{
    lock(reg);
    weft_status st = index < reg->process_count ? WEFT_OK : WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        *out = reg->processes[index];
    unlock(reg);
    return st;
}
