/* The registry's layout, shared by the files that implement it (registry.c
 * for strings, regions and locations; comms.c for communicators). Private to
 * definitions/. */
#ifndef WEFT_DEFINITIONS_REGISTRY_INTERNAL_H
#define WEFT_DEFINITIONS_REGISTRY_INTERNAL_H

#include <pthread.h>

#include "hash_index.h"
#include "weft/definitions.h"

struct weft_registry {
    pthread_mutex_t mutex; /* guards everything below */

    char **strings;
    uint32_t string_count, string_capacity;
    weft_hash_index string_index;

    weft_region_def *regions;
    uint32_t region_count, region_capacity;
    weft_hash_index region_index;

    weft_location_def *locations;
    uint32_t location_count, location_capacity;

    weft_location_property *properties;
    uint32_t property_count, property_capacity;

    struct weft_comm_entry *comms; /* see comms.c */
    uint32_t comm_count, comm_capacity;
    weft_hash_index comm_index;
};

/* Makes room for one more element in a growable array. */
weft_status weft__registry_reserve_one(void **items, uint32_t *capacity, uint32_t count,
                                       size_t elem);

/* Interns text; the caller holds reg->mutex. */
weft_status weft__registry_intern_locked(weft_registry *reg, const char *text, weft_string *out);

/* Frees the communicator table (registry destruction). */
void weft__registry_comms_clear(weft_registry *reg);

#endif /* WEFT_DEFINITIONS_REGISTRY_INTERNAL_H */
