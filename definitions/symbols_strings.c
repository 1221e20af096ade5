/* SPDX-License-Identifier: BSD-3-Clause */
/* Interned strings for the symboliser: every name it hands out is a copy kept
 * here, once per text, until weft_symbols_shutdown. Copies do not depend on
 * the object they came from staying loaded or open. Not thread-safe: the
 * symboliser's mutex protects the pool.
 *
 * Memory comes from malloc, not weft_alloc: this code is linked into
 * libweft-ompt, which cannot reach libweft's hidden allocator, and libbfd
 * allocates with malloc anyway. */
#include "symbols_internal.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a over the text (the registry's weft__hash_bytes is hidden inside
 * libweft, out of this code's reach; see above). */
static uint64_t hash_text(const char *text)
{
    uint64_t hash = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        hash ^= *p;
        hash *= UINT64_C(0x100000001b3);
    }
    return hash;
}

/* The slot holding text, or the empty slot where it belongs. */
static char **find_slot(char **slots, size_t capacity, const char *text)
{
    size_t mask = capacity - 1;
    for (size_t i = (size_t)hash_text(text) & mask;; i = (i + 1) & mask) {
        if (!slots[i] || strcmp(slots[i], text) == 0)
            return &slots[i];
    }
}

static bool grow(weft__symbols_strings *pool)
{
    size_t capacity = pool->capacity ? pool->capacity * 2 : 64;
    char **slots = calloc(capacity, sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i < pool->capacity; i++) {
        if (pool->slots[i])
            *find_slot(slots, capacity, pool->slots[i]) = pool->slots[i];
    }
    free(pool->slots);
    pool->slots = slots;
    pool->capacity = capacity;
    return true;
}

const char *weft__symbols_strings_intern(weft__symbols_strings *pool, const char *text)
{
    if (!text)
        return NULL;
    /* Keep the load factor below 3/4 so probes stay short and end. */
    if ((pool->count + 1) * 4 > pool->capacity * 3 && !grow(pool))
        return NULL;
    char **slot = find_slot(pool->slots, pool->capacity, text);
    if (*slot)
        return *slot;
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, text, len + 1);
    *slot = copy;
    pool->count++;
    return copy;
}

void weft__symbols_strings_clear(weft__symbols_strings *pool)
{
    for (size_t i = 0; i < pool->capacity; i++)
        free(pool->slots[i]);
    free(pool->slots);
    pool->slots = NULL;
    pool->capacity = 0;
    pool->count = 0;
}
