/* SPDX-License-Identifier: BSD-3-Clause */
/* The tables of requests and messages; see pmpi_requests.h.
 *
 * A table is STRIPES small hash tables, a handle's stripe picked by its
 * hash. Each stripe is an open-addressing table (linear probing; deletion
 * shifts the following entries back, so there are no tombstones) behind
 * its own mutex, grown by doubling. A handle may have several entries (see
 * pmpi_requests.h): they sit in the same probe run, and pick() chooses
 * among them. Programs keep few requests pending, so a stripe stays a few
 * cache lines.
 *
 *   handle bits --mix--> hash: low bits pick the stripe, bits 8.. the slot
 *   stripe[0..15]: mutex | slots[capacity] | count */
#include "pmpi_requests.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "weft/log.h"

_Static_assert(sizeof(MPI_Request) <= sizeof(uint64_t), "an MPI_Request handle fits in 64 bits");
_Static_assert(sizeof(MPI_Message) <= sizeof(uint64_t), "an MPI_Message handle fits in 64 bits");

enum { STRIPES = 16, FIRST_CAPACITY = 8, ID_BLOCK = 1024 };

typedef struct entry {
    uint64_t handle; /* the handle's bits */
    bool used;
    bool claimed;     /* by a completion call in progress */
    uint32_t creator; /* the thread that remembered it (this_thread()) */
    weft_pmpi_request req;
} entry;

typedef struct stripe {
    _Alignas(64) pthread_mutex_t mutex;
    entry *slots; /* NULL until the first entry */
    uint32_t mask;
    uint32_t count;
} stripe;

typedef struct handle_table {
    stripe stripes[STRIPES];
} handle_table;

/* clang-format off */
#define STRIPE_INIT {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0}
#define FOUR_STRIPES STRIPE_INIT, STRIPE_INIT, STRIPE_INIT, STRIPE_INIT
static handle_table requests = {{FOUR_STRIPES, FOUR_STRIPES, FOUR_STRIPES, FOUR_STRIPES}};
static handle_table messages = {{FOUR_STRIPES, FOUR_STRIPES, FOUR_STRIPES, FOUR_STRIPES}};
#undef FOUR_STRIPES
#undef STRIPE_INIT
/* clang-format on */

/* Request ids: blocks of ID_BLOCK ids, the block number from a shared
 * counter (relaxed: only uniqueness matters), the ids of a block handed
 * out by the thread that took it. Block 0 is never taken: ids are never 0. */
static _Atomic uint64_t next_block = 1;
static _Thread_local uint64_t id_next __attribute__((tls_model("initial-exec")));
static _Thread_local uint64_t id_end __attribute__((tls_model("initial-exec")));

uint64_t weft__pmpi_request_id(void)
{
    if (id_next == id_end) {
        uint64_t block = atomic_fetch_add_explicit(&next_block, 1, memory_order_relaxed);
        id_next = block * ID_BLOCK;
        id_end = id_next + ID_BLOCK;
    }
    return id_next++;
}

/* A small number per thread (0: not drawn yet), telling whose entries are
 * whose. */
static _Atomic uint32_t next_thread = 1;
static _Thread_local uint32_t thread_token __attribute__((tls_model("initial-exec")));

static uint32_t this_thread(void)
{
    if (thread_token == 0)
        thread_token = atomic_fetch_add_explicit(&next_thread, 1, memory_order_relaxed);
    return thread_token;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    return x ^ (x >> 33);
}

static uint32_t home_of(const stripe *s, uint64_t hash)
{
    return (uint32_t)(hash >> 8) & s->mask;
}

/* The stripe of bits, locked. */
static stripe *lock_stripe(handle_table *t, uint64_t bits, uint64_t *hash)
{
    *hash = mix(bits);
    stripe *s = &t->stripes[*hash & (STRIPES - 1)];
    pthread_mutex_lock(&s->mutex);
    return s;
}

/* What an operation looks for among a handle's entries. */
typedef enum wanted { CLAIMABLE, WITH_ID, PERSISTENT, UNCLAIMED, ANY } wanted;

