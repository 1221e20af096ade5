/* SPDX-License-Identifier: BSD-3-Clause */
/* Growing arrays, for the tools' tables of definitions, events and rows.
 * Private to tools/. */
#ifndef WEFT_TOOLS_CLI_GROW_H
#define WEFT_TOOLS_CLI_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Makes room for NEEDED items of ITEM_SIZE bytes in the array whose
 * pointer ARRAY points to (any T **, NULL when empty) and whose capacity is
 * *CAPACITY: the capacity doubles, from 16, until NEEDED fit. False when
 * memory runs out (or the size overflows); the array and *CAPACITY are then
 * as they were. */
bool weft__cli_grow(void *array, size_t *capacity, size_t needed, size_t item_size);

#endif /* WEFT_TOOLS_CLI_GROW_H */
