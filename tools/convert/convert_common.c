/* SPDX-License-Identifier: BSD-3-Clause */
/* See convert_common.h. */
#include "convert_common.h"

#include <stdlib.h>
#include <string.h>

int weft__convert_collective_op(const char *name)
{
    /* The order of WEFT_COLLECTIVE_LIST (weft/recorder.h). */
    static const char *const names[] = {"MPI_Barrier",
                                        "MPI_Bcast",
                                        "MPI_Gather",
                                        "MPI_Gatherv",
                                        "MPI_Scatter",
                                        "MPI_Scatterv",
                                        "MPI_Allgather",
                                        "MPI_Allgatherv",
                                        "MPI_Alltoall",
                                        "MPI_Alltoallv",
                                        "MPI_Alltoallw",
                                        "MPI_Allreduce",
                                        "MPI_Reduce",
                                        "MPI_Reduce_scatter",
                                        "MPI_Scan",
                                        "MPI_Exscan",
                                        "MPI_Reduce_scatter_block"};
    for (int op = 0; name && op < (int)(sizeof(names) / sizeof(names[0])); op++) {
        if (strcmp(name, names[op]) == 0)
            return op;
    }
    return -1;
}

bool weft__convert_omp_role(const char *name, weft_region_role *role)
{
#define R(x) WEFT_REGION_ROLE_##x
    static const struct {
        const char *construct;
        weft_region_role role;
    } constructs[] = {
        {"parallel", R(PARALLEL)},
        {"for", R(LOOP)},
        {"do", R(LOOP)},
        {"sections", R(SECTIONS)},
        {"section", R(SECTION)},
        {"single sblock", R(SINGLE_SBLOCK)},
        {"single", R(SINGLE)},
        {"master", R(MASTER)},
        {"critical sblock", R(CRITICAL_SBLOCK)},
        {"critical", R(CRITICAL)},
        {"atomic", R(ATOMIC)},
        {"barrier", R(BARRIER)},
        {"ibarrier", R(IMPLICIT_BARRIER)},
        {"implicit barrier", R(IMPLICIT_BARRIER)},
        {"flush", R(FLUSH)},
        {"ordered sblock", R(ORDERED_SBLOCK)},
        {"ordered", R(ORDERED)},
        {"workshare", R(WORKSHARE)},
        {"task", R(TASK)},
        {"taskwait", R(TASK_WAIT)},
    };
#undef R
    if (!name || strncmp(name, "!$omp ", 6) != 0)
        return false;
    const char *construct = name + 6;
    size_t len = strcspn(construct, "@");
    while (len > 0 && construct[len - 1] == ' ')
        len--;
    for (size_t i = 0; i < sizeof(constructs) / sizeof(constructs[0]); i++) {
        if (strlen(constructs[i].construct) == len &&
            strncmp(construct, constructs[i].construct, len) == 0) {
            *role = constructs[i].role;
            return true;
        }
    }
    /* "critical (name)" and other constructs with an argument */
    if (strncmp(construct, "critical", 8) == 0) {
        *role = WEFT_REGION_ROLE_CRITICAL;
        return true;
    }
    *role = WEFT_REGION_ROLE_UNKNOWN;
    return true;
}

typedef struct channel {
    bool used;
    uint32_t from, to, comm, tag;
    uint64_t *sizes;
    uint32_t head, count, capacity;
} channel;

struct convert_channels {
    channel *slots;
    uint32_t capacity, used;
};

convert_channels *weft__convert_channels_new(void)
{
    return calloc(1, sizeof(convert_channels));
}

void weft__convert_channels_free(convert_channels *ch)
{
    if (!ch)
        return;
    for (uint32_t i = 0; i < ch->capacity; i++)
        free(ch->slots[i].sizes);
    free(ch->slots);
    free(ch);
}

static uint32_t hash(uint32_t from, uint32_t to, uint32_t comm, uint32_t tag)
{
    uint64_t h = ((uint64_t)from * 0x9E3779B1u) ^ ((uint64_t)to * 0x85EBCA77u) ^
                 ((uint64_t)comm * 0xC2B2AE3Du) ^ ((uint64_t)tag * 0x27D4EB2Fu);
    return (uint32_t)(h ^ (h >> 29));
}

/* The slot of a channel in slots[capacity] (a power of two): its own, or
 * the free one where it goes. */
static channel *slot(channel *slots, uint32_t capacity, uint32_t from, uint32_t to, uint32_t comm,
                     uint32_t tag)
{
    uint32_t mask = capacity - 1;
    for (uint32_t i = hash(from, to, comm, tag) & mask;; i = (i + 1) & mask) {
        channel *c = &slots[i];
        if (!c->used || (c->from == from && c->to == to && c->comm == comm && c->tag == tag))
            return c;
    }
}

/* Keeps the table at most half full. */
static bool grow(convert_channels *ch)
{
    if (ch->capacity && ch->used * 2 < ch->capacity)
        return true;
    uint32_t capacity = ch->capacity ? ch->capacity * 2 : 256;
    channel *slots = calloc(capacity, sizeof(*slots));
    if (!slots)
        return false;
    for (uint32_t i = 0; i < ch->capacity; i++) {
        channel *old = &ch->slots[i];
        if (old->used)
            *slot(slots, capacity, old->from, old->to, old->comm, old->tag) = *old;
    }
    free(ch->slots);
    ch->slots = slots;
    ch->capacity = capacity;
    return true;
}

bool weft__convert_channel_send(convert_channels *ch, uint32_t from, uint32_t to, uint32_t comm,
                                uint32_t tag, uint64_t size)
{
    if (!grow(ch))
        return false;
    channel *c = slot(ch->slots, ch->capacity, from, to, comm, tag);
    if (!c->used) {
        *c = (channel){.used = true, .from = from, .to = to, .comm = comm, .tag = tag};
        ch->used++;
    }
    if (c->count == c->capacity) {
        uint32_t capacity = c->capacity ? c->capacity * 2 : 4;
        uint64_t *sizes = malloc(capacity * sizeof(*sizes));
        if (!sizes)
            return false;
        for (uint32_t i = 0; i < c->count; i++)
            sizes[i] = c->sizes[(c->head + i) % c->capacity];
        free(c->sizes);
        c->sizes = sizes;
        c->head = 0;
        c->capacity = capacity;
    }
    c->sizes[(c->head + c->count++) % c->capacity] = size;
    return true;
}

bool weft__convert_channel_receive(convert_channels *ch, uint32_t from, uint32_t to, uint32_t comm,
                                   uint32_t tag, uint64_t *size)
{
    if (!ch->capacity)
        return false;
    channel *c = slot(ch->slots, ch->capacity, from, to, comm, tag);
    if (!c->used || c->count == 0)
        return false;
    *size = c->sizes[c->head];
    c->head = (c->head + 1) % c->capacity;
    c->count--;
    return true;
}
