/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading one object with libbfd: the function around an address from the
 * static symbol table (or, when that was stripped, from the dynamic symbols
 * through dladdr), C++ names demangled, and the source file and line from
 * the DWARF line tables with bfd_find_nearest_line. Built only when CMake
 * found libbfd (symbols_nobfd.c replaces it otherwise).
 *
 * libbfd (binutils 2.40) is not thread-safe; every call here runs under the
 * symboliser's mutex. libbfd reports problems with the debug information
 * through a global error handler that prints to stderr; it is silenced
 * around our calls, so a damaged object gives at most our one verbose line. */
#include "symbols_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "weft/log.h"

/* libiberty's demangler options (demangle.h, not installed by binutils-dev):
 * DMGL_PARAMS shows the parameter list, DMGL_ANSI const and volatile. */
enum { DEMANGLE_PARAMS = 1 << 0, DEMANGLE_ANSI = 1 << 1 };

/* One function symbol; addresses are link-time (as in the file). */
typedef struct function_symbol {
    uintptr_t start;
    uintptr_t end;       /* the next function's start, or the section's end */
    const char *name;    /* libbfd's, raw (mangled) */
    const char *display; /* demangled and interned on first use; NULL before */
    bool global;
} function_symbol;

struct weft__symbols_reader {
    bfd *abfd;
    asymbol **symbols;          /* the static symbol table, NULL-terminated (maybe empty) */
    function_symbol *functions; /* from symbols, sorted by start */
    size_t function_count;
};

/* Set once, under the symboliser's mutex. */
static bool bfd_ready;

static void quiet(const char *fmt, va_list args)
{
    (void)fmt;
    (void)args;
}

bool weft__symbols_reader_has_bfd(void)
{
    return true;
}

static int by_start(const void *a, const void *b)
{
    const function_symbol *x = a;
    const function_symbol *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    /* Aliases: the global name first, then by name, so the choice is stable. */
    if (x->global != y->global)
        return x->global ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Reads the static symbol table into reader->symbols (an empty table when
 * the object has none) and its function symbols into reader->functions. */
static bool read_functions(weft__symbols_reader *reader)
{
    bfd *abfd = reader->abfd;
    long storage = (bfd_get_file_flags(abfd) & HAS_SYMS) ? bfd_get_symtab_upper_bound(abfd) : 0;
    long count = 0;
    if (storage > 0) {
        reader->symbols = malloc((size_t)storage);
        if (!reader->symbols)
            return false;
        count = bfd_canonicalize_symtab(abfd, reader->symbols);
        if (count < 0)
            count = 0;
        reader->symbols[count] = NULL;
    } else {
        reader->symbols = calloc(1, sizeof(asymbol *));
        if (!reader->symbols)
            return false;
    }
    if (count == 0)
        return true;

    reader->functions = malloc((size_t)count * sizeof(*reader->functions));
    if (!reader->functions)
        return false;
    size_t n = 0;
    for (long i = 0; i < count; i++) {
        const asymbol *sym = reader->symbols[i];
        const asection *section = bfd_asymbol_section(sym);
        if (!(sym->flags & BSF_FUNCTION) || bfd_is_und_section(section) ||
            !(bfd_section_flags(section) & SEC_CODE))
            continue;
        reader->functions[n++] = (function_symbol){
            .start = (uintptr_t)bfd_asymbol_value(sym),
            /* A function runs at most to the end of its section. */
            .end = (uintptr_t)(bfd_section_vma(section) + bfd_section_size(section)),
            .name = bfd_asymbol_name(sym),
            .global = (sym->flags & BSF_GLOBAL) != 0,
        };
    }
    qsort(reader->functions, n, sizeof(*reader->functions), by_start);
    /* Drop aliases (the sort put the preferred name first); end each function
     * where the next one starts. Symbol sizes are not in libbfd's public
     * interface; with a full symbol table every function has a symbol, so
     * the next start is a tight enough bound. */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept > 0 && reader->functions[kept - 1].start == reader->functions[i].start)
            continue;
        reader->functions[kept++] = reader->functions[i];
    }
    for (size_t i = 0; i + 1 < kept; i++) {
        if (reader->functions[i + 1].start < reader->functions[i].end)
            reader->functions[i].end = reader->functions[i + 1].start;
    }
    reader->function_count = kept;
    return true;
}

