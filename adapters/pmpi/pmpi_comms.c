/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI communicators as weft communicators; see pmpi_internal.h.
 *
 * Every rank names a communicator by the same 64-bit key, so that the
 * unification of the ranks' definitions merges them (weft/definitions.h):
 *   MPI_COMM_WORLD 0 and MPI_COMM_SELF 1;
 *   one made by a collective call over a parent (Comm_dup, Comm_split,
 *     Comm_create, Cart_create, Intercomm_create, ...): a hash of the
 *     parent's key, the number of communicators this rank made from that
 *     parent before, and the lowest world rank among the new members. Every
 *     member computes the same, because the ranks of a communicator make
 *     their collective calls on it in the same order;
 *   any other (Comm_create_group and Intercomm_merge, which not all of a
 *     parent's ranks call; Comm_idup; one made through PMPI by a library):
 *     a hash of its members' world ranks, taken when it is first seen.
 * Members are world ranks by rank in the communicator; an intercommunicator
 * has its REMOTE group as members: the ranks its point-to-point calls name.
 * Its messages and collectives are not recorded as such (regions only,
 * weft__pmpi_message_comm): each side names the transfer through its own
 * view, two communicators in the trace, so no reader could match them, and
 * an unmatched message makes a trace unsound (Scalasca's replay needs every
 * message's partner). Processes made by MPI_Comm_spawn are not even in the
 * job's trace, so an intracommunicator that holds some of them (merged
 * from a spawn's intercommunicator) is recorded the same way.
 *
 * Events find a communicator in a table keyed by the handle's bits. Readers
 * take no lock: open addressing, slots published with release stores, and
 * a table that grows is replaced but never freed (readers may still be in
 * it). Writers hold table_mutex. Comm_free empties the handle's slot (Open
 * MPI reuses handles); the definition stays. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi_hooks.h"
#include "pmpi_internal.h"
#include "weft/log.h"

_Static_assert(sizeof(MPI_Comm) <= sizeof(uint64_t), "an MPI_Comm handle fits in 64 bits");

/* The name of every communicator but the two predefined ones: stable text,
 * equal on all ranks, as Score-P leaves them unnamed. */
static const char comm_name[] = "MPI Communicator";

typedef struct comm_slot {
    _Atomic uint64_t handle; /* the handle's bits; 0: free. Set once (release) */
    _Atomic uint32_t comm;   /* weft comm id; WEFT_INVALID_ID after Comm_free */
    _Atomic bool silent;     /* no message records: see world_ranks() */
    uint32_t creations;      /* communicators made from this one (table_mutex) */
    uint64_t key;            /* its key (table_mutex) */
} comm_slot;

typedef struct comm_table {
    struct comm_table *retired; /* the table this one replaced, kept for readers */
    uint32_t mask;              /* slot count - 1 (a power of two - 1) */
    uint32_t used;              /* slots with a handle (table_mutex) */
    comm_slot slots[];
} comm_table;

/* Written under table_mutex (release), read by anyone (acquire). */
static _Atomic(comm_table *) table;
static pthread_mutex_t table_mutex = PTHREAD_MUTEX_INITIALIZER;

_Atomic uint32_t weft__pmpi_world_comm = WEFT_INVALID_ID;
/* Written by weft__pmpi_comms_init before the release store of
 * weft__pmpi_world_comm; constant afterwards. */
int weft__pmpi_world_rank;
int weft__pmpi_world_size = 1;

static uint64_t bits_of(MPI_Comm comm)
{
    uint64_t bits = 0;
    memcpy(&bits, &comm, sizeof(comm));
    return bits;
}

/* splitmix64's finaliser: spreads handle bits and builds keys. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Keys 0 and 1 belong to MPI_COMM_WORLD and MPI_COMM_SELF. */
static uint64_t created_key(uint64_t hash)
{
    return hash < 2 ? hash + 2 : hash;
}

/* The slot of a handle, or NULL. Lock-free. */
static comm_slot *find(comm_table *t, uint64_t bits)
{
    uint32_t i = (uint32_t)mix(bits) & t->mask;
    for (uint32_t probes = 0; probes <= t->mask; probes++, i = (i + 1) & t->mask) {
        /* Acquire: pairs with the release store in claim(); the slot's
         * comm and key were written before. */
        uint64_t h = atomic_load_explicit(&t->slots[i].handle, memory_order_acquire);
        if (h == bits)
            return &t->slots[i];
        if (h == 0)
            return NULL;
    }
    return NULL;
}

/* A free slot for bits in t, filled and published. Under table_mutex; t
 * has room (grow() keeps it at most half full). */
static comm_slot *claim(comm_table *t, uint64_t bits, uint32_t comm, uint64_t key,
                        uint32_t creations, bool silent)
{
    uint32_t i = (uint32_t)mix(bits) & t->mask;
    while (atomic_load_explicit(&t->slots[i].handle, memory_order_relaxed) != 0)
        i = (i + 1) & t->mask;
    comm_slot *s = &t->slots[i];
    s->key = key;
    s->creations = creations;
    atomic_store_explicit(&s->silent, silent, memory_order_relaxed);
    atomic_store_explicit(&s->comm, comm, memory_order_relaxed);
    /* Release: publishes comm and silent (and, for writers, key) with the handle
     * (pairs with the acquire in find()). */
    atomic_store_explicit(&s->handle, bits, memory_order_release);
    t->used++;
    return s;
}

/* A table with room for one more handle: the current one, or a copy of its
 * live slots in a larger one (freed handles are dropped). Under
 * table_mutex; NULL when out of memory. */
static comm_table *room_for_one(void)
{
    comm_table *old = atomic_load_explicit(&table, memory_order_relaxed);
    if (old && (old->used + 1) * 2 <= old->mask + 1)
        return old;
    uint32_t live = 0;
    for (uint32_t i = 0; old && i <= old->mask; i++)
        live +=
            atomic_load_explicit(&old->slots[i].comm, memory_order_relaxed) != WEFT_INVALID_ID &&
            atomic_load_explicit(&old->slots[i].handle, memory_order_relaxed) != 0;
    uint32_t capacity = 64;
    while (capacity < (live + 1) * 4)
        capacity *= 2;
    comm_table *t = calloc(1, sizeof(*t) + capacity * sizeof(comm_slot));
    if (!t)
        return NULL;
    t->mask = capacity - 1;
    t->retired = old;
    for (uint32_t i = 0; old && i <= old->mask; i++) {
        comm_slot *s = &old->slots[i];
        uint64_t bits = atomic_load_explicit(&s->handle, memory_order_relaxed);
        uint32_t comm = atomic_load_explicit(&s->comm, memory_order_relaxed);
        if (bits != 0 && comm != WEFT_INVALID_ID)
            claim(t, bits, comm, s->key, s->creations,
                  atomic_load_explicit(&s->silent, memory_order_relaxed));
    }
    /* Release: the copied slots are complete before a reader finds the
     * table (pairs with the acquire loads of `table`). */
    atomic_store_explicit(&table, t, memory_order_release);
    return t;
}

/* Points the handle at comm (a new slot, or a reused handle's old one).
 * Under table_mutex. False when out of memory. */
static bool put(MPI_Comm handle, weft_comm comm, uint64_t key, bool silent)
{
    uint64_t bits = bits_of(handle);
    comm_table *t = atomic_load_explicit(&table, memory_order_relaxed);
    comm_slot *s = t ? find(t, bits) : NULL;
    if (s) {
        s->key = key;
        s->creations = 0;
        atomic_store_explicit(&s->silent, silent, memory_order_relaxed);
        atomic_store_explicit(&s->comm, comm.id, memory_order_relaxed);
        return true;
    }
    t = room_for_one();
    return t && claim(t, bits, comm.id, key, 0, silent);
}

static void report_once(const char *what)
{
    static atomic_bool reported;
    if (!atomic_exchange_explicit(&reported, true, memory_order_relaxed))
        weft_log_error("%s; events on it are not recorded (further such problems are not "
                       "reported)",
                       what);
}

/* Registers a communicator with its members (world ranks by position). */
static weft_comm define(const char *name, uint64_t key, const uint32_t *members, uint32_t count)
{
    weft_registry *reg = weft_defs_global();
    weft_comm_desc desc = {
        .name = name, .paradigm = WEFT_PARADIGM_MPI, .parent = WEFT_COMM_INVALID, .key = key};
    weft_comm comm = WEFT_COMM_INVALID;
    if (!reg || weft_registry_comm(reg, &desc, &comm) != WEFT_OK) {
        report_once("cannot define an MPI communicator");
        return WEFT_COMM_INVALID;
    }
    for (uint32_t i = 0; i < count; i++) {
        if (members[i] != WEFT_INVALID_ID &&
            weft_registry_comm_set_member(reg, comm, i, members[i]) != WEFT_OK) {
            report_once("cannot record the members of an MPI communicator");
            break;
        }
    }
    return comm;
}

/* The world ranks of a group's members by rank (WEFT_INVALID_ID for a
 * process outside MPI_COMM_WORLD). Returns a malloc'ed array the caller
 * frees, or NULL. */
static uint32_t *group_world_ranks(MPI_Group group, uint32_t *count_out)
{
    int n = 0;
    MPI_Group world = MPI_GROUP_NULL;
    uint32_t *members = NULL;
    int *ranks = NULL;
    *count_out = 0;
    if (PMPI_Comm_group(MPI_COMM_WORLD, &world) != MPI_SUCCESS ||
        PMPI_Group_size(group, &n) != MPI_SUCCESS || n < 0)
        goto fail;
    ranks = malloc(2 * (size_t)n * sizeof(*ranks) + 1);
    members = malloc((size_t)n * sizeof(*members) + 1);
    if (!ranks || !members)
        goto fail;
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    if (PMPI_Group_translate_ranks(group, n, ranks, world, ranks + n) != MPI_SUCCESS)
        goto fail;
    for (int i = 0; i < n; i++)
        members[i] = ranks[n + i] >= 0 ? (uint32_t)ranks[n + i] : WEFT_INVALID_ID;
    free(ranks);
    PMPI_Group_free(&world);
    *count_out = (uint32_t)n;
    return members;
fail:
    free(members);
    free(ranks);
    if (world != MPI_GROUP_NULL)
        PMPI_Group_free(&world);
    return NULL;
}

/* The world ranks of comm's members by rank (of its remote group's for an
 * intercommunicator). Returns a malloc'ed array the caller frees, or NULL.
 * *silent: its messages and collectives are recorded as regions only (see
 * the top): an intercommunicator, or one with processes outside
 * MPI_COMM_WORLD (merged with spawned ones, say). */
static uint32_t *world_ranks(MPI_Comm comm, uint32_t *count_out, bool *silent)
{
    int inter = 0;
    MPI_Group group = MPI_GROUP_NULL;
    *count_out = 0;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        (inter ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group)) !=
            MPI_SUCCESS)
        return NULL;
    uint32_t *members = group_world_ranks(group, count_out);
    PMPI_Group_free(&group);
    *silent = inter != 0;
    for (uint32_t i = 0; members && i < *count_out; i++)
        *silent = *silent || members[i] == WEFT_INVALID_ID;
    return members;
}

