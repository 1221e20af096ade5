/* SPDX-License-Identifier: BSD-3-Clause */
/* Region filters in Score-P's filter-file syntax, which users already have:
 *
 *   SCOREP_REGION_NAMES_BEGIN          (or WEFT_REGION_NAMES_BEGIN)
 *     EXCLUDE *                        rules, applied in order: the last
 *     INCLUDE solve* bar?              one that matches decides
 *     EXCLUDE MANGLED _Z3fooi          (MANGLED: matched against the name)
 *   SCOREP_REGION_NAMES_END
 *   SCOREP_FILE_NAMES_BEGIN            (or WEFT_FILE_NAMES_BEGIN)
 *     EXCLUDE *tests*                  source files, same rules
 *   SCOREP_FILE_NAMES_END
 *
 * Patterns are globs (`*`, `?`, `[...]`, fnmatch without special meaning for
 * `/`), separated by blanks; a rule's patterns may continue on the next
 * lines. `#` starts a comment. A region is excluded when its source file is,
 * or else when its name is; everything is included by default. */
#ifndef WEFT_DEFINITIONS_FILTER_H
#define WEFT_DEFINITIONS_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weft_filter weft_filter;

/* Parses LEN bytes of filter-file TEXT. On success *out is a new filter
 * (free it with weft_filter_free). On a syntax error returns
 * WEFT_ERR_INVALID and writes "line N: what" into ERR; out of memory:
 * WEFT_ERR_NO_MEMORY. *out is NULL on failure. */
weft_status weft_filter_parse(const char *text, size_t len, weft_filter **out, char *err,
                              size_t err_size);

/* True when a region called NAME, defined in FILE (NULL: none), is
 * excluded. A NULL filter excludes nothing. */
bool weft_filter_excludes(const weft_filter *f, const char *name, const char *file);

/* True when the filter excludes the OpenMP region called NAME ("!$omp
 * flush @lu.c:48"). Only region-name rules whose pattern starts with
 * "!$omp" apply, the last matching one deciding: an OpenMP region is left
 * out only where the user names OpenMP regions, never by a rule meant for
 * functions ("EXCLUDE *"). A NULL filter excludes nothing. */
bool weft_filter_excludes_openmp(const weft_filter *f, const char *name);

/* Rules in the filter (name rules, file rules), for messages and tests. */
size_t weft_filter_rule_count(const weft_filter *f);

void weft_filter_free(weft_filter *f);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_FILTER_H */
