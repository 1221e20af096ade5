/* SPDX-License-Identifier: BSD-3-Clause */
/* Event levels of the merged POMP proposal; see pomp_proposal.h. */
#include <pthread.h>
#include <stdlib.h>
#include <strings.h>

#include "pomp_proposal.h"
#include "weft/log.h"

typedef struct level_name {
    const char *text;
    pomp_level level;
} level_name;

static const level_name level_names[] = {
    {"none", POMP_LEVEL_NONE},
    {"EnterExit", POMP_LEVEL_ENTER_EXIT},
    {"Event", POMP_LEVEL_EVENT},
    {"BeginEnd", POMP_LEVEL_BEGIN_END},
    {"Chunks", POMP_LEVEL_CHUNKS},
    {"IterEvent", POMP_LEVEL_ITER_EVENT},
    {"IterBeginEnd", POMP_LEVEL_ITER_BEGIN_END},
};

/* The levels each group may be set to, as a bit set of pomp_level. */
#define BIT(level) (1u << (level))
static const unsigned allowed[POMP_GROUP_COUNT] = {
    [POMP_GROUP_PARALLEL] =
        BIT(POMP_LEVEL_NONE) | BIT(POMP_LEVEL_ENTER_EXIT) | BIT(POMP_LEVEL_BEGIN_END),
    [POMP_GROUP_LOOP] = BIT(POMP_LEVEL_NONE) | BIT(POMP_LEVEL_ENTER_EXIT) | BIT(POMP_LEVEL_CHUNKS) |
                        BIT(POMP_LEVEL_ITER_EVENT) | BIT(POMP_LEVEL_ITER_BEGIN_END),
    [POMP_GROUP_WORKSHARE] =
        BIT(POMP_LEVEL_NONE) | BIT(POMP_LEVEL_ENTER_EXIT) | BIT(POMP_LEVEL_BEGIN_END),
    [POMP_GROUP_SYNC] = BIT(POMP_LEVEL_NONE) | BIT(POMP_LEVEL_ENTER_EXIT) | BIT(POMP_LEVEL_EVENT) |
                        BIT(POMP_LEVEL_BEGIN_END),
    [POMP_GROUP_USER] = BIT(POMP_LEVEL_NONE) | BIT(POMP_LEVEL_EVENT) | BIT(POMP_LEVEL_BEGIN_END),
    [POMP_GROUP_RUNTIME] =
        BIT(POMP_LEVEL_NONE) | BIT(POMP_LEVEL_EVENT) | BIT(POMP_LEVEL_ENTER_EXIT),
};

#define GROUP_VARIABLE(id, variable, default_level) variable,
static const char *const variables[POMP_GROUP_COUNT] = {POMP_GROUP_LIST(GROUP_VARIABLE)};
#undef GROUP_VARIABLE
#define GROUP_DEFAULT(id, variable, default_level) default_level,
static const pomp_level defaults[POMP_GROUP_COUNT] = {POMP_GROUP_LIST(GROUP_DEFAULT)};
#undef GROUP_DEFAULT

static pomp_level settings[POMP_GROUP_COUNT];

static const char *level_text(pomp_level level)
{
    for (size_t i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++) {
        if (level_names[i].level == level)
            return level_names[i].text;
    }
    return "?";
}

static void read_settings(void)
{
    for (int g = 0; g < POMP_GROUP_COUNT; g++) {
        settings[g] = defaults[g];
        const char *text = getenv(variables[g]);
        if (!text || !*text)
            continue;
        size_t i = 0;
        while (i < sizeof(level_names) / sizeof(level_names[0]) &&
               strcasecmp(text, level_names[i].text) != 0)
            i++;
        if (i < sizeof(level_names) / sizeof(level_names[0]) &&
            (allowed[g] & BIT(level_names[i].level)))
            settings[g] = level_names[i].level;
        else
            weft_log_error("%s='%s' is not one of its levels; using %s", variables[g], text,
                           level_text(defaults[g]));
    }
}

/* Whether a group set to `set` records events of `level`. Alternatives
 * (the loop's Chunks, IterEvent, IterBeginEnd; User's and Runtime's Event
 * and the other) exclude each other; every level above none includes the
 * lowest one of its group (EnterExit; Sync's Event is on its level). */
static bool includes(pomp_group group, pomp_level set, pomp_level level)
{
    if (set == POMP_LEVEL_NONE || level == POMP_LEVEL_NONE)
        return false;
    if (set == level)
        return true;
    switch (group) {
    case POMP_GROUP_LOOP:
        return level == POMP_LEVEL_ENTER_EXIT;
    case POMP_GROUP_USER:
    case POMP_GROUP_RUNTIME:
        return false;
    case POMP_GROUP_SYNC:
        /* EnterExit and Event are one level (barriers / atomic, flush). */
        if (set == POMP_LEVEL_BEGIN_END)
            return true;
        return (set == POMP_LEVEL_ENTER_EXIT || set == POMP_LEVEL_EVENT) &&
               (level == POMP_LEVEL_ENTER_EXIT || level == POMP_LEVEL_EVENT);
    default:
        return set == POMP_LEVEL_BEGIN_END && level == POMP_LEVEL_ENTER_EXIT;
    }
}

bool weft__pomp_level_on(pomp_group group, pomp_level level)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_settings);
    return includes(group, settings[group], level);
}
