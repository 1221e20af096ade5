/* SPDX-License-Identifier: BSD-3-Clause */
/* The symboliser's public functions (weft/symbols.h): one mutex around the
 * per-address cache, the table of loaded objects and the string pool, and
 * the return-address rule (describe address - 1, report offsets of
 * address). Lookups are off the hot path (the OMPT adapter asks once per new
 * address), so a plain mutex is enough; it also serialises libbfd, which is
 * not thread-safe. */
#include "weft/symbols.h"

#include <errno.h>
#include <pthread.h>

#include "symbols_internal.h"

/* Everything below is written and read only with `lock` held. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static weft__symbols_cache cache;
static weft__symbols_objects objects;
static weft__symbols_strings strings;

bool weft_symbols_have_bfd(void)
{
    return weft__symbols_reader_has_bfd();
}

/* How far before a call without a line to look for the line of the code
 * that set the call up. */
enum { CALL_SETUP_BYTES = 64 };

static bool has_line_in(const weft__symbols_found *at, const weft__symbols_found *function)
{
    return at->file && at->line > 0 && at->function_start == function->function_start;
}

/* The line of a call that has none: clang gives a call's instructions line
 * 0 at times (HPCG's OpenMP constructs through OMPT were named
 * "function+0x..."). The nearest instruction before it in the same function
 * with a line set the call up (the construct's own line); failing that, the
 * return address's line. `address` is the return address. */
static void line_near_call(weft__symbols_reader *reader, const weft__symbols_object *object,
                           uintptr_t address, weft__symbols_found *found)
{
    uintptr_t lowest = address > CALL_SETUP_BYTES ? address - CALL_SETUP_BYTES : 1;
    if (found->function_start > lowest)
        lowest = found->function_start;
    weft__symbols_found at = {0};
    bool known = false;
    for (uintptr_t pc = address - 2; !known && pc >= lowest && pc < address; pc--) {
        weft__symbols_reader_describe(reader, pc, object->bias, &strings, &at);
        known = has_line_in(&at, found);
    }
    if (!known) {
        weft__symbols_reader_describe(reader, address, object->bias, &strings, &at);
        known = has_line_in(&at, found);
    }
    if (known) {
        found->file = at.file;
        found->line = at.line;
    }
}

/* Describes address in object; see weft_symbols_lookup for the rule. */
static void describe(weft__symbols_object *object, uintptr_t address, bool as_return,
                     weft_symbol *out)
{
    *out = (weft_symbol){.object = object->path, .object_offset = address - object->bias};
    uintptr_t pc = as_return ? address - 1 : address;
    weft__symbols_found found = {0};
    weft__symbols_reader *reader = weft__symbols_object_reader(object);
    if (reader) {
        weft__symbols_reader_describe(reader, pc, object->bias, &strings, &found);
        if (as_return && !(found.file && found.line > 0))
            line_near_call(reader, object, address, &found);
    } else {
        /* Unreadable file, or the vDSO (no file): the loader may still know
         * the exported functions. */
        weft__symbols_dladdr_function((const void *)pc, &strings, &found.function,
                                      &found.function_start);
    }
    if (found.function) {
        out->function = found.function;
        out->function_offset = address - found.function_start;
    }
    if (found.file && found.line > 0) {
        out->file = found.file;
        out->line = found.line;
    }
}

/* The cache entry of address, created (with its object) on a miss; NULL
 * when the address lies in no loaded object. `scratch` stands in for the
 * cache when it cannot grow, so an out-of-memory cache still answers. */
static weft__symbols_entry *entry_of(uintptr_t address, weft__symbols_entry *scratch)
{
    weft__symbols_entry *e = weft__symbols_cache_find(&cache, address);
    if (e)
        return e;
    weft__symbols_object *object = weft__symbols_objects_find(&objects, address);
    if (!object)
        return NULL;
    e = weft__symbols_cache_insert(&cache, address, object);
    if (!e) {
        *scratch = (weft__symbols_entry){.address = address, .object = object};
        e = scratch;
    }
    return e;
}

static weft_status lookup(const void *address, bool as_return, weft_symbol *out)
{
    if (!out)
        return WEFT_ERR_INVALID;
    *out = (weft_symbol){0};
    uintptr_t a = (uintptr_t)address;
    if (a == 0)
        return WEFT_ERR_NOT_FOUND;

    weft_status status = WEFT_OK;
    weft__symbols_entry scratch;
    pthread_mutex_lock(&lock);
    weft__symbols_entry *e = entry_of(a, &scratch);
    if (!e) {
        status = WEFT_ERR_NOT_FOUND;
    } else if (as_return) {
        if (!e->have_return)
            describe(e->object, a, true, &e->as_return);
        e->have_return = true;
        *out = e->as_return;
    } else {
        if (!e->have_instruction)
            describe(e->object, a, false, &e->as_instruction);
        e->have_instruction = true;
        *out = e->as_instruction;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

/* Looking symbols up reads object files (OMPT names a region this way in
 * the middle of the program's OpenMP construct): the program's errno must
 * come out of it as it went in. */
weft_status weft_symbols_lookup(const void *address, weft_symbol *out)
{
    int saved_errno = errno;
    weft_status status = lookup(address, true, out);
    errno = saved_errno;
    return status;
}

weft_status weft_symbols_lookup_instruction(const void *address, weft_symbol *out)
{
    int saved_errno = errno;
    weft_status status = lookup(address, false, out);
    errno = saved_errno;
    return status;
}

bool weft_symbols_same_object(const void *a, const void *b)
{
    if (!a || !b)
        return false;
    int saved_errno = errno;
    weft__symbols_entry scratch;
    pthread_mutex_lock(&lock);
    /* Copy the first object out: looking up b may grow the cache and move
     * a's entry. */
    weft__symbols_entry *ea = entry_of((uintptr_t)a, &scratch);
    weft__symbols_object *oa = ea ? ea->object : NULL;
    weft__symbols_entry *eb = oa ? entry_of((uintptr_t)b, &scratch) : NULL;
    bool same = eb && eb->object == oa;
    pthread_mutex_unlock(&lock);
    errno = saved_errno;
    return same;
}

void weft_symbols_shutdown(void)
{
    pthread_mutex_lock(&lock);
    weft__symbols_cache_clear(&cache);
    weft__symbols_objects_clear(&objects);
    weft__symbols_strings_clear(&strings);
    pthread_mutex_unlock(&lock);
}
