/* SPDX-License-Identifier: BSD-3-Clause */
/* I/O files, I/O handles and RMA windows of the definition registry; see
 * weft_object_desc in weft/definitions.h. One table for the three kinds:
 * they share the shape (a name, a key, a file and a communicator) and the
 * define-and-deduplicate code, which the merge of packed registries
 * (unify.c) goes through as well. */
#include <string.h>

#include "registry_internal.h"
#include "weft/alloc.h"

void weft__registry_objects_clear(weft_registry *reg)
{
    weft_free(reg->objects);
    weft__hash_index_clear(&reg->object_index);
}

static uint64_t object_hash(const weft_object_def *d)
{
    uint64_t fields[4] = {d->kind, d->scope, d->key, d->name.id};
    return weft__hash_bytes(WEFT_HASH_SEED, fields, sizeof(fields));
}

static bool object_equal(const void *context, uint32_t id, const void *key)
{
    const weft_registry *reg = context;
    const weft_object_def *entry = &reg->objects[id];
    const weft_object_def *d = key;
    return entry->kind == d->kind && entry->scope == d->scope && entry->key == d->key &&
           entry->name.id == d->name.id;
}

weft_status weft__registry_object_locked(weft_registry *reg, const weft_object_def *def,
                                         weft_object *out)
{
    uint64_t hash = object_hash(def);
    uint32_t id = weft__hash_index_find(&reg->object_index, hash, def, object_equal, reg);
    if (id != WEFT_INVALID_ID) {
        out->id = id;
        return WEFT_OK;
    }
    id = reg->object_count;
    weft_status st = weft__registry_reserve_one((void **)&reg->objects, &reg->object_capacity,
                                                reg->object_count, sizeof(*reg->objects));
    if (st == WEFT_OK)
        st = weft__hash_index_insert(&reg->object_index, hash, id);
    if (st != WEFT_OK)
        return st;
    reg->objects[id] = *def;
    reg->object_count++;
    reg->generation++; /* a new definition: the recovery journal must get it */
    out->id = id;
    return WEFT_OK;
}

weft_status weft_registry_object(weft_registry *reg, const weft_object_desc *desc, weft_object *out)
{
    *out = WEFT_OBJECT_INVALID;
    if (!reg || !desc || desc->kind >= WEFT_OBJECT_KIND_COUNT || !desc->name)
        return WEFT_ERR_INVALID;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = WEFT_OK;
    if ((desc->file.id != WEFT_INVALID_ID && desc->file.id >= reg->object_count) ||
        (desc->comm.id != WEFT_INVALID_ID && desc->comm.id >= reg->comm_count))
        st = WEFT_ERR_NOT_FOUND;
    weft_object_def def = {.kind = desc->kind,
                           .key = desc->key,
                           .scope = WEFT_INVALID_ID,
                           .file = desc->file,
                           .comm = desc->comm};
    if (st == WEFT_OK)
        st = weft__registry_intern_locked(reg, desc->name, &def.name);
    if (st == WEFT_OK)
        st = weft__registry_object_locked(reg, &def, out);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

uint32_t weft_registry_object_count(const weft_registry *reg)
{
    if (!reg)
        return 0;
    weft__registry_lock(reg);
    uint32_t n = reg->object_count;
    weft__registry_unlock(reg);
    return n;
}

weft_status weft_registry_object_get(const weft_registry *reg, weft_object object,
                                     weft_object_def *out)
{
    if (!reg || !out)
        return WEFT_ERR_INVALID;
    weft__registry_lock(reg);
    weft_status st = WEFT_ERR_NOT_FOUND;
    if (object.id < reg->object_count) {
        *out = reg->objects[object.id];
        st = WEFT_OK;
    }
    weft__registry_unlock(reg);
    return st;
}
