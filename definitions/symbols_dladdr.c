/* SPDX-License-Identifier: BSD-3-Clause */
/* The function around an address, from the dynamic symbol tables the dynamic
 * loader already has in memory (dladdr1). Serves objects whose static symbol
 * table was stripped, and the build without libbfd.
 *
 * glibc's dladdr only answers with a symbol whose extent [st_value,
 * st_value + st_size) covers the address, so an address in a hidden function
 * of a stripped library gives no name rather than the name of the exported
 * function before it (libbfd's own nearest-symbol search would give that). */
#include "symbols_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

bool weft__symbols_dladdr_function(const void *address, weft__symbols_strings *pool,
                                   const char **name, uintptr_t *start)
{
    *name = NULL;
    *start = 0;
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    /* dladdr1 wants the symbol pointer's address as void **. */
    void *sym_out = NULL;
    if (!dladdr1(address, &info, &sym_out, RTLD_DL_SYMENT) || !info.dli_sname || !sym_out)
        return false;
    sym = sym_out;
    int type = ELF64_ST_TYPE(sym->st_info);
    if (type != STT_FUNC && type != STT_GNU_IFUNC)
        return false;
    const char *copy = weft__symbols_strings_intern(pool, info.dli_sname);
    if (!copy)
        return false;
    *name = copy;
    *start = (uintptr_t)info.dli_saddr;
    return true;
}