/* The communicator with these members, keyed by them (*key). */
static weft_comm define_members(const uint32_t *members, uint32_t count, uint64_t *key)
{
    uint64_t hash = mix(UINT64_C(0x6d656d62657273) ^ count); /* "members" */
    for (uint32_t i = 0; i < count; i++)
        hash = mix(hash ^ members[i]);
    *key = created_key(hash);
    return define(comm_name, *key, members, count);
}

static bool comms_ready(void)
{
    /* Acquire: pairs with the release store in weft__pmpi_comms_init. */
    return atomic_load_explicit(&weft__pmpi_world_comm, memory_order_acquire) != WEFT_INVALID_ID;
}

/* Defines comm from its members (key: their hash) and points its handle at
 * it. Used for communicators weft did not see being made. */
static weft_comm define_by_members(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL || !comms_ready())
        return WEFT_COMM_INVALID;
    uint32_t count = 0;
    bool silent = false;
    uint32_t *members = world_ranks(comm, &count, &silent);
    if (!members) {
        report_once("cannot read the members of an MPI communicator");
        return WEFT_COMM_INVALID;
    }
    uint64_t key = 0;
    weft_comm c = define_members(members, count, &key);
    free(members);
    if (c.id == WEFT_INVALID_ID)
        return c;
    pthread_mutex_lock(&table_mutex);
    bool stored = put(comm, c, key, silent);
    pthread_mutex_unlock(&table_mutex);
    if (!stored)
        report_once("out of memory for the MPI communicator table");
    return c;
}

