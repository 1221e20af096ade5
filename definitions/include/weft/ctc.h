/* SPDX-License-Identifier: BSD-3-Clause */
/* Parser for OPARI2's CTC ("compile time context") strings.
 *
 * OPARI2 hands every instrumented OpenMP construct and user region to the
 * POMP2 adapter as a CTC string; this header turns one into a struct of spans
 * pointing into the string. It is a pure function: no allocation, no global
 * state, no output. Building region definitions from the result is the POMP2
 * adapter's job.
 *
 * Format, as OPARI2 2.0.7 writes it (tests/definitions/ctc_inputs holds real
 * strings for C, free-form and fixed-form Fortran):
 *
 *   "72*regionType=parallel*sscl=/tmp/t.c:19:20*escl=/tmp/t.c:60:60*hasIf=1**"
 *    ^^ ^^^^^^^^^^^^^^^^^^^^ ^^^^^^^^^^^^^^^^^^^^ ...                       ^
 *    |  key=value, each ended by '*'                    an empty pair ends it
 *    decimal length prefix
 *
 * - The length prefix is (bytes after the number) + 2, i.e. the whole
 *   string's length only while the number has two digits: OPARI2 assumes a
 *   two-digit prefix, so real strings of 100..999 bytes carry their length
 *   minus 1, and longer ones minus 2 ("1071*..." is 1073 bytes). Both that
 *   value and the true length are accepted.
 * - sscl/escl are "file:first_line:last_line" (first and last line of the
 *   directive that opens resp. closes the construct). The file name may
 *   itself hold ':', so the lines are the last two ':'-separated fields. OPARI2
 *   writes the absolute path of the instrumented file. Values cannot hold '*'
 *   (OPARI2 does not escape it).
 * - Fortran passes a CHARACTER constant: no NUL, its length as a hidden
 *   argument. OPARI2 declares the constant two characters longer than its
 *   text, so the callee receives the text plus two blanks; blanks after the
 *   final '*' are therefore ignored.
 *
 * Keys OPARI2 2.0.7 writes: regionType, sscl, escl, criticalName,
 * userRegionName, numSections, hasIf, hasNum_threads, hasReduction, hasNowait,
 * hasOrdered, hasUntied, hasCollapse, hasShared, hasSchedule (its argument,
 * "dynamic,2", "static"), hasDefault ("none"), and hasCopyprivate (sic: its
 * own reference parser expects hasCopyPrivate; both are accepted). Also known:
 * userGroupName, hasCopyIn, hasFirstPrivate, hasLastPrivate. Unknown keys are
 * ignored, so newer OPARI2 versions still parse. */
#ifndef WEFT_DEFINITIONS_CTC_H
#define WEFT_DEFINITIONS_CTC_H

#include <stddef.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A piece of the input string: not NUL-terminated. text is never NULL (an
 * empty span points to ""), so printf("%.*s", (int)s.len, s.text) is safe. */
typedef struct weft_ctc_span {
    const char *text;
    uint32_t len;
} weft_ctc_span;

/* Constructs: enum name and OPARI2's regionType text. OPARI2 2.0.7 never
 * writes "taskuntied" (an untied task is "task" with hasUntied=1); it is
 * recognised because OPARI2's own parser knows it. RUNTIME_CALL is not
 * OPARI2's: the merged POMP proposal's call of an OpenMP runtime routine,
 * whose type is the routine's name (see weft_ctc_parse_proposal); its text
 * is never read as a type. */
/* clang-format off */
#define WEFT_CTC_CONSTRUCT_LIST(X)                                                \
    X(UNKNOWN, "") X(PARALLEL, "parallel") X(FOR, "for") X(DO, "do")               \
    X(SECTIONS, "sections") X(SINGLE, "single") X(MASTER, "master")                \
    X(CRITICAL, "critical") X(ATOMIC, "atomic") X(BARRIER, "barrier")              \
    X(FLUSH, "flush") X(ORDERED, "ordered") X(TASK, "task")                        \
    X(TASKUNTIED, "taskuntied") X(TASKWAIT, "taskwait") X(WORKSHARE, "workshare")  \
    X(PARALLEL_FOR, "parallelfor") X(PARALLEL_DO, "paralleldo")                    \
    X(PARALLEL_SECTIONS, "parallelsections")                                       \
    X(PARALLEL_WORKSHARE, "parallelworkshare") X(USER_REGION, "userRegion")        \
    X(FUNCTION, "function") X(RUNTIME_CALL, "runtime call")

