/* SPDX-License-Identifier: BSD-3-Clause */
/* The loaded objects of this process, as the dynamic loader reports them
 * through dl_iterate_phdr: the executable, every shared library and the vDSO,
 * each with its load bias and PT_LOAD segments.
 *
 * The table is refreshed only when the loader's counters of loaded and
 * unloaded objects (dlpi_adds, dlpi_subs) moved, so a library dlopen'ed after
 * the first lookup is found, and an unchanged process costs one short
 * dl_iterate_phdr call per refresh check. Records of unloaded objects stay
 * (marked not loaded) until the table is cleared: cached lookups point into
 * them. Not thread-safe: the symboliser's mutex protects the table. */
#include "symbols_internal.h"

#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* What dl_iterate_phdr passes to the callbacks below. */
typedef struct pass {
    weft__symbols_objects *objects;
    uintptr_t vdso;   /* AT_SYSINFO_EHDR: where the vDSO's ELF header is mapped */
    bool failed;      /* out of memory: the table is incomplete */
    bool have_counts; /* the loader reported dlpi_adds/dlpi_subs */
    unsigned long long adds;
    unsigned long long subs;
} pass;

static void take_counts(pass *p, const struct dl_phdr_info *info, size_t size)
{
    /* Older loaders pass a shorter struct without the counters. */
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
        p->have_counts = true;
        p->adds = info->dlpi_adds;
        p->subs = info->dlpi_subs;
    }
}

/* Stops after the first object: only the counters are wanted. */
static int read_counts(struct dl_phdr_info *info, size_t size, void *data)
{
    take_counts(data, info, size);
    return 1;
}

static char *copy_text(const char *text)
{
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (copy)
        memcpy(copy, text, len + 1);
    return copy;
}

static bool ranges_hold(const weft__symbols_range *ranges, size_t count, uintptr_t address)
{
    for (size_t i = 0; i < count; i++) {
        if (address >= ranges[i].start && address < ranges[i].end)
            return true;
    }
    return false;
}

/* Names the object: its file, except for the vDSO (no file) and the
 * executable, which the loader lists with an empty name. The executable is
 * read through /proc/self/exe when its file was replaced since it started
 * (readlink then ends in " (deleted)"), so lines still match the code. */
static bool name_object(const struct dl_phdr_info *info, bool is_vdso, char **path,
                        char **open_path)
{
    *path = NULL;
    *open_path = NULL;
    if (is_vdso) {
        *path = copy_text("[vdso]");
        return *path != NULL;
    }
    if (info->dlpi_name && info->dlpi_name[0]) {
        *path = copy_text(info->dlpi_name);
        *open_path = copy_text(info->dlpi_name);
    } else {
        static const char deleted[] = " (deleted)";
        char exe[PATH_MAX];
        ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        if (len <= 0)
            len = 0;
        exe[len] = '\0';
        size_t n = (size_t)len;
        bool replaced =
            n >= sizeof(deleted) - 1 && strcmp(exe + n - (sizeof(deleted) - 1), deleted) == 0;
        *path = copy_text(n ? exe : "/proc/self/exe");
        *open_path = copy_text(n && !replaced ? exe : "/proc/self/exe");
    }
    if (!*path || !*open_path) {
        free(*path);
        free(*open_path);
        *path = *open_path = NULL;
        return false;
    }
    return true;
}

/* The record for this object if the table has it: same name, same bias,
 * same first segment (the same file reloaded at the same place is the same
 * object; anything else gets a new record). */
static weft__symbols_object *match(weft__symbols_objects *objects, const char *path, uintptr_t bias,
                                   const weft__symbols_range *first)
{
    for (size_t i = 0; i < objects->count; i++) {
        weft__symbols_object *o = objects->items[i];
        if (o->bias == bias && o->range_count > 0 && o->ranges[0].start == first->start &&
            o->ranges[0].end == first->end && strcmp(o->path, path) == 0)
            return o;
    }
    return NULL;
}

