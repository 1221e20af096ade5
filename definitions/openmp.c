/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP region table of weft/openmp.h, and the groups of its kinds. */
#include "weft/openmp.h"

#include <stdio.h>
#include <string.h>

#define TEXT(kind, text, role, group) [WEFT_OMP_##kind] = text,
static const char *const texts[WEFT_OMP_REGION_COUNT] = {WEFT_OMP_REGION_LIST(TEXT)};
#undef TEXT

#define ROLE(kind, text, role, group) [WEFT_OMP_##kind] = WEFT_REGION_ROLE_##role,
static const weft_region_role roles[WEFT_OMP_REGION_COUNT] = {WEFT_OMP_REGION_LIST(ROLE)};
#undef ROLE

#define GROUP(kind, text, role, group) [WEFT_OMP_##kind] = WEFT_OMP_GROUP_##group,
static const weft_omp_group kind_groups[WEFT_OMP_REGION_COUNT] = {WEFT_OMP_REGION_LIST(GROUP)};
#undef GROUP

#define NAME(group, name) [WEFT_OMP_GROUP_##group] = name,
static const char *const group_names[WEFT_OMP_GROUP_COUNT] = {WEFT_OMP_GROUP_LIST(NAME)};
#undef NAME

const char *weft_omp_region_text(weft_omp_region kind)
{
    return (unsigned)kind < WEFT_OMP_REGION_COUNT ? texts[kind] : texts[WEFT_OMP_UNKNOWN];
}

weft_region_role weft_omp_region_role(weft_omp_region kind)
{
    return (unsigned)kind < WEFT_OMP_REGION_COUNT ? roles[kind] : WEFT_REGION_ROLE_UNKNOWN;
}

weft_omp_group weft_omp_region_group(weft_omp_region kind)
{
    return (unsigned)kind < WEFT_OMP_REGION_COUNT ? kind_groups[kind] : WEFT_OMP_GROUP_ALWAYS;
}

const char *weft_omp_group_name(weft_omp_group group)
{
    return (unsigned)group < WEFT_OMP_GROUP_COUNT ? group_names[group] : "?";
}

bool weft_omp_region_optional(weft_omp_region kind)
{
    weft_omp_group group = weft_omp_region_group(kind);
    return group != WEFT_OMP_GROUP_ALWAYS && group != WEFT_OMP_GROUP_TASKS;
}

#define BIT(group) (1u << WEFT_OMP_GROUP_##group)

/* The groups a word of WEFT_OPENMP_EVENTS names (LEN bytes), 0 for none. */
static uint32_t groups_of(const char *word, size_t len)
{
    static const struct {
        const char *name;
        uint32_t groups;
    } aliases[] = {
        {"all", WEFT_OMP_GROUPS_ALL},
        {"none", 0},
        {"sync", BIT(ATOMIC) | BIT(CRITICAL) | BIT(MASTER) | BIT(FLUSH) | BIT(SINGLE) |
                     BIT(ORDERED) | BIT(LOCKS)},
        {"task", BIT(TASKS)},
        {"lock", BIT(LOCKS)},
        {"loop", BIT(LOOPS)},
        {"barriers", BIT(BARRIER)},
    };
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
        if (strlen(aliases[i].name) == len && strncmp(word, aliases[i].name, len) == 0)
            return aliases[i].groups | (aliases[i].groups ? 0 : 0x80000000u);
    }
    for (int g = 0; g < WEFT_OMP_GROUP_COUNT; g++) {
        if (strlen(group_names[g]) == len && strncmp(word, group_names[g], len) == 0)
            return 1u << g;
    }
    return 0;
}

weft_status weft_omp_groups_parse(const char *text, uint32_t *mask, char *bad, size_t bad_size)
{
    static const char separators[] = ", \t";
    weft_status status = WEFT_OK;
    if (bad && bad_size)
        bad[0] = '\0';
    uint32_t groups = WEFT_OMP_GROUPS_ALL;
    bool first = true;
    for (const char *at = text ? text : ""; *at;) {
        at += strspn(at, separators);
        size_t len = strcspn(at, separators);
        if (len == 0)
            break;
        bool leave_out = at[0] == '-';
        const char *word = at + leave_out;
        size_t word_len = len - leave_out;
        uint32_t named = groups_of(word, word_len);
        if (first && !leave_out)
            groups = 0; /* "flush,loops": those only */
        first = false;
        if (named == 0) {
            if (bad && bad_size && status == WEFT_OK)
                snprintf(bad, bad_size, "%.*s", (int)len, at);
            status = WEFT_ERR_INVALID;
        } else if (leave_out) {
            groups &= ~(named & WEFT_OMP_GROUPS_ALL);
        } else if (named & 0x80000000u) { /* none */
            groups = 0;
        } else {
            groups |= named;
        }
        at += len;
    }
    *mask = groups | BIT(ALWAYS);
    return status;
}