/* Clauses: enum name and CTC key. Keys other than hasSchedule and hasDefault
 * take 1 (present) or 0 (absent); those two carry the clause's argument, and
 * an empty one means absent. */
#define WEFT_CTC_CLAUSE_LIST(X)                                                   \
    X(IF, "hasIf") X(NUM_THREADS, "hasNum_threads") X(REDUCTION, "hasReduction")   \
    X(NOWAIT, "hasNowait") X(ORDERED, "hasOrdered") X(UNTIED, "hasUntied")         \
    X(COLLAPSE, "hasCollapse") X(COPYIN, "hasCopyIn")                              \
    X(COPYPRIVATE, "hasCopyPrivate") X(FIRSTPRIVATE, "hasFirstPrivate")            \
    X(LASTPRIVATE, "hasLastPrivate") X(SHARED, "hasShared")                        \
    X(SCHEDULE, "hasSchedule") X(DEFAULT, "hasDefault")
/* clang-format on */

#define WEFT_CTC_CONSTRUCT_ENUM(name, text) WEFT_CTC_##name,
#define WEFT_CTC_CLAUSE_BIT_ENUM(name, key) WEFT_CTC_CLAUSE_BIT_##name,
#define WEFT_CTC_CLAUSE_ENUM(name, key) WEFT_CTC_HAS_##name = 1u << WEFT_CTC_CLAUSE_BIT_##name,
enum { WEFT_CTC_CONSTRUCT_LIST(WEFT_CTC_CONSTRUCT_ENUM) WEFT_CTC_CONSTRUCT_COUNT };
enum { WEFT_CTC_CLAUSE_LIST(WEFT_CTC_CLAUSE_BIT_ENUM) WEFT_CTC_CLAUSE_COUNT };
enum { WEFT_CTC_CLAUSE_LIST(WEFT_CTC_CLAUSE_ENUM) };
#undef WEFT_CTC_CONSTRUCT_ENUM
#undef WEFT_CTC_CLAUSE_BIT_ENUM
#undef WEFT_CTC_CLAUSE_ENUM
typedef uint8_t weft_ctc_construct;

/* What one CTC string says. Spans point into the parsed string and live as
 * long as it does; missing values are empty spans and zeros. */
typedef struct weft_ctc_region {
    weft_ctc_construct construct;     /* UNKNOWN when missing or not recognised */
    weft_ctc_span region_type;        /* the raw regionType value */
    weft_ctc_span file;               /* from sscl (escl's file if sscl has none) */
    uint32_t begin_line, begin_line2; /* sscl lines: first and last line */
    uint32_t end_line, end_line2;     /* escl lines */
    weft_ctc_span critical_name;      /* empty for an unnamed critical */
    weft_ctc_span user_region_name, user_group_name;
    weft_ctc_span schedule;        /* hasSchedule's value: "dynamic,2", "static" */
    weft_ctc_span default_sharing; /* hasDefault's value: "none" */
    uint32_t num_sections;
    uint32_t clauses;        /* bit set of WEFT_CTC_HAS_* */
    const char *problem;     /* NULL when well-formed; else a static English phrase */
    uint32_t problem_offset; /* byte offset in the input of the first problem */
    uint32_t length_prefix;  /* the leading number as written, 0 if unreadable */
    uint32_t length;         /* bytes through the final '*' (no Fortran blanks) */
} weft_ctc_region;