weft_comm weft__pmpi_comm_of_group(MPI_Group group)
{
    if (group == MPI_GROUP_NULL || group == MPI_GROUP_EMPTY || !comms_ready())
        return WEFT_COMM_INVALID;
    uint32_t count = 0;
    uint32_t *members = group_world_ranks(group, &count);
    if (!members) {
        report_once("cannot read the members of an MPI group");
        return WEFT_COMM_INVALID;
    }
    uint64_t key = 0;
    weft_comm c = define_members(members, count, &key);
    free(members);
    return c;
}

/* The comm id the handle points at (WEFT_INVALID_ID: none yet, or freed)
 * and whether its messages are left unrecorded. One probe, lock-free. */
static uint32_t slot_comm(MPI_Comm comm, bool *silent)
{
    /* Acquire: pairs with the release store in room_for_one(). */
    comm_table *t = atomic_load_explicit(&table, memory_order_acquire);
    comm_slot *s = t ? find(t, bits_of(comm)) : NULL;
    if (!s)
        return WEFT_INVALID_ID;
    *silent = atomic_load_explicit(&s->silent, memory_order_relaxed);
    return atomic_load_explicit(&s->comm, memory_order_relaxed);
}

weft_comm weft__pmpi_message_comm_lookup(MPI_Comm comm)
{
    bool silent = false;
    uint32_t id = slot_comm(comm, &silent);
    if (id == WEFT_INVALID_ID && define_by_members(comm).id != WEFT_INVALID_ID)
        id = slot_comm(comm, &silent); /* first seen: rare */
    return id != WEFT_INVALID_ID && !silent ? (weft_comm){id} : WEFT_COMM_INVALID;
}

