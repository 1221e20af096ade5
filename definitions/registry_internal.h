/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry's layout, shared by the files that implement it (registry.c
 * for strings, regions, locations and processes; comms.c for communicators;
 * unify.c for packing and merging). Private to definitions/.
 *
 * Functions named *_locked expect the caller to hold reg->mutex; they are
 * the one define-and-deduplicate code that both the public registration
 * calls and the merge of packed registries go through. */
#ifndef WEFT_DEFINITIONS_REGISTRY_INTERNAL_H
#define WEFT_DEFINITIONS_REGISTRY_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "hash_index.h"
#include "weft/definitions.h"

/* A communicator as stored. `scope` tells apart communicators that belong
 * to one process (thread teams): it is the rank of that process, or
 * WEFT_INVALID_ID while unknown (a local registry; weft_registry_pack sets
 * it). MPI communicators are shared by all ranks and always have scope
 * WEFT_INVALID_ID. A communicator is identified by
 * (paradigm, scope, parent, key). */
struct weft_comm_entry {
    weft_comm_def def; /* def.member_count is the length of members */
    uint32_t scope;
    uint32_t *members; /* by position; WEFT_INVALID_ID where none is known */
    uint32_t member_capacity;
};

struct weft_registry {
    pthread_mutex_t mutex; /* guards everything below */

    /* Counts the changes: anything added (strings, regions, locations,
     * properties, communicators and their members, metrics, processes), so
     * that a copy on disk (the recorder's journal) knows when it is stale. */
    uint64_t generation;

    char **strings;
    uint32_t string_count, string_capacity;
    weft_hash_index string_index;

    weft_region_def *regions;
    uint32_t region_count, region_capacity;
    weft_hash_index region_index;

    weft_location_def *locations;
    uint32_t location_count, location_capacity;
    uint32_t location_group; /* group of locations registered from now on */

    weft_location_property *properties;
    uint32_t property_count, property_capacity;

    struct weft_comm_entry *comms; /* see comms.c */
    uint32_t comm_count, comm_capacity;
    weft_hash_index comm_index;

    weft_metric_member_def *metric_members; /* see metrics.c */
    uint32_t metric_member_count, metric_member_capacity;
    struct weft_metric_class_entry *metric_classes;
    uint32_t metric_class_count, metric_class_capacity;

    weft_object_def *objects; /* I/O files, I/O handles, RMA windows; see objects.c */
    uint32_t object_count, object_capacity;
    weft_hash_index object_index;

    weft_process_def *processes; /* in registration (merge) order */
    uint32_t process_count, process_capacity;
    weft_hash_index process_index; /* by rank */
};

/* A metric class as stored: member ids of the same registry, in order. */
struct weft_metric_class_entry {
    uint32_t member_count;
    uint32_t *members;
};

/* What identifies a communicator (see struct weft_comm_entry). */
typedef struct weft__comm_key {
    weft_paradigm paradigm;
    uint32_t scope;
    uint32_t parent; /* a comm id of the same registry, or WEFT_INVALID_ID */
    uint64_t key;
} weft__comm_key;

/* Locks and unlocks a registry that the caller only reads. The mutex is the
 * only mutable part of a const registry. */
void weft__registry_lock(const weft_registry *reg);
void weft__registry_unlock(const weft_registry *reg);

/* Makes room for one more element in a growable array. */
weft_status weft__registry_reserve_one(void **items, uint32_t *capacity, uint32_t count,
                                       size_t elem);

/* Interns text (NUL-terminated, or `len` bytes without a NUL among them). */
weft_status weft__registry_intern_locked(weft_registry *reg, const char *text, weft_string *out);
weft_status weft__registry_intern_n_locked(weft_registry *reg, const char *text, size_t len,
                                           weft_string *out);

/* The handle of text if it was interned, else WEFT_STRING_INVALID. */
weft_string weft__registry_find_locked(const weft_registry *reg, const char *text);

/* Finds or adds a region whose string handles belong to reg. */
weft_status weft__registry_region_def_locked(weft_registry *reg, const weft_region_def *def,
                                             weft_region *out);

/* Appends a fully described location (never de-duplicated). */
weft_status weft__registry_append_location_locked(weft_registry *reg, const weft_location_def *def,
                                                  weft_location *out);

/* Appends a property of an existing location. */
weft_status weft__registry_property_locked(weft_registry *reg, weft_location loc, weft_string name,
                                           uint64_t value);

/* Adds a process unless its rank is known; *host_out (may be NULL) is the
 * host of the process with that rank (the first one registered). */
weft_status weft__registry_process_locked(weft_registry *reg, uint32_t rank, weft_string host,
                                          weft_string *host_out);

/* Finds the communicator with this identity, or adds it with the given name
 * and no members (*added tells which). */
weft_status weft__registry_comm_find_or_add_locked(weft_registry *reg, const weft__comm_key *key,
                                                   weft_string name, weft_comm *out, bool *added);

/* Puts member at a position of a communicator, growing its list with
 * unknown positions. */
weft_status weft__registry_comm_set_member_locked(weft_registry *reg, weft_comm comm,
                                                  uint32_t position, uint32_t member);

/* Finds or adds a metric member whose strings belong to reg. */
weft_status weft__registry_metric_member_locked(weft_registry *reg,
                                                const weft_metric_member_def *def, uint32_t *out);

/* Finds or adds a metric class of existing members. */
weft_status weft__registry_metric_class_locked(weft_registry *reg, const uint32_t *members,
                                               uint32_t count, weft_metric *out);

/* Frees the metric tables (registry destruction). */
void weft__registry_metrics_clear(weft_registry *reg);

/* Finds or adds an object whose string, file and comm belong to reg; the
 * scope in def tells handles of different ranks apart. */
weft_status weft__registry_object_locked(weft_registry *reg, const weft_object_def *def,
                                         weft_object *out);

/* Frees the object table (registry destruction). */
void weft__registry_objects_clear(weft_registry *reg);

/* Frees the communicator table (registry destruction). */
void weft__registry_comms_clear(weft_registry *reg);

#endif /* WEFT_DEFINITIONS_REGISTRY_INTERNAL_H */
