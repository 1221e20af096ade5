/* SPDX-License-Identifier: BSD-3-Clause */
/* Packing a definition registry into one buffer and merging packed
 * registries: the definitions side of unifying the registries of an MPI
 * job's ranks into one global registry. The exchange between ranks (the
 * binomial tree, the broadcast) is the recorder's job (recorder/job_unify.c).
 *
 * Merging goes through the same define-and-deduplicate code as local
 * registration: strings and regions are one by content, MPI communicators by
 * key, thread teams by (rank, parent, key), processes by rank; locations are
 * appended. Packing then merging into an empty registry gives an equal
 * registry (same ids), and merging a registry's own pack into it adds
 * nothing and yields identity maps. Everything is linear in the size of the
 * packed registry (hash lookups, no pairwise comparisons). */
#ifndef WEFT_DEFINITIONS_UNIFY_H
#define WEFT_DEFINITIONS_UNIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/definitions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Local id -> id in the registry merged into (index: the packed registry's
 * id). Arrays from malloc (weft_alloc); release with weft_id_maps_free, or
 * take an array over and free() it. */
typedef struct weft_id_maps {
    uint32_t *strings;
    uint32_t string_count;
    uint32_t *regions;
    uint32_t region_count;
    uint32_t *comms;
    uint32_t comm_count;
    uint32_t *metrics; /* metric classes */
    uint32_t metric_count;
    uint32_t *objects; /* I/O files and handles, RMA windows */
    uint32_t object_count;
    uint32_t *groups; /* not filled by a merge: the recorder's comm -> OTF2 group map */
    uint32_t group_count;
} weft_id_maps;

/* Flags of weft_registry_pack. */
enum {
    WEFT_PACK_LOCATIONS = 1 /* include the locations and their properties */
};

/* Serialises reg into one malloc'd buffer (*buf, *len bytes; the caller
 * free()s it): strings, regions, communicators with their members and scope,
 * processes, and with WEFT_PACK_LOCATIONS the locations and their properties.
 * `rank` becomes the scope of thread teams (non-MPI communicators) that have
 * none yet, i.e. of those registered locally. The format is in native byte
 * order (all ranks of a job run the same binary on the same architecture)
 * with fixed-width fields and a magic number and version up front; see the
 * layout in unify.c. Takes reg's mutex. On failure *buf is NULL, *len 0:
 * WEFT_ERR_INVALID (bad arguments or flags), WEFT_ERR_NO_MEMORY,
 * WEFT_ERR_RANGE (a string of 4 GiB or more). */
weft_status weft_registry_pack(const weft_registry *reg, uint32_t rank, unsigned flags, void **buf,
                               uint64_t *len);

/* Merges a packed registry into `into`:
 * - strings and regions: de-duplicated by content;
 * - MPI communicators: by key (and parent); their members are kept from the
 *   first one merged (all ranks record the same world ranks; a differing
 *   list would mean a key collision, and the first one wins silently);
 * - thread teams: by (scope, mapped parent, key), so teams of different ranks
 *   stay apart and a rank's own teams are found again; the first members
 *   are kept too;
 * - processes: appended unless their rank is known;
 * - locations and properties (when packed): appended, never de-duplicated;
 *   the members of teams added by this merge are then offset by the number
 *   of locations `into` had before, so that they index the list of all
 *   locations in merge order. Without packed locations, members are taken
 *   as they are.
 * The first-seen order is kept: new definitions are appended in the packed
 * registry's order, so MPI_COMM_WORLD, registered first by rank 0, stays
 * the first MPI communicator when rank 0's registry is merged first. I/O
 * files and RMA windows are one by name and key, I/O handles by (rank,
 * key), their files and comms mapped.
 *
 * If maps is not NULL it is filled for the packed registry's strings,
 * regions, communicators, metric classes and objects (on failure it is
 * emptied). The whole buffer is
 * validated before `into` is touched: a truncated or corrupt buffer gives
 * WEFT_ERR_INVALID and leaves `into` unchanged. WEFT_ERR_NO_MEMORY or
 * WEFT_ERR_RANGE may leave `into` partly merged (destroy it). Takes into's
 * mutex. */
weft_status weft_registry_merge(weft_registry *into, const void *buf, uint64_t len,
                                weft_id_maps *maps);

/* Frees the arrays of maps and zeroes it. NULL is a no-op. */
void weft_id_maps_free(weft_id_maps *maps);

/* True when map[i] == i for every i < count (then no mapping table is
 * needed); true for count 0. */
bool weft_id_map_is_identity(const uint32_t *map, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_UNIFY_H */
