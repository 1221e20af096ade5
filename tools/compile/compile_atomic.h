/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran atomic constructs written with `!$omp end atomic`, which OPARI2
 * 2.0.7 does not know: it takes an atomic construct for one statement and
 * writes its POMP2_Atomic_exit call right after it, before the end
 * directive (gfortran: "Unexpected !$OMP END ATOMIC statement"), and for
 * `atomic capture`, between the construct's two statements.
 *
 * On weft compile's preprocessing path (compile_preprocess.c), before
 * OPARI2: an `end atomic` closing a one-statement atomic (update, read,
 * write; where the end directive is optional) becomes an empty line, and
 * the construct is instrumented as written without it; an atomic `capture`
 * or `compare` construct and its `end atomic` are hidden behind the mark of
 * compile_shield.h and shown again in OPARI2's output: built, not recorded.
 * Line counts do not change. Pure, as compile_pretext.h. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_ATOMIC_H
#define WEFT_TOOLS_COMPILE_ATOMIC_H

/* A new text; *CHANGED counts the end directives seen to. */
char *weft__compile_fortran_atomics(const char *text, unsigned *changed);

#endif /* WEFT_TOOLS_COMPILE_ATOMIC_H */
