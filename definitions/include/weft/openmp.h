/* The regions of OpenMP constructs, one table for both OpenMP adapters
 * (POMP2 and OMPT), so that a construct gets the same name and role
 * whichever adapter records it: "!$omp <text> @file.c:LINE" (the naming
 * Score-P uses and Scalasca classifies by, see docs/dev/OTF2-CONVENTIONS.md
 * section 4), with the OTF2 role of the table. */
#ifndef WEFT_DEFINITIONS_OPENMP_H
#define WEFT_DEFINITIONS_OPENMP_H

#include "weft/compiler.h"
#include "weft/definitions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
/* X(KIND, text after "!$omp ", role) */
#define WEFT_OMP_REGION_LIST(X)                                             \
    X(UNKNOWN,            "unknown",            UNKNOWN)                    \
    X(PARALLEL,           "parallel",           PARALLEL)                   \
    X(IMPLICIT_BARRIER,   "implicit barrier",   IMPLICIT_BARRIER)           \
    X(BARRIER,            "barrier",            BARRIER)                    \
    X(FOR,                "for",                LOOP)                       \
    X(DO,                 "do",                 LOOP)                       \
    X(LOOP_CHUNK,         "for chunk",          LOOP)                       \
    X(LOOP_ITERATION,     "for iteration",      LOOP)                       \
    X(DISTRIBUTE,         "distribute",         LOOP)                       \
    X(TASKLOOP,           "taskloop",           LOOP)                       \
    X(SECTIONS,           "sections",           SECTIONS)                   \
    X(SECTION,            "section",            SECTION)                    \
    X(SINGLE,             "single",             SINGLE)                     \
    X(SINGLE_SBLOCK,      "single sblock",      SINGLE_SBLOCK)              \
    X(WORKSHARE,          "workshare",          WORKSHARE)                  \
    X(WORKSHARE_SBLOCK,   "workshare sblock",   WORKSHARE)                  \
    X(MASTER,             "master",             MASTER)                     \
    X(CRITICAL,           "critical",           CRITICAL)                   \
    X(CRITICAL_SBLOCK,    "critical sblock",    CRITICAL_SBLOCK)            \
    X(ORDERED,            "ordered",            ORDERED)                    \
    X(ORDERED_SBLOCK,     "ordered sblock",     ORDERED_SBLOCK)             \
    X(ATOMIC,             "atomic",             ATOMIC)                     \
    X(FLUSH,              "flush",              FLUSH)                      \
    X(TASKWAIT,           "taskwait",           TASK_WAIT)                  \
    X(TASKGROUP,          "taskgroup",          CODE)                       \
    X(TASK_CREATE,        "create task",        TASK_CREATE)                \
    X(TASK,               "task",               TASK)                       \
    X(UNTIED_TASK_CREATE, "create untied task", TASK_CREATE)                \
    X(UNTIED_TASK,        "untied task",        TASK_UNTIED)                \
    X(SCOPE,              "scope",              CODE)                       \
    X(CANCEL,             "cancel",             CODE)
/* clang-format on */

#define WEFT_OMP_REGION_ENUM(kind, text, role) WEFT_OMP_##kind,
typedef enum weft_omp_region {
    WEFT_OMP_REGION_LIST(WEFT_OMP_REGION_ENUM) WEFT_OMP_REGION_COUNT
} weft_omp_region;
#undef WEFT_OMP_REGION_ENUM

/* The construct's text in a region name ("implicit barrier"); "unknown" for
 * a kind out of range. */
WEFT_EXPORT const char *weft_omp_region_text(weft_omp_region kind);

/* The region's role (WEFT_REGION_ROLE_*). */
WEFT_EXPORT weft_region_role weft_omp_region_role(weft_omp_region kind);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_OPENMP_H */
