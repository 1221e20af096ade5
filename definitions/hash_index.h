/* SPDX-License-Identifier: BSD-3-Clause */
/* An open-addressing index from a 64-bit hash to a dense id.
 *
 * The index stores only (hash, id) pairs; the caller keeps the objects and
 * decides equality through a callback, so one index type serves strings and
 * regions alike. Not thread-safe: the registry's mutex protects it. */
#ifndef WEFT_DEFINITIONS_HASH_INDEX_H
#define WEFT_DEFINITIONS_HASH_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/status.h"

typedef struct weft_hash_slot {
    uint64_t hash;
    uint32_t id; /* WEFT_INVALID_ID: empty */
} weft_hash_slot;

typedef struct weft_hash_index {
    weft_hash_slot *slots;
    size_t capacity; /* a power of two, or 0 before the first insert */
    size_t count;
} weft_hash_index;

/* True when the object with this id equals key. */
typedef bool (*weft_hash_equal_fn)(const void *context, uint32_t id, const void *key);

/* Returns the id of an object equal to key, or WEFT_INVALID_ID. */
uint32_t weft__hash_index_find(const weft_hash_index *index, uint64_t hash, const void *key,
                               weft_hash_equal_fn equal, const void *context);

/* Adds (hash, id); grows the table as needed. */
weft_status weft__hash_index_insert(weft_hash_index *index, uint64_t hash, uint32_t id);

/* Frees the table; the index is empty afterwards. */
void weft__hash_index_clear(weft_hash_index *index);

/* FNV-1a over bytes, continuing from `hash` (start with WEFT_HASH_SEED). */
#define WEFT_HASH_SEED UINT64_C(0xcbf29ce484222325)
uint64_t weft__hash_bytes(uint64_t hash, const void *data, size_t len);

#endif /* WEFT_DEFINITIONS_HASH_INDEX_H */