static bool append(weft__symbols_objects *objects, weft__symbols_object *object)
{
    if (objects->count == objects->capacity) {
        size_t capacity = objects->capacity ? objects->capacity * 2 : 32;
        weft__symbols_object **items = realloc(objects->items, capacity * sizeof(*items));
        if (!items)
            return false;
        objects->items = items;
        objects->capacity = capacity;
    }
    objects->items[objects->count++] = object;
    return true;
}

static void free_object(weft__symbols_object *object)
{
    weft__symbols_reader_close(object->reader);
    free(object->ranges);
    free(object->path);
    free(object->open_path);
    free(object);
}

/* One object of a full pass: marks its record loaded, creating it if new. */
static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
    pass *p = data;
    take_counts(p, info, size);

    size_t load_count = 0;
    for (size_t i = 0; i < info->dlpi_phnum; i++)
        load_count += info->dlpi_phdr[i].p_type == PT_LOAD;
    if (load_count == 0)
        return 0;
    weft__symbols_range *ranges = malloc(load_count * sizeof(*ranges));
    if (!ranges) {
        p->failed = true;
        return 0;
    }
    size_t n = 0;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        ranges[n].start = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
        ranges[n].end = ranges[n].start + (uintptr_t)ph->p_memsz;
        n++;
    }

    char *path = NULL;
    char *open_path = NULL;
    bool is_vdso = p->vdso != 0 && ranges_hold(ranges, n, p->vdso);
    if (!name_object(info, is_vdso, &path, &open_path)) {
        free(ranges);
        p->failed = true;
        return 0;
    }
    weft__symbols_object *known = match(p->objects, path, (uintptr_t)info->dlpi_addr, &ranges[0]);
    if (known) {
        known->loaded = true;
        free(ranges);
        free(path);
        free(open_path);
        return 0;
    }
    weft__symbols_object *object = calloc(1, sizeof(*object));
    if (!object) {
        free(ranges);
        free(path);
        free(open_path);
        p->failed = true;
        return 0;
    }
    object->path = path;
    object->open_path = open_path;
    object->bias = (uintptr_t)info->dlpi_addr;
    object->ranges = ranges;
    object->range_count = n;
    object->loaded = true;
    if (!append(p->objects, object)) {
        free_object(object);
        p->failed = true;
    }
    return 0;
}

/* Brings the table up to date if the loader's counters moved. */
static void refresh(weft__symbols_objects *objects)
{
    pass p = {.objects = objects};
    if (objects->synced) {
        dl_iterate_phdr(read_counts, &p);
        if (p.have_counts && p.adds == objects->adds && p.subs == objects->subs)
            return;
    }
    p = (pass){.objects = objects, .vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR)};
    for (size_t i = 0; i < objects->count; i++)
        objects->items[i]->loaded = false;
    dl_iterate_phdr(visit, &p);
    /* Without the counters every refresh is a full pass; after a failed pass
     * the next one tries again. */
    objects->synced = p.have_counts && !p.failed;
    objects->adds = p.adds;
    objects->subs = p.subs;
}

weft__symbols_object *weft__symbols_objects_find(weft__symbols_objects *objects, uintptr_t address)
{
    refresh(objects);
    for (size_t i = 0; i < objects->count; i++) {
        weft__symbols_object *o = objects->items[i];
        if (o->loaded && ranges_hold(o->ranges, o->range_count, address))
            return o;
    }
    return NULL;
}

weft__symbols_reader *weft__symbols_object_reader(weft__symbols_object *object)
{
    if (!object->reader_tried) {
        object->reader_tried = true;
        if (object->open_path)
            object->reader = weft__symbols_reader_open(object->open_path, object->path);
    }
    return object->reader;
}

void weft__symbols_objects_clear(weft__symbols_objects *objects)
{
    for (size_t i = 0; i < objects->count; i++)
        free_object(objects->items[i]);
    free(objects->items);
    *objects = (weft__symbols_objects){0};
}
