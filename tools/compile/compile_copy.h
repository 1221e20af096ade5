/* SPDX-License-Identifier: BSD-3-Clause */
/* The #line directives of an instrumented copy. opari2 names the source in
 * them by an absolute path, the current directory joined with the path it
 * was given ("/home/u/build/../src/t.c"), so compiler messages, __FILE__ and
 * assert() texts would differ from an uninstrumented build. These functions
 * put back the path the user wrote. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_COPY_H
#define WEFT_TOOLS_COMPILE_COPY_H

#include "weft/status.h"

/* Returns TEXT with the file name of every `#line N "NAME"` line whose NAME
 * is the one of the first #line line replaced by SOURCE (escaped for a C
 * string literal). Other lines are unchanged; text without #line lines is
 * returned as it is. Malloc'ed, owned by the caller; NULL when out of
 * memory. */
char *weft__compile_copy_rewrite_lines(const char *text, const char *source);

/* OPARI2's C/C++ output declares `POMP2_Task_handle pomp2_new_task;` before
 * each task and sets it only `if (pomp2_if)`: clang's -Wall warns that it
 * may be used uninitialized (an error with -Werror, at the user's line).
 * Returns TEXT with each such declaration initialised to 0; malloc'ed, NULL
 * when out of memory. */
char *weft__compile_copy_init_task_handles(const char *text);

/* Rewrites the file COPY in place as above. Returns WEFT_OK, WEFT_ERR_IO
 * (errno tells why), WEFT_ERR_NOT_FOUND or WEFT_ERR_NO_MEMORY. */
weft_status weft__compile_copy_fix_lines(const char *copy, const char *source);

/* Replaces, in the file PATH, every C string literal "OLD" (exactly) by one
 * holding NEW (escaped). For OPARI 1's region descriptors, which name the
 * file opari was given. Returns as weft__compile_copy_fix_lines. */
weft_status weft__compile_copy_replace_literal(const char *path, const char *old,
                                               const char *new);

#endif /* WEFT_TOOLS_COMPILE_COPY_H */
