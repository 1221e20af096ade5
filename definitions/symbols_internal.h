/* SPDX-License-Identifier: BSD-3-Clause */
/* The symboliser's parts and how they fit together (see weft/symbols.h).
 *
 *   symbols.c          public API: the mutex, the return-address rule
 *   symbols_cache.c    the per-address cache
 *   symbols_format.c   fallback names (function+0xOFF, object+0xOFF)
 *   symbols_objects.c  the loaded objects, found with dl_iterate_phdr
 *   symbols_bfd.c      reading one object with libbfd (symbols, DWARF lines)
 *   symbols_nobfd.c    the same without libbfd: dladdr only
 *   symbols_dladdr.c   the function around an address from the dynamic symbols
 *   symbols_strings.c  the interned strings handed out to callers
 *
 * CMake builds exactly one of symbols_bfd.c and symbols_nobfd.c. Everything
 * here runs under the symboliser's mutex (symbols.c), so none of it locks. */
#ifndef WEFT_DEFINITIONS_SYMBOLS_INTERNAL_H
#define WEFT_DEFINITIONS_SYMBOLS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/status.h"
#include "weft/symbols.h"

/* ---- interned strings (symbols_strings.c) ---- */

/* A set of copied strings; each text is stored once. */
typedef struct weft__symbols_strings {
    char **slots;    /* open addressing; NULL marks an empty slot */
    size_t capacity; /* a power of two, or 0 before the first insert */
    size_t count;
} weft__symbols_strings;

/* Returns the pool's copy of text (made on first use), or NULL when out of
 * memory. The copy lives until weft__symbols_strings_clear. */
const char *weft__symbols_strings_intern(weft__symbols_strings *pool, const char *text);

/* Frees every copy; the pool is empty afterwards. */
void weft__symbols_strings_clear(weft__symbols_strings *pool);

/* ---- reading one object (symbols_bfd.c or symbols_nobfd.c) ---- */

/* What a backend keeps about one opened object; opaque outside it. */
typedef struct weft__symbols_reader weft__symbols_reader;

/* What a backend finds for one address. Strings are the reader's or the
 * pool's and live until weft__symbols_reader_close or the pool's clear. */
typedef struct weft__symbols_found {
    const char *function; /* NULL when no symbol covers the address */
    uintptr_t function_start;
    const char *file; /* NULL when there is no line information */
    unsigned line;    /* 0 with file NULL */
} weft__symbols_found;

/* Opens the object file at path (display_path names it in messages) for
 * lookups. Returns NULL when it cannot be read; the caller then describes
 * its addresses by object and offset only. */
weft__symbols_reader *weft__symbols_reader_open(const char *path, const char *display_path);

/* Describes the instruction at runtime address `address`, which lies in the
 * reader's object loaded with bias `load_bias` (dlpi_addr). */
void weft__symbols_reader_describe(weft__symbols_reader *reader, uintptr_t address,
                                   uintptr_t load_bias, weft__symbols_strings *pool,
                                   weft__symbols_found *out);

/* Closes the object; NULL is a no-op. */
void weft__symbols_reader_close(weft__symbols_reader *reader);

/* True when this build reads objects with libbfd. */
bool weft__symbols_reader_has_bfd(void);

/* ---- dynamic symbols through the dynamic loader (symbols_dladdr.c) ---- */

/* The function symbol of the loaded objects' dynamic symbol tables whose
 * extent (st_value, st_size) covers address: name (interned in pool, not
 * demangled) and start. false, with *name NULL, when there is none. */
bool weft__symbols_dladdr_function(const void *address, weft__symbols_strings *pool,
                                   const char **name, uintptr_t *start);

/* ---- the loaded objects (symbols_objects.c) ---- */

/* One loaded code segment: [start, end) in this process. */
typedef struct weft__symbols_range {
    uintptr_t start;
    uintptr_t end;
} weft__symbols_range;

/* One object the dynamic loader reported. Records are never freed before
 * weft__symbols_objects_clear, even when the object is unloaded, because the
 * strings of cached lookups point into them. */
typedef struct weft__symbols_object {
    char *path;                  /* the name reported to callers (owned) */
    char *open_path;             /* the file to read; NULL for the vDSO, which has none (owned) */
    uintptr_t bias;              /* dlpi_addr: runtime address - link-time address */
    weft__symbols_range *ranges; /* its PT_LOAD segments (owned) */
    size_t range_count;
    bool loaded;                  /* present in the latest dl_iterate_phdr pass */
    bool reader_tried;            /* reader opened, or the attempt failed and was logged */
    weft__symbols_reader *reader; /* NULL until needed, or when unreadable */
} weft__symbols_object;

/* The objects seen so far, and the loader's counters at the latest pass. */
typedef struct weft__symbols_objects {
    weft__symbols_object **items; /* owned, with the records */
    size_t count;
    size_t capacity;
    bool synced;             /* a full pass has run since the last clear */
    unsigned long long adds; /* dlpi_adds at the latest pass */
    unsigned long long subs; /* dlpi_subs at the latest pass */
} weft__symbols_objects;

/* The loaded object whose segments hold address, or NULL. Asks the dynamic
 * loader again first when objects were loaded or unloaded since the last
 * pass (dlopen, dlclose). */
weft__symbols_object *weft__symbols_objects_find(weft__symbols_objects *objects, uintptr_t address);

/* The object's reader, opened on first use; NULL when the object cannot be
 * read (one verbose line then, the first time). */
weft__symbols_reader *weft__symbols_object_reader(weft__symbols_object *object);

/* Frees every record and its reader; the table is empty afterwards. */
void weft__symbols_objects_clear(weft__symbols_objects *objects);

/* ---- the per-address cache (symbols_cache.c) ---- */

/* What is known about one address: its object at once, each description
 * when first asked for. */
typedef struct weft__symbols_entry {
    uintptr_t address; /* 0 marks an empty slot (0 is in no object) */
    weft__symbols_object *object;
    bool have_return;           /* as_return is filled in */
    bool have_instruction;      /* as_instruction is filled in */
    weft_symbol as_return;      /* weft_symbols_lookup */
    weft_symbol as_instruction; /* weft_symbols_lookup_instruction */
} weft__symbols_entry;

/* Open addressing on the address. Entries move when the table grows: a
 * pointer to one is good until the next insert. */
typedef struct weft__symbols_cache {
    weft__symbols_entry *slots;
    size_t capacity; /* a power of two, or 0 before the first insert */
    size_t count;
} weft__symbols_cache;

/* The entry of address, or NULL. */
weft__symbols_entry *weft__symbols_cache_find(weft__symbols_cache *cache, uintptr_t address);

/* Adds an entry for address (not yet in the cache) in object; NULL when out
 * of memory. */
weft__symbols_entry *weft__symbols_cache_insert(weft__symbols_cache *cache, uintptr_t address,
                                                weft__symbols_object *object);

/* Frees the table; the cache is empty afterwards. */
void weft__symbols_cache_clear(weft__symbols_cache *cache);

#endif /* WEFT_DEFINITIONS_SYMBOLS_INTERNAL_H */
