/* SPDX-License-Identifier: BSD-3-Clause */
/* A growable, NULL-terminated argument vector for the commands `weft compile`
 * runs. Every string pushed is copied, so a vector owns all its strings. An
 * allocation failure is sticky: later pushes do nothing and
 * weft__compile_argv_ok() says false, so a caller checks once before use.
 * Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_ARGV_H
#define WEFT_TOOLS_COMPILE_ARGV_H

#include <stdbool.h>
#include <stddef.h>

typedef struct weft_compile_argv {
    char **items; /* count strings, then NULL; NULL while empty */
    size_t count;
    size_t capacity; /* slots in items, the terminating NULL included */
    bool failed;     /* an allocation failed; the vector may be incomplete */
} weft_compile_argv;

/* Appends a copy of TEXT. */
void weft__compile_argv_push(weft_compile_argv *argv, const char *text);

/* Appends a copy of PREFIX followed by TEXT ("-L" "/usr/lib" -> "-L/usr/lib"). */
void weft__compile_argv_push2(weft_compile_argv *argv, const char *prefix, const char *text);

/* Appends each blank-separated word of TEXT (spaces, tabs, newlines); no
 * quoting is understood, nothing is expanded. */
void weft__compile_argv_split(weft_compile_argv *argv, const char *text);

/* True when every push so far succeeded. */
bool weft__compile_argv_ok(const weft_compile_argv *argv);

/* The vector for execvp: never NULL when ok (an empty vector gives {NULL}). */
char **weft__compile_argv_items(weft_compile_argv *argv);

/* Frees every string and the array, and zeroes ARGV; NULL is a no-op. */
void weft__compile_argv_free(weft_compile_argv *argv);

#endif /* WEFT_TOOLS_COMPILE_ARGV_H */
