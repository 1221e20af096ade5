/* Communicators of the definition registry: thread teams now, MPI
 * communicators later. Each is named by (paradigm, parent, key) and keeps
 * its members by position (thread number in the team, rank in the
 * communicator); see weft_comm_desc in weft/definitions.h. */
#include <stdio.h>
#include <string.h>

#include "registry_internal.h"
#include "weft/alloc.h"

struct weft_comm_entry {
    weft_comm_def def; /* def.member_count is the length of members */
    uint32_t *members; /* by position; WEFT_INVALID_ID where none is known */
    uint32_t member_capacity;
};

void weft__registry_comms_clear(weft_registry *reg)
{
    for (uint32_t i = 0; i < reg->comm_count; i++)
        weft_free(reg->comms[i].members);
    weft_free(reg->comms);
    weft__hash_index_clear(&reg->comm_index);
}

typedef struct comm_key {
    weft_paradigm paradigm;
    uint32_t parent;
    uint64_t key;
} comm_key;

static uint64_t comm_hash(const comm_key *k)
{
    uint64_t fields[3] = {k->paradigm, k->parent, k->key};
    return weft__hash_bytes(WEFT_HASH_SEED, fields, sizeof(fields));
}

static bool comm_equal(const void *context, uint32_t id, const void *key)
{
    const weft_registry *reg = context;
    const weft_comm_def *def = &reg->comms[id].def;
    const comm_key *k = key;
    return def->paradigm == k->paradigm && def->parent.id == k->parent && def->key == k->key;
}

static weft_status comm_locked(weft_registry *reg, const weft_comm_desc *desc, weft_comm *out)
{
    comm_key k = {desc->paradigm, desc->parent.id, desc->key};
    uint64_t hash = comm_hash(&k);
    uint32_t id = weft__hash_index_find(&reg->comm_index, hash, &k, comm_equal, reg);
    if (id != WEFT_INVALID_ID) {
        out->id = id;
        return WEFT_OK;
    }
    id = reg->comm_count;
    char generated[32];
    const char *name = desc->name;
    if (!name) {
        snprintf(generated, sizeof(generated), "Thread team %u", id);
        name = generated;
    }
    weft_comm_def def = {.paradigm = desc->paradigm, .parent = desc->parent, .key = desc->key};
    weft_status st = weft__registry_intern_locked(reg, name, &def.name);
    if (st == WEFT_OK)
        st = weft__registry_reserve_one((void **)&reg->comms, &reg->comm_capacity, reg->comm_count,
                                        sizeof(*reg->comms));
    if (st == WEFT_OK)
        st = weft__hash_index_insert(&reg->comm_index, hash, id);
    if (st != WEFT_OK)
        return st;
    reg->comms[id] = (struct weft_comm_entry){.def = def};
    reg->comm_count++;
    out->id = id;
    return WEFT_OK;
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

/* Puts member at position, growing the list with unknown positions. */
static weft_status set_member_locked(struct weft_comm_entry *entry, uint32_t position,
                                     uint32_t member)
{
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
    entry->members[position] = member;
    return WEFT_OK;
}

weft_status weft_registry_comm_set_member(weft_registry *reg, weft_comm comm, uint32_t position,
                                          uint32_t member)
{
    if (!reg)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = comm.id < reg->comm_count
                         ? set_member_locked(&reg->comms[comm.id], position, member)
                         : WEFT_ERR_NOT_FOUND;
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

uint32_t weft_registry_comm_count(const weft_registry *reg)
{
    pthread_mutex_lock((pthread_mutex_t *)&reg->mutex);
    uint32_t count = reg->comm_count;
    pthread_mutex_unlock((pthread_mutex_t *)&reg->mutex);
    return count;
}

weft_status weft_registry_comm_get(const weft_registry *reg, weft_comm comm, weft_comm_def *out)
{
    pthread_mutex_lock((pthread_mutex_t *)&reg->mutex);
    weft_status st = comm.id < reg->comm_count ? WEFT_OK : WEFT_ERR_NOT_FOUND;
    if (st == WEFT_OK)
        *out = reg->comms[comm.id].def;
    pthread_mutex_unlock((pthread_mutex_t *)&reg->mutex);
    return st;
}

uint32_t weft_registry_comm_members(const weft_registry *reg, weft_comm comm, uint32_t *members,
                                    uint32_t capacity)
{
    pthread_mutex_lock((pthread_mutex_t *)&reg->mutex);
    uint32_t count = 0;
    if (comm.id < reg->comm_count) {
        const struct weft_comm_entry *entry = &reg->comms[comm.id];
        count = entry->def.member_count;
        uint32_t copied = count < capacity ? count : capacity;
        if (copied)
            memcpy(members, entry->members, copied * sizeof(uint32_t));
    }
    pthread_mutex_unlock((pthread_mutex_t *)&reg->mutex);
    return count;
}