static bool fits(const entry *e, wanted what, uint64_t id)
{
    switch (what) {
    case CLAIMABLE:
        return !e->claimed && (e->req.flags & WEFT_PMPI_REQUEST_ACTIVE);
    case WITH_ID:
        return e->req.id == id;
    case PERSISTENT:
        return e->req.flags & WEFT_PMPI_REQUEST_PERSISTENT;
    case UNCLAIMED:
        return !e->claimed;
    case ANY:
        return true;
    }
    return false;
}

/* The entry of bits that fits: the calling thread's with the smallest id
 * (its oldest), else another thread's with the smallest id; NULL if none. */
static entry *pick(stripe *s, uint64_t bits, uint64_t hash, wanted what, uint64_t id)
{
    if (!s->slots)
        return NULL;
    uint32_t me = this_thread();
    entry *mine = NULL, *other = NULL;
    for (uint32_t i = home_of(s, hash); s->slots[i].used; i = (i + 1) & s->mask) {
        entry *e = &s->slots[i];
        if (e->handle != bits || !fits(e, what, id))
            continue;
        if (e->creator == me) {
            if (!mine || e->req.id < mine->req.id)
                mine = e;
        } else if (!other || e->req.id < other->req.id) {
            other = e;
        }
    }
    return mine ? mine : other;
}

/* Doubles the stripe (or makes its first slots); false when out of memory. */
static bool grow(stripe *s)
{
    uint32_t capacity = s->slots ? (s->mask + 1) * 2 : FIRST_CAPACITY;
    entry *slots = calloc(capacity, sizeof(*slots));
    if (!slots)
        return false;
    entry *old = s->slots;
    uint32_t old_capacity = old ? s->mask + 1 : 0;
    s->slots = slots;
    s->mask = capacity - 1;
    for (uint32_t i = 0; i < old_capacity; i++) {
        if (!old[i].used)
            continue;
        uint32_t j = home_of(s, mix(old[i].handle));
        while (slots[j].used)
            j = (j + 1) & s->mask;
        slots[j] = old[i];
    }
    free(old);
    return true;
}

/* A new entry for bits (fields zero, creator set); NULL when out of
 * memory. The stripe stays at most 3/4 full. */
static entry *add(stripe *s, uint64_t bits, uint64_t hash)
{
    if ((!s->slots || (s->count + 1) * 4 > (s->mask + 1) * 3) && !grow(s))
        return NULL;
    uint32_t i = home_of(s, hash);
    while (s->slots[i].used)
        i = (i + 1) & s->mask;
    entry *e = &s->slots[i];
    memset(e, 0, sizeof(*e));
    e->handle = bits;
    e->used = true;
    e->creator = this_thread();
    s->count++;
    return e;
}

/* Removes e, moving back the entries after it that would otherwise no
 * longer be found from their home slot. */
static void erase(stripe *s, entry *e)
{
    uint32_t hole = (uint32_t)(e - s->slots);
    for (uint32_t i = (hole + 1) & s->mask; s->slots[i].used; i = (i + 1) & s->mask) {
        uint32_t home = home_of(s, mix(s->slots[i].handle));
        /* The entry at i may fill the hole unless its home lies cyclically
         * in (hole, i]. */
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (!stays) {
            s->slots[hole] = s->slots[i];
            hole = i;
        }
    }
    s->slots[hole].used = false;
    s->count--;
}

static void report_out_of_memory(void)
{
    static atomic_bool reported;
    if (!atomic_exchange_explicit(&reported, true, memory_order_relaxed))
        weft_log_error("out of memory for MPI request tracking; some non-blocking messages are "
                       "recorded without their completion");
}

static uint64_t request_bits(MPI_Request handle)
{
    uint64_t bits = 0;
    memcpy(&bits, &handle, sizeof(handle));
    return bits;
}

static uint64_t message_bits(MPI_Message handle)
{
    uint64_t bits = 0;
    memcpy(&bits, &handle, sizeof(handle));
    return bits;
}

