/* SPDX-License-Identifier: BSD-3-Clause */
/* The symboliser's per-address cache: an open-addressing table keyed by the
 * code address, holding the address's object and its descriptions. Addresses
 * in no object are not cached, so an object loaded there later is found. Not
 * thread-safe: the symboliser's mutex protects it. */
#include "symbols_internal.h"

#include <stdlib.h>

/* Fibonacci hashing: code addresses differ mostly in their low bits, which
 * the multiplication spreads into the high bits taken as the index. */
static size_t slot_of(uintptr_t address, size_t capacity)
{
    uint64_t h = (uint64_t)address * UINT64_C(0x9e3779b97f4a7c15);
    return (size_t)(h >> 32) & (capacity - 1);
}

static weft__symbols_entry *probe(weft__symbols_entry *slots, size_t capacity, uintptr_t address)
{
    size_t mask = capacity - 1;
    for (size_t i = slot_of(address, capacity);; i = (i + 1) & mask) {
        if (slots[i].address == address || slots[i].address == 0)
            return &slots[i];
    }
}

weft__symbols_entry *weft__symbols_cache_find(weft__symbols_cache *cache, uintptr_t address)
{
    if (cache->capacity == 0 || address == 0)
        return NULL;
    weft__symbols_entry *e = probe(cache->slots, cache->capacity, address);
    return e->address == address ? e : NULL;
}

static bool grow(weft__symbols_cache *cache)
{
    size_t capacity = cache->capacity ? cache->capacity * 2 : 256;
    weft__symbols_entry *slots = calloc(capacity, sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i < cache->capacity; i++) {
        if (cache->slots[i].address)
            *probe(slots, capacity, cache->slots[i].address) = cache->slots[i];
    }
    free(cache->slots);
    cache->slots = slots;
    cache->capacity = capacity;
    return true;
}

weft__symbols_entry *weft__symbols_cache_insert(weft__symbols_cache *cache, uintptr_t address,
                                                weft__symbols_object *object)
{
    if (address == 0)
        return NULL;
    /* Load factor below 3/4: probes stay short and always find a free slot. */
    if ((cache->count + 1) * 4 > cache->capacity * 3 && !grow(cache))
        return NULL;
    weft__symbols_entry *e = probe(cache->slots, cache->capacity, address);
    *e = (weft__symbols_entry){.address = address, .object = object};
    cache->count++;
    return e;
}

void weft__symbols_cache_clear(weft__symbols_cache *cache)
{
    free(cache->slots);
    *cache = (weft__symbols_cache){0};
}
