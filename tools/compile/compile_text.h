/* SPDX-License-Identifier: BSD-3-Clause */
/* A growable text buffer and whole-file reading and writing, shared by the
 * parts of `weft compile` that rewrite files the compiler or OPARI2 wrote
 * (dependency files, #line directives). An allocation failure is sticky:
 * later appends do nothing and `failed` stays set. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_TEXT_H
#define WEFT_TOOLS_COMPILE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "weft/status.h"

typedef struct weft_compile_text {
    char *text; /* len bytes then '\0'; NULL until the first append */
    size_t len;
    size_t capacity;
    bool failed;
} weft_compile_text;

/* Appends the LEN bytes at DATA (LEN may be 0: the text then exists, empty). */
void weft__compile_text_put(weft_compile_text *t, const char *data, size_t len);

/* Appends the string S. */
void weft__compile_text_puts(weft_compile_text *t, const char *s);

/* Cuts the text back to LEN bytes (LEN <= t->len). */
void weft__compile_text_truncate(weft_compile_text *t, size_t len);

/* Reads the whole file PATH into T (which must be empty). Returns WEFT_OK,
 * WEFT_ERR_NOT_FOUND, WEFT_ERR_IO (errno tells why) or WEFT_ERR_NO_MEMORY. */
weft_status weft__compile_text_read(const char *path, weft_compile_text *t);

/* Replaces the contents of PATH with TEXT. Returns WEFT_OK or WEFT_ERR_IO
 * (errno tells why). */
weft_status weft__compile_text_write(const char *path, const char *text);

/* The text built, for the caller to free; NULL (and T freed) when an
 * append failed. */
char *weft__compile_text_take(weft_compile_text *t);

/* Frees the text and zeroes T; NULL is a no-op. */
void weft__compile_text_free(weft_compile_text *t);

#endif /* WEFT_TOOLS_COMPILE_TEXT_H */