void weft__pmpi_request_remember(MPI_Request handle, const weft_pmpi_request *req)
{
    uint64_t hash, bits = request_bits(handle);
    stripe *s = lock_stripe(&requests, bits, &hash);
    entry *e = add(s, bits, hash);
    if (e)
        e->req = *req;
    pthread_mutex_unlock(&s->mutex);
    if (!e)
        report_out_of_memory();
}

bool weft__pmpi_request_claim(MPI_Request handle, weft_pmpi_request *out)
{
    uint64_t hash, bits = request_bits(handle);
    stripe *s = lock_stripe(&requests, bits, &hash);
    entry *e = pick(s, bits, hash, CLAIMABLE, 0);
    if (e) {
        e->claimed = true;
        *out = e->req;
    }
    pthread_mutex_unlock(&s->mutex);
    return e != NULL;
}

void weft__pmpi_request_unclaim(MPI_Request handle, uint64_t id)
{
    uint64_t hash, bits = request_bits(handle);
    stripe *s = lock_stripe(&requests, bits, &hash);
    entry *e = pick(s, bits, hash, WITH_ID, id);
    if (e)
        e->claimed = false;
    pthread_mutex_unlock(&s->mutex);
}

void weft__pmpi_request_completed(MPI_Request handle, uint64_t id)
{
    uint64_t hash, bits = request_bits(handle);
    stripe *s = lock_stripe(&requests, bits, &hash);
    entry *e = pick(s, bits, hash, WITH_ID, id);
    if (e && (e->req.flags & WEFT_PMPI_REQUEST_PERSISTENT)) {
        e->claimed = false;
        e->req.flags =
            (uint8_t)(e->req.flags & ~(WEFT_PMPI_REQUEST_ACTIVE | WEFT_PMPI_REQUEST_CANCELLING));
    } else if (e) {
        erase(s, e);
    }
    pthread_mutex_unlock(&s->mutex);
}

void weft__pmpi_request_forget(MPI_Request handle)
{
    uint64_t hash, bits = request_bits(handle);
    stripe *s = lock_stripe(&requests, bits, &hash);
    entry *e = pick(s, bits, hash, PERSISTENT, 0);
    if (!e)
        e = pick(s, bits, hash, UNCLAIMED, 0);
    if (e)
        erase(s, e);
    pthread_mutex_unlock(&s->mutex);
}

bool weft__pmpi_request_start(MPI_Request handle, weft_pmpi_request *out)
{
    uint64_t hash, bits = request_bits(handle);
    stripe *s = lock_stripe(&requests, bits, &hash);
    entry *e = pick(s, bits, hash, PERSISTENT, 0);
    if (e) {
        e->req.id = weft__pmpi_request_id();
        e->req.flags =
            (uint8_t)((e->req.flags | WEFT_PMPI_REQUEST_ACTIVE) & ~WEFT_PMPI_REQUEST_CANCELLING);
        *out = e->req;
    }
    pthread_mutex_unlock(&s->mutex);
    return e != NULL;
}

void weft__pmpi_request_cancelling(MPI_Request handle)
{
    uint64_t hash, bits = request_bits(handle);
    stripe *s = lock_stripe(&requests, bits, &hash);
    entry *e = pick(s, bits, hash, CLAIMABLE, 0);
    if (e)
        e->req.flags |= WEFT_PMPI_REQUEST_CANCELLING;
    pthread_mutex_unlock(&s->mutex);
}

void weft__pmpi_message_remember(MPI_Message message, weft_comm comm)
{
    uint64_t hash, bits = message_bits(message);
    stripe *s = lock_stripe(&messages, bits, &hash);
    entry *e = add(s, bits, hash);
    if (e)
        e->req.comm = comm;
    pthread_mutex_unlock(&s->mutex);
    if (!e)
        report_out_of_memory();
}

weft_comm weft__pmpi_message_take(MPI_Message message)
{
    weft_comm comm = WEFT_COMM_INVALID;
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return comm;
    uint64_t hash, bits = message_bits(message);
    stripe *s = lock_stripe(&messages, bits, &hash);
    entry *e = pick(s, bits, hash, ANY, 0);
    if (e) {
        comm = e->req.comm;
        erase(s, e);
    }
    pthread_mutex_unlock(&s->mutex);
    return comm;
}
