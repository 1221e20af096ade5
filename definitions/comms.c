/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators of the definition registry: thread teams and MPI
 * communicators. Each is identified by (paradigm, scope, parent, key) and
 * keeps its members by position (thread number in the team, rank in the
 * communicator); see weft_comm_desc in weft/definitions.h and struct
 * weft_comm_entry in registry_internal.h. Locally registered communicators
 * have no scope yet (WEFT_INVALID_ID); merging sets it for thread teams. */
#include <stdio.h>
#include <string.h>

#include "registry_internal.h"
#include "weft/alloc.h"

void weft__registry_comms_clear(weft_registry *reg)
{
    for (uint32_t i = 0; i < reg->comm_count; i++)
        weft_free(reg->comms[i].members);
    weft_free(reg->comms);
    weft__hash_index_clear(&reg->comm_index);
}

static uint64_t comm_hash(const weft__comm_key *k)
{
    uint64_t fields[4] = {k->paradigm, k->scope, k->parent, k->key};
    return weft__hash_bytes(WEFT_HASH_SEED, fields, sizeof(fields));
}

static bool comm_equal(const void *context, uint32_t id, const void *key)
{
    const weft_registry *reg = context;
    const struct weft_comm_entry *entry = &reg->comms[id];
    const weft__comm_key *k = key;
    return entry->def.paradigm == k->paradigm && entry->scope == k->scope &&
           entry->def.parent.id == k->parent && entry->def.key == k->key;
}

static uint32_t find_locked(const weft_registry *reg, const weft__comm_key *k, uint64_t hash)
{
    return weft__hash_index_find(&reg->comm_index, hash, k, comm_equal, reg);
}

static weft_status add_locked(weft_registry *reg, const weft__comm_key *k, uint64_t hash,
                              weft_string name, weft_comm *out)
{
    uint32_t id = reg->comm_count;
    weft_status st = weft__registry_reserve_one((void **)&reg->comms, &reg->comm_capacity,
                                                reg->comm_count, sizeof(*reg->comms));
    if (st == WEFT_OK)
        st = weft__hash_index_insert(&reg->comm_index, hash, id);
    if (st != WEFT_OK)
        return st;
    weft_comm_def def = {
        .name = name, .paradigm = k->paradigm, .parent = {k->parent}, .key = k->key};
    reg->comms[id] = (struct weft_comm_entry){.def = def, .scope = k->scope};
    reg->comm_count++;
    reg->generation++;
    out->id = id;
    return WEFT_OK;
}

weft_status weft__registry_comm_find_or_add_locked(weft_registry *reg, const weft__comm_key *key,
                                                   weft_string name, weft_comm *out, bool *added)
{
    uint64_t hash = comm_hash(key);
    uint32_t id = find_locked(reg, key, hash);
    *added = id == WEFT_INVALID_ID;
    if (!*added) {
        out->id = id;
        return WEFT_OK;
    }
    return add_locked(reg, key, hash, name, out);
}

/* Local registration: no scope yet (see struct weft_comm_entry). */
static weft_status comm_locked(weft_registry *reg, const weft_comm_desc *desc, weft_comm *out)
{
    weft__comm_key k = {desc->paradigm, WEFT_INVALID_ID, desc->parent.id, desc->key};
    uint64_t hash = comm_hash(&k);
    uint32_t id = find_locked(reg, &k, hash);
    if (id != WEFT_INVALID_ID) {
        out->id = id;
        return WEFT_OK;
    }
    char generated[32];
    const char *name = desc->name;
    if (!name) {
        snprintf(generated, sizeof(generated), "Thread team %u", reg->comm_count);
        name = generated;
    }
    weft_string name_str;
    weft_status st = weft__registry_intern_locked(reg, name, &name_str);
    if (st != WEFT_OK)
        return st;
    return add_locked(reg, &k, hash, name_str, out);
}

weft_status weft_registry_comm(weft_registry *reg, const weft_comm_desc *desc, weft_comm *out)
{
    *out = WEFT_COMM_INVALID;
    if (!reg || !desc || desc->paradigm >= WEFT_PARADIGM_COUNT)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = WEFT_OK;
    if (desc->parent.id != WEFT_INVALID_ID && desc->parent.id >= reg->comm_count)
        st = WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        st = comm_locked(reg, desc, out);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

weft_status weft__registry_comm_set_member_locked(weft_registry *reg, weft_comm comm,
                                                  uint32_t position, uint32_t member)
{
    if (comm.id >= reg->comm_count)
        return WEFT_ERR_NOT_FOUND;
    struct weft_comm_entry *entry = &reg->comms[comm.id];
    if (position == WEFT_INVALID_ID)
        return WEFT_ERR_RANGE;
    while (entry->def.member_count <= position) {
        weft_status st =
            weft__registry_reserve_one((void **)&entry->members, &entry->member_capacity,
                                       entry->def.member_count, sizeof(*entry->members));
        if (st != WEFT_OK)
            return st;
        entry->members[entry->def.member_count++] = WEFT_INVALID_ID;
    }
    if (entry->members[position] != member)
        reg->generation++;
    entry->members[position] = member;
    return WEFT_OK;
}

weft_status weft_registry_comm_set_member(weft_registry *reg, weft_comm comm, uint32_t position,
                                          uint32_t member)
{
    if (!reg)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = weft__registry_comm_set_member_locked(reg, comm, position, member);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

uint32_t weft_registry_comm_count(const weft_registry *reg)
{
    weft__registry_lock(reg);
    uint32_t count = reg->comm_count;
    weft__registry_unlock(reg);
    return count;
}

weft_status weft_registry_comm_get(const weft_registry *reg, weft_comm comm, weft_comm_def *out)
{
    weft__registry_lock(reg);
    weft_status st = comm.id < reg->comm_count ? WEFT_OK : WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        *out = reg->comms[comm.id].def;
    weft__registry_unlock(reg);
    return st;
}

uint32_t weft_registry_comm_members(const weft_registry *reg, weft_comm comm, uint32_t *members,
                                    uint32_t capacity)
{
    weft__registry_lock(reg);
    uint32_t count = 0;
    if (comm.id < reg->comm_count) {
        const struct weft_comm_entry *entry = &reg->comms[comm.id];
        count = entry->def.member_count;
        uint32_t copied = count < capacity ? count : capacity;
        if (copied)
            memcpy(members, entry->members, copied * sizeof(uint32_t));
    }
    weft__registry_unlock(reg);
    return count;
}