weft__symbols_reader *weft__symbols_reader_open(const char *path, const char *display_path)
{
    bfd_error_handler_type saved = bfd_set_error_handler(quiet);
    weft__symbols_reader *reader = NULL;
    const char *why = NULL;
    if (!bfd_ready) {
        if (bfd_init() != BFD_INIT_MAGIC) {
            why = "this libbfd is not the one weft was built against";
            goto fail;
        }
        bfd_ready = true;
    }
    reader = calloc(1, sizeof(*reader));
    if (!reader) {
        why = "out of memory";
        goto fail;
    }
    reader->abfd = bfd_openr(path, NULL);
    if (!reader->abfd || !bfd_check_format(reader->abfd, bfd_object)) {
        why = bfd_errmsg(bfd_get_error());
        goto fail;
    }
    if (!read_functions(reader)) {
        why = "out of memory";
        goto fail;
    }
    bfd_set_error_handler(saved);
    return reader;

fail:
    weft__symbols_reader_close(reader);
    bfd_set_error_handler(saved);
    weft_log_verbose("cannot read the symbols of %s (%s); its code is named object+offset",
                     display_path, why);
    return NULL;
}

/* The function symbol covering vma, or NULL. */
static function_symbol *function_at(weft__symbols_reader *reader, uintptr_t vma)
{
    size_t lo = 0;
    size_t hi = reader->function_count;
    while (lo < hi) { /* the first function starting after vma */
        size_t mid = lo + (hi - lo) / 2;
        if (reader->functions[mid].start <= vma)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    function_symbol *f = &reader->functions[lo - 1];
    return vma < f->end ? f : NULL;
}

/* The demangled name when name is a C++ (or other mangled) name, else name;
 * interned. NULL only when out of memory. */
static const char *display_name(bfd *abfd, const char *name, weft__symbols_strings *pool)
{
    char *demangled = bfd_demangle(abfd, name, DEMANGLE_PARAMS | DEMANGLE_ANSI);
    const char *interned = weft__symbols_strings_intern(pool, demangled ? demangled : name);
    free(demangled);
    return interned;
}

static void find_function(weft__symbols_reader *reader, uintptr_t address, uintptr_t bias,
                          weft__symbols_strings *pool, weft__symbols_found *out)
{
    if (reader->function_count == 0) {
        /* Stripped: only the dynamic symbols are left. */
        const char *raw = NULL;
        uintptr_t start = 0;
        if (weft__symbols_dladdr_function((const void *)address, pool, &raw, &start)) {
            out->function = display_name(reader->abfd, raw, pool);
            out->function_start = out->function ? start : 0;
        }
        return;
    }
    function_symbol *f = function_at(reader, address - bias);
    if (!f)
        return;
    if (!f->display)
        f->display = display_name(reader->abfd, f->name, pool);
    out->function = f->display;
    out->function_start = out->function ? f->start + bias : 0;
}

static void find_line(weft__symbols_reader *reader, uintptr_t vma, weft__symbols_strings *pool,
                      weft__symbols_found *out)
{
    for (asection *section = reader->abfd->sections; section; section = section->next) {
        uintptr_t start = (uintptr_t)bfd_section_vma(section);
        if (!(bfd_section_flags(section) & SEC_ALLOC) || vma < start ||
            vma - start >= (uintptr_t)bfd_section_size(section))
            continue;
        const char *file = NULL;
        const char *function = NULL;
        unsigned line = 0;
        /* Without DWARF, libbfd may still name the file from an STT_FILE
         * symbol, with line 0: that is no line information. */
        if (bfd_find_nearest_line(reader->abfd, section, reader->symbols, vma - start, &file,
                                  &function, &line) &&
            file && line > 0) {
            out->file = weft__symbols_strings_intern(pool, file);
            out->line = out->file ? line : 0;
        }
        return;
    }
}

void weft__symbols_reader_describe(weft__symbols_reader *reader, uintptr_t address,
                                   uintptr_t load_bias, weft__symbols_strings *pool,
                                   weft__symbols_found *out)
{
    *out = (weft__symbols_found){0};
    bfd_error_handler_type saved = bfd_set_error_handler(quiet);
    find_function(reader, address, load_bias, pool, out);
    find_line(reader, address - load_bias, pool, out);
    bfd_set_error_handler(saved);
}

void weft__symbols_reader_close(weft__symbols_reader *reader)
{
    if (!reader)
        return;
    if (reader->abfd)
        bfd_close(reader->abfd);
    free(reader->functions);
    free(reader->symbols);
    free(reader);
}
