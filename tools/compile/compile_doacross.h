/* SPDX-License-Identifier: BSD-3-Clause */
/* Doacross loops (OpenMP 4.5) through OPARI2 2.0.7, which does not know
 * them, on weft compile's preprocessing path (compile_preprocess.c):
 *
 * - A stand-alone `ordered` directive with a `depend` or `doacross` clause
 *   (`ordered depend(sink: i-1)`) is taken for the start of an ordered
 *   block: C gets a block around the rest of the loop that does not
 *   compile, Fortran "missing endordered directive". Each such directive
 *   (a C pragma line; a Fortran directive with its continuation lines) is
 *   hidden behind a comment mark at the start of the line. POMP2 has no
 *   event for them: they are not recorded.
 * - On a combined `parallel for` / `parallel do`, OPARI2 splits
 *   `ordered(N)` into `ordered` on the loop and `(N)` left on `parallel`.
 *   The clause is written `schedule(weft_ordered:N)` for OPARI2, which
 *   moves a schedule clause to the loop whole (not in fixed-form Fortran,
 *   whose 72 columns the longer text could overrun).
 *
 * weft__compile_show_doacross undoes both in OPARI2's output. Pure text
 * functions, as those of compile_pretext.h. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_DOACROSS_H
#define WEFT_TOOLS_COMPILE_DOACROSS_H

#include <stdbool.h>

/* *CHANGED counts the directives hidden and the clauses rewritten. */
char *weft__compile_hide_doacross(const char *text, bool fortran, bool fixed_form,
                                  unsigned *changed);
char *weft__compile_show_doacross(const char *text, bool fortran);

#endif /* WEFT_TOOLS_COMPILE_DOACROSS_H */