weft_comm weft__pmpi_comm_lookup(MPI_Comm comm)
{
    bool silent = false;
    uint32_t id = slot_comm(comm, &silent);
    return id != WEFT_INVALID_ID ? (weft_comm){id} : define_by_members(comm);
}

void weft__pmpi_comms_init(void)
{
    if (comms_ready())
        return;
    int rank = 0, size = 1;
    if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
        PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS || size < 1) {
        weft_log_error("cannot read MPI_COMM_WORLD; no MPI messages are recorded");
        return;
    }
    uint32_t *members = malloc((size_t)size * sizeof(*members));
    if (!members) {
        weft_log_error("out of memory defining MPI_COMM_WORLD; no MPI messages are recorded");
        return;
    }
    for (int i = 0; i < size; i++)
        members[i] = (uint32_t)i;
    weft_comm world = define("MPI_COMM_WORLD", WEFT_COMM_KEY_MPI_WORLD, members, (uint32_t)size);
    free(members);
    weft_comm self = define("MPI_COMM_SELF", WEFT_COMM_KEY_MPI_SELF, NULL, 0);
    if (world.id == WEFT_INVALID_ID)
        return;
    pthread_mutex_lock(&table_mutex);
    bool stored = put(MPI_COMM_WORLD, world, WEFT_COMM_KEY_MPI_WORLD, false);
    if (self.id != WEFT_INVALID_ID)
        stored = put(MPI_COMM_SELF, self, WEFT_COMM_KEY_MPI_SELF, false) && stored;
    pthread_mutex_unlock(&table_mutex);
    if (!stored)
        report_once("out of memory for the MPI communicator table");
    weft__pmpi_world_rank = rank;
    weft__pmpi_world_size = size;
    /* Release: the definitions, the table and the world's rank and size
     * are complete before any thread sees the world defined. */
    atomic_store_explicit(&weft__pmpi_world_comm, world.id, memory_order_release);
}

/* Counts one more communicator made from parent; its key and the count
 * before go out. False when the parent is unknown (then the new one is
 * keyed by its members when first seen). */
static bool count_creation(MPI_Comm parent, uint64_t *key, uint32_t *creation)
{
    if (weft__pmpi_comm_lookup(parent).id == WEFT_INVALID_ID)
        return false;
    bool found = false;
    pthread_mutex_lock(&table_mutex);
    comm_table *t = atomic_load_explicit(&table, memory_order_relaxed);
    comm_slot *s = t ? find(t, bits_of(parent)) : NULL;
    if (s && atomic_load_explicit(&s->comm, memory_order_relaxed) != WEFT_INVALID_ID) {
        *key = s->key;
        *creation = s->creations++;
        found = true;
    }
    pthread_mutex_unlock(&table_mutex);
    return found;
}

/* Defines newcomm, the creation-th communicator made from the parent of
 * key parent_key, keyed by that lineage. */
static void define_derived(MPI_Comm newcomm, uint64_t parent_key, uint32_t creation)
{
    uint32_t count = 0;
    bool silent = false;
    uint32_t *members = world_ranks(newcomm, &count, &silent);
    if (!members) {
        report_once("cannot read the members of a new MPI communicator");
        return;
    }
    uint32_t lowest = WEFT_INVALID_ID;
    for (uint32_t i = 0; i < count; i++)
        lowest = members[i] < lowest ? members[i] : lowest;
    uint64_t key = created_key(mix(mix(mix(parent_key) ^ creation) ^ lowest));
    weft_comm c = define(comm_name, key, members, count);
    free(members);
    if (c.id == WEFT_INVALID_ID)
        return;
    pthread_mutex_lock(&table_mutex);
    bool stored = put(newcomm, c, key, silent);
    pthread_mutex_unlock(&table_mutex);
    if (!stored)
        report_once("out of memory for the MPI communicator table");
}

