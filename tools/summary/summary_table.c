/* SPDX-License-Identifier: BSD-3-Clause */
/* The counter tables of `weft summary`: a 64-bit key (a rank pair, a
 * communicator, a communicator and an operation) to four counters. Rows sit
 * in one array in order of first use; an open-addressing index (linear
 * probing, at most half full) finds them. Memory grows with the number of
 * keys only, and a lookup costs a hash and a probe or two. */
#include "summary.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

typedef struct row {
    uint64_t key;
    uint64_t counters[WEFT_SUMMARY_COUNTERS];
} row;

#define EMPTY SIZE_MAX

struct weft_summary_table {
    row *rows;
    size_t row_count;
    size_t row_capacity;
    size_t *slots; /* row index or EMPTY; slot_count is a power of two */
    size_t slot_count;
};

weft_summary_table *weft__summary_table_create(void)
{
    return calloc(1, sizeof(weft_summary_table));
}

void weft__summary_table_destroy(weft_summary_table *t)
{
    if (!t)
        return;
    free(t->rows);
    free(t->slots);
    free(t);
}

/* A 64-bit finaliser (splitmix64's): rank pairs and small refs spread well. */
static size_t hash(uint64_t key)
{
    key ^= key >> 30;
    key *= UINT64_C(0xbf58476d1ce4e5b9);
    key ^= key >> 27;
    key *= UINT64_C(0x94d049bb133111eb);
    key ^= key >> 31;
    return (size_t)key;
}

static size_t *find_slot(const weft_summary_table *t, uint64_t key)
{
    size_t mask = t->slot_count - 1;
    for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
        if (t->slots[i] == EMPTY || t->rows[t->slots[i]].key == key)
            return &t->slots[i];
    }
}

/* Doubles the index and puts every row back in. */
static bool grow_index(weft_summary_table *t)
{
    size_t count = t->slot_count ? 2 * t->slot_count : 64;
    if (count > SIZE_MAX / sizeof(size_t))
        return false;
    size_t *slots = malloc(count * sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i < count; i++)
        slots[i] = EMPTY;
    free(t->slots);
    t->slots = slots;
    t->slot_count = count;
    for (size_t r = 0; r < t->row_count; r++)
        *find_slot(t, t->rows[r].key) = r;
    return true;
}

uint64_t *weft__summary_table_counters(weft_summary_table *t, uint64_t key)
{
    if (t->slot_count == 0 && !grow_index(t))
        return NULL;
    size_t *slot = find_slot(t, key);
    if (*slot != EMPTY)
        return t->rows[*slot].counters;

    if (2 * (t->row_count + 1) > t->slot_count) {
        if (!grow_index(t))
            return NULL;
        slot = find_slot(t, key);
    }
    if (!weft__cli_grow(&t->rows, &t->row_capacity, t->row_count + 1, sizeof(*t->rows)))
        return NULL;
    row *r = &t->rows[t->row_count];
    memset(r, 0, sizeof(*r));
    r->key = key;
    *slot = t->row_count++;
    return r->counters;
}

size_t weft__summary_table_size(const weft_summary_table *t)
{
    return t->row_count;
}

uint64_t weft__summary_table_key(const weft_summary_table *t, size_t i, const uint64_t **counters)
{
    *counters = t->rows[i].counters;
    return t->rows[i].key;
}
