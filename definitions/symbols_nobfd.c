/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading objects without libbfd (a build with WEFT_BFD=OFF, or where
 * binutils-dev is missing): the function around an address comes from the
 * dynamic symbols the loader has in memory (dladdr), not demangled; there is
 * no source file or line. Exported functions of shared libraries (and of an
 * executable linked with -rdynamic) get names; everything else is named
 * object+offset. */
#include "symbols_internal.h"

/* The fallback needs no per-object state; one static stands for every
 * object so that "opened" is distinguishable from "cannot be read". */
struct weft__symbols_reader {
    int unused;
};

static weft__symbols_reader shared_reader;

bool weft__symbols_reader_has_bfd(void)
{
    return false;
}

weft__symbols_reader *weft__symbols_reader_open(const char *path, const char *display_path)
{
    (void)path;
    (void)display_path;
    return &shared_reader;
}

void weft__symbols_reader_describe(weft__symbols_reader *reader, uintptr_t address,
                                   uintptr_t load_bias, weft__symbols_strings *pool,
                                   weft__symbols_found *out)
{
    (void)reader;
    (void)load_bias;
    *out = (weft__symbols_found){0};
    weft__symbols_dladdr_function((const void *)address, pool, &out->function,
                                  &out->function_start);
}

void weft__symbols_reader_close(weft__symbols_reader *reader)
{
    (void)reader;
}