void weft__pmpi_comm_derived(int ret, MPI_Comm parent, const MPI_Comm *newcomm)
{
    uint64_t parent_key = 0;
    uint32_t creation = 0;
    /* Every rank of the parent counts the call, also those that get
     * MPI_COMM_NULL (Comm_split with MPI_UNDEFINED): the counts stay equal. */
    if (ret != MPI_SUCCESS || !comms_ready() || !count_creation(parent, &parent_key, &creation) ||
        *newcomm == MPI_COMM_NULL)
        return;
    define_derived(*newcomm, parent_key, creation);
}

/* Comm_idup: the new communicator exists once the request completes. Its
 * place in the parent's lineage is taken now (every member calls in the
 * same order); the request remembers where the program gets the handle (C
 * or Fortran) and the lineage, and its completion defines it. */
static void idup_remember(int ret, MPI_Comm parent, const void *newcomm, bool fortran,
                          const MPI_Request *request)
{
    uint64_t parent_key = 0;
    uint32_t creation = 0;
    if (ret != MPI_SUCCESS || !comms_ready() || *request == MPI_REQUEST_NULL ||
        !count_creation(parent, &parent_key, &creation)) {
        if (ret == MPI_SUCCESS)
            weft__pmpi_request_collective(ret, request);
        return;
    }
    weft_pmpi_request req = {.id = weft__pmpi_request_id(),
                             .bytes = (uint64_t)(uintptr_t)newcomm,
                             .comm = WEFT_COMM_INVALID,
                             .peer = (uint32_t)parent_key,
                             .tag = (uint32_t)(parent_key >> 32),
                             .kind = WEFT_PMPI_REQUEST_COMM,
                             .flags = WEFT_PMPI_REQUEST_ACTIVE |
                                      (fortran ? WEFT_PMPI_REQUEST_FORTRAN : 0)};
    req.creation = creation;
    weft__pmpi_request_remember(*request, &req);
}

void weft__pmpi_comm_idup(int ret, MPI_Comm parent, const MPI_Comm *newcomm,
                          const MPI_Request *request)
{
    idup_remember(ret, parent, newcomm, false, request);
}

void weft__pmpi_comm_idup_f(int ret, MPI_Comm parent, const MPI_Fint *newcomm,
                            const MPI_Request *request)
{
    idup_remember(ret, parent, newcomm, true, request);
}

void weft__pmpi_comm_idup_done(const weft_pmpi_request *req)
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    if (req->flags & WEFT_PMPI_REQUEST_FORTRAN)
        newcomm = PMPI_Comm_f2c(*(const MPI_Fint *)(uintptr_t)req->bytes);
    else
        newcomm = *(const MPI_Comm *)(uintptr_t)req->bytes;
    if (newcomm != MPI_COMM_NULL)
        define_derived(newcomm, (uint64_t)req->tag << 32 | req->peer, req->creation);
}

void weft__pmpi_comm_by_members(int ret, const MPI_Comm *newcomm)
{
    if (ret == MPI_SUCCESS)
        define_by_members(*newcomm);
}

weft_pmpi_comm_ref weft__pmpi_comm_free_begin(const MPI_Comm *comm)
{
    weft_pmpi_comm_ref ref = {*comm, WEFT_COMM_INVALID};
    comm_table *t = atomic_load_explicit(&table, memory_order_acquire);
    comm_slot *s = t && *comm != MPI_COMM_NULL ? find(t, bits_of(*comm)) : NULL;
    if (s)
        ref.comm.id = atomic_load_explicit(&s->comm, memory_order_relaxed);
    return ref;
}

void weft__pmpi_comm_free_end(int ret, weft_pmpi_comm_ref freed)
{
    if (ret != MPI_SUCCESS || freed.comm.id == WEFT_INVALID_ID)
        return;
    pthread_mutex_lock(&table_mutex);
    comm_table *t = atomic_load_explicit(&table, memory_order_relaxed);
    comm_slot *s = t ? find(t, bits_of(freed.handle)) : NULL;
    /* Another thread may already have been given the same handle for a new
     * communicator: only empty the slot if it still names the freed one. */
    if (s && atomic_load_explicit(&s->comm, memory_order_relaxed) == freed.comm.id)
        atomic_store_explicit(&s->comm, WEFT_INVALID_ID, memory_order_relaxed);
    pthread_mutex_unlock(&table_mutex);
}
