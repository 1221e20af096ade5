/* SPDX-License-Identifier: BSD-3-Clause */
/* Directives and clauses OPARI2 2.0.7 does not know, hidden from it on
 * weft compile's preprocessing path (compile_preprocess.c) and shown again
 * in its output:
 *
 * - A stand-alone `ordered` directive with a `depend` or `doacross` clause
 *   (a doacross loop's `ordered depend(sink: i-1)`, OpenMP 4.5) is taken
 *   for the start of an ordered block: C gets a block around the rest of
 *   the loop that does not compile, Fortran "missing endordered
 *   directive". Each such directive (a C pragma line; a Fortran directive
 *   with its continuation lines) is hidden behind a comment mark at the
 *   start of the line. POMP2 has no event for them: they are not recorded.
 * - A combined `parallel for` / `parallel do` is split by OPARI2 into
 *   `parallel` and the loop, every clause it does not know for a loop going
 *   to `parallel`, where the compiler refuses it: `simd` (of `parallel for
 *   simd`), `linear`, `order`, `safelen`, `simdlen`, `aligned`,
 *   `nontemporal`, and of `ordered(N)` it moves the word alone. Each is
 *   written as a schedule clause, `schedule(weft_NAME:ARGS)`, which OPARI2
 *   moves to the loop whole (`simd` as the loop's first clause, and in
 *   Fortran its end directive `end do simd`). Not in fixed-form Fortran,
 *   whose 72 columns the longer text could overrun.
 *
 * - An `if` clause with a directive-name modifier (OpenMP 4.5),
 *   `if(parallel: c)` on a parallel directive or `if(task: c)` on a task,
 *   is copied by OPARI2 into `int pomp2_if = (parallel: c);`, which does
 *   not compile. weft__compile_plain_if leaves the modifier out where it
 *   names the directive's own construct (`parallel`, also combined with a
 *   loop, sections or workshare, not with simd): there the clause means the
 *   same without it. Nothing to undo.
 *
 * Pure text functions, as those of compile_pretext.h. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_SHIELD_H
#define WEFT_TOOLS_COMPILE_SHIELD_H

#include <stdbool.h>
#include <stddef.h>

#include "compile_text.h"

/* A new text for OPARI2; *CHANGED counts the directives hidden and the
 * clauses rewritten. */
char *weft__compile_shield(const char *text, bool fortran, bool fixed_form, unsigned *changed);

/* Writes LINE (LEN bytes, no newline) into OUT behind the mark that
 * weft__compile_unshield takes away (also for compile_atomic.h). */
void weft__compile_put_hidden(weft_compile_text *out, const char *line, size_t len, bool fortran);

/* OPARI2's output TEXT with everything weft__compile_shield (and
 * weft__compile_put_hidden) did undone. */
char *weft__compile_unshield(const char *text, bool fortran);

/* *CHANGED counts the modifiers left out. */
char *weft__compile_plain_if(const char *text, bool fortran, unsigned *changed);

#endif /* WEFT_TOOLS_COMPILE_SHIELD_H */
