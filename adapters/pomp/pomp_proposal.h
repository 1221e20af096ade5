/* SPDX-License-Identifier: BSD-3-Clause */
/* The merged POMP proposal's internals: event levels chosen by the
 * POMP_<group> environment variables (pomp_proposal_levels.c), the search
 * for POMP_Init_<id> functions (pomp_proposal_init.c), and the helpers its
 * entry files (pomp_proposal.c, pomp_proposal_runtime.c) share. */
#ifndef WEFT_ADAPTERS_POMP_PROPOSAL_H
#define WEFT_ADAPTERS_POMP_PROPOSAL_H

#include <stdbool.h>
#include <stdint.h>

#include "pomp_internal.h"

/* The groups of events and the levels they may be set to. Levels joined by
 * "or" in the proposal (Loop: Chunks, IterEvent, IterBeginEnd; User: Event,
 * BeginEnd; Runtime: Event, EnterExit) are alternatives; the others include
 * the lower ones. */
/* clang-format off */
#define POMP_GROUP_LIST(X)                                                                         \
    X(PARALLEL, "POMP_PARALLEL", POMP_LEVEL_BEGIN_END)                                             \
    X(LOOP, "POMP_LOOP", POMP_LEVEL_ENTER_EXIT)                                                    \
    X(WORKSHARE, "POMP_WORKSHARE", POMP_LEVEL_BEGIN_END)                                           \
    X(SYNC, "POMP_SYNC", POMP_LEVEL_BEGIN_END)                                                     \
    X(USER, "POMP_USER", POMP_LEVEL_BEGIN_END)                                                     \
    X(RUNTIME, "POMP_RUNTIME", POMP_LEVEL_EVENT)
/* clang-format on */
#define POMP_GROUP_ENUM(id, variable, default_level) POMP_GROUP_##id,
typedef enum pomp_group { POMP_GROUP_LIST(POMP_GROUP_ENUM) POMP_GROUP_COUNT } pomp_group;
#undef POMP_GROUP_ENUM

typedef enum pomp_level {
    POMP_LEVEL_NONE,
    POMP_LEVEL_ENTER_EXIT,
    POMP_LEVEL_EVENT,
    POMP_LEVEL_BEGIN_END,
    POMP_LEVEL_CHUNKS,
    POMP_LEVEL_ITER_EVENT,
    POMP_LEVEL_ITER_BEGIN_END,
} pomp_level;

/* Whether events of `level` of the group are recorded (the group's setting,
 * read once from the environment; a value that is not one of the group's
 * levels gives one line on stderr and the default). */
bool weft__pomp_level_on(pomp_group group, pomp_level level);

/* Calls every POMP_Init_<id>() function in the program's symbol table once. */
void weft__pomp_call_init_functions(void);

/* Marks a parameter used (once) and records its value. */
void weft__pomp_parameter(uint32_t parameter, int64_t value);

/* The construct of a first event, initialising *handle from ctc when unset;
 * *r is NULL when there is none (no handle, or an unset one and no CTC
 * string). Returns the event's code (POMP_SUCCESS, _NO_HANDLE, _BAD_CTC). */
int32_t weft__pomp_first(void **handle, const char *ctc, const pomp_region **r);

/* The construct of a later event (handle by value). */
int32_t weft__pomp_later(void *handle, const pomp_region **r);

#endif /* WEFT_ADAPTERS_POMP_PROPOSAL_H */
