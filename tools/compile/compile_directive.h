/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading OpenMP directive lines in preprocessed C/C++ and Fortran text,
 * for the rewrites around OPARI2 (compile_pretext.c, compile_cstmt.c,
 * compile_shield.c, compile_split.c, compile_cancel.c).
 * LINE is not '\0'-terminated at its end: LEN bytes, up to the newline.
 * Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_DIRECTIVE_H
#define WEFT_TOOLS_COMPILE_DIRECTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "compile_text.h"

/* The length of the line starting at LINE, without its newline. */
size_t weft__directive_line_length(const char *line);

/* A letter, digit or underscore. */
bool weft__directive_ident_char(char c);

/* True when the LEN bytes at AT are WORD (case folded when FOLD), followed
 * by no identifier character. */
bool weft__directive_word_at(const char *at, size_t len, const char *word, bool fold);

/* The first index from I on that is no blank or tab (at most LEN). */
size_t weft__directive_skip_blanks(const char *line, size_t i, size_t len);

/* Where the directive's text starts on a C line `#pragma omp ...` (just
 * after `omp`), or 0 when the line is no OpenMP pragma. */
size_t weft__directive_c_omp(const char *line, size_t len);

/* Where the clauses start on a C line `#pragma omp WORD ...` (just after
 * WORD), or 0 when the line is no such directive. */
size_t weft__directive_c_clauses(const char *line, size_t len, const char *word);

/* A Fortran OpenMP directive line: where its text starts after the sentinel
 * (and a continuation's `&`), 0 when the line is none. *CONTINUED tells a
 * continuation line (free form `!$omp&`, fixed form a mark in column 6). */
size_t weft__directive_fortran(const char *line, size_t len, bool *continued);

/* True when the Fortran directive line LINE ends with `&` (before any `!`
 * comment): the directive continues on the next line. */
bool weft__directive_fortran_continues(const char *line, size_t from, size_t len);

/* The lines of the Fortran directive whose first line is LINE (its text
 * from WORD on): 1 and its continuation lines. */
size_t weft__directive_fortran_lines(const char *line, size_t word);

/* Whether one of the LINES lines of a directive from LINE holds WORD as a
 * word of its own (case folded when FOLD), on the first line from FROM on. */
bool weft__directive_holds(const char *line, size_t lines, size_t from, const char *word,
                           bool fold);

/* Where the first word of an OpenMP directive starts on LINE, after
 * `#pragma omp` (C) or the sentinel (Fortran, not on a continuation line);
 * 0 when LINE starts no directive. */
size_t weft__directive_first_word(const char *line, size_t len, bool fortran);

/* A GNU line marker, `# N "FILE" FLAGS`. */
bool weft__directive_is_marker(const char *line, size_t len);

/* Writes into OUT a line marker that numbers the next line LINE_NO, in the
 * file of the marker MARKER (LEN bytes) with its flags 3 and 4 (system
 * header, extern C) and without 1 and 2 (entering, returning); nothing
 * when MARKER names no file. */
void weft__directive_put_marker(weft_compile_text *out, const char *marker, size_t len,
                                unsigned long line_no);

#endif /* WEFT_TOOLS_COMPILE_DIRECTIVE_H */
