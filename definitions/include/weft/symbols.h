/* SPDX-License-Identifier: BSD-3-Clause */
/* The symboliser: code addresses of this process -> function, source file and
 * line, through the DWARF line tables (libbfd), for the executable (PIE or
 * not) and every shared library loaded (found with dl_iterate_phdr).
 *
 * Used off the hot path: the OMPT adapter records an address and asks here
 * once per new address when it defines a region. Lookups are cached per
 * address and are thread-safe. Built into libweft-ompt only, so libweft and
 * libweft-mpi do not depend on libbfd. */
#ifndef WEFT_DEFINITIONS_SYMBOLS_H
#define WEFT_DEFINITIONS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is known about one address. Strings belong to the symboliser and stay
 * valid until weft_symbols_shutdown. */
typedef struct weft_symbol {
    const char *object;        /* path of the loaded object holding it; NULL if none */
    uintptr_t object_offset;   /* address - the object's load base */
    const char *function;      /* function name (demangled when C++), NULL if unknown */
    uintptr_t function_offset; /* address - the function's start, when function is known */
    const char *file;          /* source file as the debug information names it, or NULL */
    unsigned line;             /* source line, 0 when unknown */
} weft_symbol;

/* Describes address. WEFT_OK with as much as is known (file/line need debug
 * information; function needs a symbol table; object needs only that the
 * address lies in a loaded object); WEFT_ERR_NOT_FOUND when the address is
 * in no loaded object (out is then all NULL/0). Never aborts, never prints
 * more than one line per object that cannot be read (under WEFT_VERBOSE).
 *
 * address is taken as a return address (an OMPT codeptr_ra, a value of
 * __builtin_return_address): it points after a call instruction, whose
 * source line can differ from the next instruction's. So function, file and
 * line describe address - 1, the inside of the call (when that has no line,
 * the nearest line before it in the same function, else the line of
 * address itself); object_offset and
 * function_offset are those of address itself, as backtraces print them.
 * object_offset is address minus the object's load bias (dlpi_addr), i.e.
 * the address as the object file numbers it (what addr2line -e OBJECT
 * takes; for a non-PIE executable the address itself). file and line come
 * together: file is NULL whenever line is 0. Cached per address: the first
 * lookup of an address reads symbols and DWARF (microseconds; the first in
 * an object also opens it), later ones cost a mutex and a hash probe. An
 * object unloaded after an address was cached keeps that description until
 * weft_symbols_shutdown. Thread-safe; not for the event hot path. */
weft_status weft_symbols_lookup(const void *address, weft_symbol *out);

/* Like weft_symbols_lookup, for the address of an instruction itself (a
 * function's entry, a program counter), not a return address: everything
 * describes address. Shares weft_symbols_lookup's cache. */
weft_status weft_symbols_lookup_instruction(const void *address, weft_symbol *out);

/* The name of a described address when there is no source line:
 * "function+0xOFF" when the function is known, else "object+0xOFF" with the
 * object's file name without directories, else "0xADDRESS" (symbol from a
 * lookup that gave WEFT_ERR_NOT_FOUND, or NULL). Writes at most size bytes,
 * always terminated when size > 0; returns the length the whole name needs,
 * like snprintf. Thread-safe; touches no symboliser state. */
int weft_symbols_format_fallback(const weft_symbol *symbol, const void *address, char *buffer,
                                 size_t size);

/* Whether this build reads objects with libbfd (static symbols, demangled
 * C++ names, file and line). Without it only dladdr is used: functions in
 * the dynamic symbol tables, no file or line. */
bool weft_symbols_have_bfd(void);

/* Whether a and b lie in the same loaded object (e.g. "does this codeptr_ra
 * point into the OpenMP runtime itself?"). false if either lies in none. */
bool weft_symbols_same_object(const void *a, const void *b);

/* Frees every cache and every string handed out. Later lookups start again. */
void weft_symbols_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_SYMBOLS_H */
