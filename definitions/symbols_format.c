/* SPDX-License-Identifier: BSD-3-Clause */
/* Fallback names for code addresses without a source line (see
 * weft_symbols_format_fallback): "function+0xOFF", "object+0xOFF" or
 * "0xADDRESS". A pure function of its arguments. */
#include "weft/symbols.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The object's file name without directories ("libomp.so.5"). */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

int weft_symbols_format_fallback(const weft_symbol *symbol, const void *address, char *buffer,
                                 size_t size)
{
    if (symbol && symbol->function)
        return snprintf(buffer, size, "%s+0x%" PRIxPTR, symbol->function, symbol->function_offset);
    if (symbol && symbol->object)
        return snprintf(buffer, size, "%s+0x%" PRIxPTR, base_name(symbol->object),
                        symbol->object_offset);
    return snprintf(buffer, size, "0x%" PRIxPTR, (uintptr_t)address);
}
