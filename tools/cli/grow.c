/* SPDX-License-Identifier: BSD-3-Clause */
/* Growing arrays; see grow.h. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool weft__cli_grow(void *array, size_t *capacity, size_t needed, size_t item_size)
{
    if (needed <= *capacity)
        return true;
    size_t grown = *capacity ? *capacity : 16;
    while (grown < needed) {
        if (grown > SIZE_MAX / 2)
            return false;
        grown *= 2;
    }
    if (item_size && grown > SIZE_MAX / item_size)
        return false;
    /* ARRAY is a T **; every object pointer has void *'s representation. */
    void *items;
    memcpy(&items, array, sizeof(items));
    void *moved = realloc(items, grown * item_size);
    if (!moved)
        return false;
    memcpy(array, &moved, sizeof(moved));
    *capacity = grown;
    return true;
}
