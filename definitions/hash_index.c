/* SPDX-License-Identifier: BSD-3-Clause */
/* Open addressing with linear probing; the table is kept at most half full. */
#include "hash_index.h"

#include "weft/alloc.h"
#include "weft/definitions.h"

uint64_t weft__hash_bytes(uint64_t hash, const void *data, size_t len)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= bytes[i];
        hash *= UINT64_C(0x100000001b3);
    }
    return hash;
}

uint32_t weft__hash_index_find(const weft_hash_index *index, uint64_t hash, const void *key,
                               weft_hash_equal_fn equal, const void *context)
{
    if (index->capacity == 0)
        return WEFT_INVALID_ID;
    size_t mask = index->capacity - 1;
    for (size_t at = hash & mask;; at = (at + 1) & mask) {
        const weft_hash_slot *slot = &index->slots[at];
        if (slot->id == WEFT_INVALID_ID)
            return WEFT_INVALID_ID;
        if (slot->hash == hash && equal(context, slot->id, key))
            return slot->id;
    }
}

static void place(weft_hash_slot *slots, size_t capacity, uint64_t hash, uint32_t id)
{
    size_t mask = capacity - 1;
    size_t at = hash & mask;
    while (slots[at].id != WEFT_INVALID_ID)
        at = (at + 1) & mask;
    slots[at].hash = hash;
    slots[at].id = id;
}

static weft_status grow(weft_hash_index *index)
{
    size_t capacity = index->capacity ? index->capacity * 2 : 64;
    weft_hash_slot *slots = weft_alloc(capacity * sizeof(*slots));
    if (!slots)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < capacity; i++)
        slots[i].id = WEFT_INVALID_ID;
    for (size_t i = 0; i < index->capacity; i++) {
        if (index->slots[i].id != WEFT_INVALID_ID)
            place(slots, capacity, index->slots[i].hash, index->slots[i].id);
    }
    weft_free(index->slots);
    index->slots = slots;
    index->capacity = capacity;
    return WEFT_OK;
}

weft_status weft__hash_index_insert(weft_hash_index *index, uint64_t hash, uint32_t id)
{
    if ((index->count + 1) * 2 > index->capacity) {
        weft_status st = grow(index);
        if (st != WEFT_OK)
            return st;
    }
    place(index->slots, index->capacity, hash, id);
    index->count++;
    return WEFT_OK;
}

void weft__hash_index_clear(weft_hash_index *index)
{
    weft_free(index->slots);
    index->slots = NULL;
    index->capacity = 0;
    index->count = 0;
}