/* Parses at most max_len bytes of ctc, stopping earlier at a NUL (C callers
 * may pass SIZE_MAX; Fortran callers the hidden length). Never reads past
 * ctc + max_len (nor past 4 GiB - 1 bytes), never allocates, never fails
 * hard: everything readable is filled in and the first problem met while
 * reading left to right is described in out->problem and
 * out->problem_offset. Duplicate keys: the last wins. Unknown keys are not a
 * problem. A wrong length prefix is a problem, but parsing goes by the real
 * bytes. Line numbers and counts that are not numbers or overflow uint32 are
 * problems and read as 0. A value without a terminating '*' ends at
 * max_len or the NUL.
 *
 * Problems (out->problem, with the offset each reports):
 *   "no CTC string"                               ctc is NULL; offset 0
 *   "the length prefix is not a number"           0
 *   "the length prefix is too large"              0
 *   "the length prefix is not followed by '*'"    the byte after the digits
 *   "a key has no '='"                            the key
 *   "a key is empty"                              the '='
 *   "regionType is not known"                     the value
 *   "sscl has no line numbers" (or escl)          the value; lines read as 0
 *   "a line number in sscl is not a number" (or escl)  the number
 *   "a line number in sscl is too large" (or escl)     the number
 *   "numSections is not a number" / "... is too large" the value
 *   "a clause flag is neither 0 nor 1"            the value; the clause is set
 *   "the string ends before the final '*'"        the end (max_len or NUL)
 *   "text after the final '*'"                    the text (blanks are fine)
 *   "no regionType" / "no sscl" / "no escl"       the end (out->length)
 *   "the length prefix does not match the length" 0 (checked last)
 *
 * Returns WEFT_OK when well-formed, WEFT_ERR_INVALID otherwise (out is still
 * filled as far as possible). out must not be NULL. Thread-safe and
 * async-signal-safe; O(max_len), not for the per-event hot path. */
WEFT_EXPORT weft_status weft_ctc_parse(const char *ctc, size_t max_len, weft_ctc_region *out);

/* The same for the CTC strings of the merged POMP proposal (2002):
 * "<length>*key=value*...**" with the keys type (OPARI2's construct names,
 * and "preregion"/"pregion" for a parallel region, "loop" for a for loop,
 * "region"/"userregion"/"userRegion" for a user region, "function", and
 * the names of the OpenMP runtime routines the proposal instruments for the
 * call of one: "omp_init_lock", "omp_destroy_lock", "omp_set_lock",
 * "omp_unset_lock", "omp_test_lock", the same five with "_nest_lock",
 * "omp_set_num_threads", "omp_get_num_threads", "omp_get_max_threads",
 * "omp_get_thread_num", "omp_get_num_procs", "omp_in_parallel",
 * "omp_set_dynamic", "omp_get_dynamic", "omp_set_nested", "omp_get_nested":
 * construct RUNTIME_CALL, the name in region_type), file,
 * name (of a critical section, user region or function: in critical_name
 * and user_region_name), group, lines=<first>,<last> (the whole construct),
 * slines=<a>,<b> and elines=<a>,<b> (its opening and closing lines), and the
 * proposal's clause keys (hasFirstPrivate, hasLastprivate, hasReduction,
 * hasNowait, hasCopyin, hasOrdered, hasCopyprivate, scheduleType). The
 * length prefix is only a hint (the proposal's own example is off by two):
 * a mismatch is not a problem, and the "**" decides where the string ends.
 * The shortest string is "2**", whose problem is "no type". Further
 * problems: "type is not known", "a line pair has no ','", "a line number
 * is not a number" / "... is too large"; the rest as above. */
WEFT_EXPORT weft_status weft_ctc_parse_proposal(const char *ctc, size_t max_len,
                                                weft_ctc_region *out);

/* Writes the canonical OpenMP region name Score-P uses,
 * "!$omp <construct_text> @<basename of file>:<line>" (for example
 * "!$omp parallel @t.c:7"), into buf. The " @file:line" part is left out when
 * file is empty. Like snprintf: buf is always NUL-terminated when size > 0
 * (truncated if needed; buf may be NULL when size is 0) and the return value
 * is the length the whole name needs, without the NUL. construct_text NULL
 * reads as "". Thread-safe. */
WEFT_EXPORT size_t weft_omp_region_name(char *buf, size_t size, const char *construct_text,
                                        weft_ctc_span file, uint32_t line);

/* The regionType text of a construct ("parallel", ...); "" for UNKNOWN and
 * for values out of range. Never NULL. */
WEFT_EXPORT const char *weft_ctc_construct_text(weft_ctc_construct c);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_CTC_H */
