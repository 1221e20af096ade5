/* SPDX-License-Identifier: BSD-3-Clause */
/* The program's strings and region; see weft/program.h. */
#include "weft/program.h"

#include <string.h>

#include "weft/alloc.h"

static const char *without_directories(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

size_t weft_program_names(uint32_t argc, const char *const *argv, char *name,
                          size_t name_capacity, char *canonical, size_t canonical_capacity)
{
    if (name_capacity > 0) {
        const char *base = argc > 0 ? without_directories(argv[0]) : "";
        size_t len = strlen(base);
        if (len >= name_capacity)
            len = name_capacity - 1;
        memcpy(name, base, len);
        name[len] = '\0';
    }
    size_t needed = 0;
    for (uint32_t i = 0; i < argc; i++) {
        const char *part = argv[i];
        size_t len = strlen(part);
        if (i > 0) {
            if (needed + 1 < canonical_capacity)
                canonical[needed] = ' ';
            needed++;
        }
        if (needed < canonical_capacity) {
            size_t room = canonical_capacity - 1 - needed;
            memcpy(canonical + needed, part, len < room ? len : room);
        }
        needed += len;
    }
    if (canonical_capacity > 0)
        canonical[needed < canonical_capacity ? needed : canonical_capacity - 1] = '\0';
    return needed;
}

weft_status weft_program_define(weft_registry *reg, uint32_t argc, const char *const *argv,
                                weft_program *out)
{
    *out = (weft_program){.region = WEFT_REGION_INVALID, .name = WEFT_STRING_INVALID};
    if (!reg || argc == 0 || !argv || !argv[0])
        return WEFT_ERR_INVALID;
    const char *base = without_directories(argv[0]);
    size_t canonical_len = weft_program_names(argc, argv, NULL, 0, NULL, 0);
    char *canonical = weft_alloc(canonical_len + 1);
    uint64_t *arguments = argc > 1 ? weft_calloc(argc - 1, sizeof(*arguments)) : NULL;
    weft_status st = canonical && (argc == 1 || arguments) ? WEFT_OK : WEFT_ERR_NO_MEMORY;
    if (st == WEFT_OK) {
        weft_program_names(argc, argv, NULL, 0, canonical, canonical_len + 1);
        weft_region_desc desc = {.name = base,
                                 .canonical_name = canonical,
                                 .role = WEFT_REGION_ROLE_ARTIFICIAL,
                                 .paradigm = WEFT_PARADIGM_MEASUREMENT_SYSTEM};
        st = weft_registry_region(reg, &desc, &out->region);
    }
    if (st == WEFT_OK)
        st = weft_registry_string(reg, argv[0], &out->name);
    for (uint32_t i = 1; st == WEFT_OK && i < argc; i++) {
        weft_string arg;
        st = weft_registry_string(reg, argv[i], &arg);
        arguments[i - 1] = arg.id;
    }
    weft_free(canonical);
    if (st != WEFT_OK) {
        weft_free(arguments);
        *out = (weft_program){.region = WEFT_REGION_INVALID, .name = WEFT_STRING_INVALID};
        return st;
    }
    out->argument_count = argc - 1;
    out->arguments = arguments;
    return WEFT_OK;
}

void weft_program_free(weft_program *program)
{
    if (!program)
        return;
    weft_free(program->arguments);
    program->arguments = NULL;
    program->argument_count = 0;
}
