/* SPDX-License-Identifier: BSD-3-Clause */
/* Unifying the definitions of all ranks of a job; see job_internal.h.
 *
 * A binomial tree: in round k (stride 2^k) a rank whose bit k is set sends
 * everything it has merged so far to rank - stride and is done; the others
 * receive from rank + stride (if it exists) and merge. Rank 0 holds the
 * global registry after ceil(log2 P) rounds, with the locations in rank
 * order. It broadcasts the global definitions (without locations), and
 * every rank finds its own ids in them by merging its local registry into a
 * copy: as everything is there already, the merge only yields the map.
 * Cost: log2 P message rounds; each merge is linear in the definitions it
 * adds, so rank 0 does O(D log P) work for D distinct definitions (ranks
 * mostly share their regions and strings), plus O(L) for L locations. */
#include <stdlib.h>
#include <string.h>

#include "job_internal.h"
#include "weft/alloc.h"
#include "weft/definitions_otf2.h"
#include "weft/unify.h"

/* Packs `reg` and merges it into `into`. */
static weft_status merge_registry(weft_registry *into, const weft_registry *reg, uint32_t rank,
                                  unsigned flags, weft_id_maps *maps)
{
    void *buf = NULL;
    uint64_t len = 0;
    weft_status st = weft_registry_pack(reg, rank, flags, &buf, &len);
    if (st == WEFT_OK)
        st = weft_registry_merge(into, buf, len, maps);
    free(buf);
    return st;
}

/* Tree reduction; on return rank 0's *acc is the global registry. A rank
 * that failed still takes part (it sends an empty message), so its parent
 * learns of the failure instead of waiting. */
static weft_status reduce_tree(const weft_job_ops *job, weft_registry *acc)
{
    weft_status st = WEFT_OK;
    for (uint32_t stride = 1; stride < job->size; stride <<= 1) {
        if (job->rank & stride) {
            void *buf = NULL;
            uint64_t len = 0;
            if (st == WEFT_OK)
                st = weft_registry_pack(acc, job->rank, WEFT_PACK_LOCATIONS, &buf, &len);
            if (st != WEFT_OK)
                len = 0;
            if (job->send(buf, len, job->rank - stride, job->data) != 0 && st == WEFT_OK)
                st = WEFT_ERR_IO;
            free(buf);
            return st;
        }
        if (job->rank + stride >= job->size)
            continue;
        void *buf = NULL;
        uint64_t len = 0;
        if (job->recv(&buf, &len, job->rank + stride, job->data) != 0)
            st = WEFT_ERR_IO;
        else if (len == 0)
            st = WEFT_ERR_STATE; /* the child failed */
        else if (st == WEFT_OK)
            st = weft_registry_merge(acc, buf, len, NULL);
        free(buf);
    }
    return st;
}

/* Broadcasts move at most this much at a time (see broadcast_global). */
#define BROADCAST_PART (1024 * 1024)

/* Rank 0's global definitions, without locations, to every rank. */
static weft_status broadcast_global(const weft_job_ops *job, const weft_registry *global,
                                    weft_status st, void **buf, uint64_t *len)
{
    *buf = NULL;
    *len = 0;
    if (job->rank == 0 && st == WEFT_OK && weft_registry_pack(global, 0, 0, buf, len) != WEFT_OK)
        *len = 0;
    uint64_t size = *len; /* 0: rank 0 has nothing to send */
    if (job->bcast(&size, sizeof(size), 0, job->data) != 0 || size == 0)
        return WEFT_ERR_STATE;
    if (job->rank != 0) {
        *buf = malloc(size);
        *len = size;
    }
    /* Every rank takes part in every broadcast, even one without memory
     * (which receives into a scratch part and fails afterwards): a rank
     * that left out a broadcast would leave the others waiting in it. The
     * parts are the same on every rank. */
    static char scratch[BROADCAST_PART];
    int rc = 0;
    for (uint64_t done = 0; done < size; done += BROADCAST_PART) {
        uint64_t part = size - done < BROADCAST_PART ? size - done : BROADCAST_PART;
        char *target = *buf ? (char *)*buf + done : scratch;
        if (job->bcast(target, part, 0, job->data) != 0)
            rc = -1;
    }
    return rc == 0 && *buf ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

/* Objects and groups have OTF2 refs of their own (weft/definitions_otf2.h):
 * the maps to global object ids become maps to those refs, and a map from
 * comm ids to the OTF2 refs of their groups is added. */
static weft_status to_otf2_refs(const weft_registry *global, weft_id_maps *maps)
{
    uint32_t objects = weft_registry_object_count(global);
    uint32_t *refs = weft_alloc((objects ? objects : 1) * sizeof(*refs));
    maps->groups = weft_alloc((maps->comm_count ? maps->comm_count : 1) * sizeof(uint32_t));
    if (!refs || !maps->groups) {
        weft_free(refs);
        return WEFT_ERR_NO_MEMORY;
    }
    weft_defs_otf2_object_refs(global, refs);
    for (uint32_t i = 0; i < maps->object_count; i++)
        maps->objects[i] = maps->objects[i] < objects ? refs[maps->objects[i]] : WEFT_INVALID_ID;
    weft_free(refs);
    maps->group_count = maps->comm_count;
    for (uint32_t i = 0; i < maps->comm_count; i++)
        maps->groups[i] = weft_defs_otf2_comm_group(global, (weft_comm){maps->comms[i]});
    return WEFT_OK;
}

weft_status weft__job_unify(const weft_job_ops *job, weft_registry *local,
                            weft_registry **global, weft_id_maps *out)
{
    *global = NULL;
    memset(out, 0, sizeof(*out));

    weft_registry *acc = weft_registry_create();
    weft_status st = acc ? merge_registry(acc, local, job->rank, WEFT_PACK_LOCATIONS, NULL)
                         : WEFT_ERR_NO_MEMORY;
    weft_status tree = reduce_tree(job, acc);
    if (st == WEFT_OK)
        st = tree;

    void *buf = NULL;
    uint64_t len = 0;
    weft_status shared = broadcast_global(job, acc, st, &buf, &len);
    if (job->rank != 0 && st == WEFT_OK)
        st = shared;

    /* This rank's ids in the global definitions. */
    weft_id_maps maps = {0};
    weft_registry *copy = st == WEFT_OK ? weft_registry_create() : NULL;
    if (st == WEFT_OK && !copy)
        st = WEFT_ERR_NO_MEMORY;
    if (st == WEFT_OK)
        st = weft_registry_merge(copy, buf, len, NULL);
    if (st == WEFT_OK)
        st = merge_registry(copy, local, job->rank, 0, &maps);
    if (st == WEFT_OK)
        st = to_otf2_refs(copy, &maps);
    weft_registry_destroy(copy);
    free(buf);

    /* Everyone fails alike, or nobody does. */
    uint64_t ok = st == WEFT_OK;
    if (job->allreduce_u64(&ok, 1, false, job->data) != 0 || ok != 1) {
        weft_id_maps_free(&maps);
        weft_registry_destroy(acc);
        return st == WEFT_OK ? WEFT_ERR_STATE : st;
    }
    if (job->rank == 0)
        *global = acc;
    else
        weft_registry_destroy(acc);
    *out = maps;
    return WEFT_OK;
}
