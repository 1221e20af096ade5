/* SPDX-License-Identifier: BSD-3-Clause */
/* The regions of OpenMP constructs, one table for both OpenMP adapters
 * (POMP2 and OMPT), so that a construct gets the same name and role
 * whichever adapter records it: "!$omp <text> @file.c:LINE" (the naming
 * Score-P uses and Scalasca classifies by, see docs/dev/OTF2-CONVENTIONS.md
 * section 4), with the OTF2 role of the table. */
#ifndef WEFT_DEFINITIONS_OPENMP_H
#define WEFT_DEFINITIONS_OPENMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/definitions.h"
#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
/* The kinds of OpenMP events a user switches on and off together
 * (WEFT_OPENMP_EVENTS), the names OPARI2's --disable=omp: uses where it
 * has one. X(GROUP, name). ALWAYS: parallel regions and what cannot be
 * left out without breaking a trace's structure. */
#define WEFT_OMP_GROUP_LIST(X)                                              \
    X(ALWAYS, "parallel") X(LOOPS, "loops") X(SECTIONS, "sections")         \
    X(SINGLE, "single") X(WORKSHARE, "workshare") X(MASTER, "master")       \
    X(CRITICAL, "critical") X(ORDERED, "ordered") X(ATOMIC, "atomic")       \
    X(FLUSH, "flush") X(BARRIER, "barrier") X(TASKWAIT, "taskwait")         \
    X(TASKS, "tasks") X(LOCKS, "locks")

/* X(KIND, text after "!$omp ", role, group) */
#define WEFT_OMP_REGION_LIST(X)                                                       \
    X(UNKNOWN,            "unknown",            UNKNOWN,          ALWAYS)             \
    X(PARALLEL,           "parallel",           PARALLEL,         ALWAYS)             \
    X(IMPLICIT_BARRIER,   "implicit barrier",   IMPLICIT_BARRIER, BARRIER)            \
    X(BARRIER,            "barrier",            BARRIER,          BARRIER)            \
    X(FOR,                "for",                LOOP,             LOOPS)              \
    X(DO,                 "do",                 LOOP,             LOOPS)              \
    X(LOOP_CHUNK,         "for chunk",          LOOP,             LOOPS)              \
    X(LOOP_ITERATION,     "for iteration",      LOOP,             LOOPS)              \
    X(DISTRIBUTE,         "distribute",         LOOP,             LOOPS)              \
    X(TASKLOOP,           "taskloop",           LOOP,             LOOPS)              \
    X(SECTIONS,           "sections",           SECTIONS,         SECTIONS)           \
    X(SECTION,            "section",            SECTION,          SECTIONS)           \
    X(SINGLE,             "single",             SINGLE,           SINGLE)             \
    X(SINGLE_SBLOCK,      "single sblock",      SINGLE_SBLOCK,    SINGLE)             \
    X(WORKSHARE,          "workshare",          WORKSHARE,        WORKSHARE)          \
    X(WORKSHARE_SBLOCK,   "workshare sblock",   WORKSHARE,        WORKSHARE)          \
    X(MASTER,             "master",             MASTER,           MASTER)             \
    X(CRITICAL,           "critical",           CRITICAL,         CRITICAL)           \
    X(CRITICAL_SBLOCK,    "critical sblock",    CRITICAL_SBLOCK,  CRITICAL)           \
    X(ORDERED,            "ordered",            ORDERED,          ORDERED)            \
    X(ORDERED_SBLOCK,     "ordered sblock",     ORDERED_SBLOCK,   ORDERED)            \
    X(ATOMIC,             "atomic",             ATOMIC,           ATOMIC)             \
    X(FLUSH,              "flush",              FLUSH,            FLUSH)              \
    X(TASKWAIT,           "taskwait",           TASK_WAIT,        TASKWAIT)           \
    X(TASKGROUP,          "taskgroup",          CODE,             TASKWAIT)           \
    X(TASK_CREATE,        "create task",        TASK_CREATE,      TASKS)              \
    X(TASK,               "task",               TASK,             TASKS)              \
    X(UNTIED_TASK_CREATE, "create untied task", TASK_CREATE,      TASKS)              \
    X(UNTIED_TASK,        "untied task",        TASK_UNTIED,      TASKS)              \
    X(SCOPE,              "scope",              CODE,             ALWAYS)             \
    X(CANCEL,             "cancel",             CODE,             ALWAYS)             \
    X(LOCK_ROUTINE,       "lock routine",       WRAPPER,          LOCKS)
/* clang-format on */

#define WEFT_OMP_GROUP_ENUM(group, name) WEFT_OMP_GROUP_##group,
typedef enum weft_omp_group {
    WEFT_OMP_GROUP_LIST(WEFT_OMP_GROUP_ENUM) WEFT_OMP_GROUP_COUNT
} weft_omp_group;
#undef WEFT_OMP_GROUP_ENUM

/* Every group's bit in a mask of groups. */
#define WEFT_OMP_GROUPS_ALL ((1u << WEFT_OMP_GROUP_COUNT) - 1)

#define WEFT_OMP_REGION_ENUM(kind, text, role, group) WEFT_OMP_##kind,
typedef enum weft_omp_region {
    WEFT_OMP_REGION_LIST(WEFT_OMP_REGION_ENUM) WEFT_OMP_REGION_COUNT
} weft_omp_region;
#undef WEFT_OMP_REGION_ENUM

/* The construct's text in a region name ("implicit barrier"); "unknown" for
 * a kind out of range. */
WEFT_EXPORT const char *weft_omp_region_text(weft_omp_region kind);

/* The region's role (WEFT_REGION_ROLE_*). */
WEFT_EXPORT weft_region_role weft_omp_region_role(weft_omp_region kind);

/* The group the region's events belong to (ALWAYS for a kind out of range). */
WEFT_EXPORT weft_omp_group weft_omp_region_group(weft_omp_region kind);

/* The group's name in WEFT_OPENMP_EVENTS ("flush"). */
WEFT_EXPORT const char *weft_omp_group_name(weft_omp_group group);

/* True for the kinds whose regions may be left out one by one (by the
 * filter file or throttling) with the trace still balanced: enter and
 * leave are all they record. Not parallel regions (forks, joins and thread
 * teams hang on them), not tasks (their switch and complete events do),
 * not unknown constructs. */
WEFT_EXPORT bool weft_omp_region_optional(weft_omp_region kind);

/* Parses a WEFT_OPENMP_EVENTS value into the mask of groups recorded (bit
 * 1 << WEFT_OMP_GROUP_*). Words, separated by commas or blanks, applied in
 * order: "all", "none", a group name (adds it) or a group name after '-'
 * (leaves it out); a list that starts with a '-' word starts from all, any
 * other from none. Also: "sync" (atomic, critical, master, flush, single,
 * ordered, locks, as OPARI2 groups them), "task", "lock", "loop",
 * "barriers" for their groups. ALWAYS is in every mask. NULL or empty:
 * all. An unknown word: WEFT_ERR_INVALID, the word in BAD (BAD_SIZE bytes),
 * and *mask from the other words. */
WEFT_EXPORT weft_status weft_omp_groups_parse(const char *text, uint32_t *mask, char *bad,
                                              size_t bad_size);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_OPENMP_H */
