/* SPDX-License-Identifier: BSD-3-Clause */
/* Combined constructs of OpenMP 5.0 and 5.1 that OPARI2 2.0.7 leaves whole,
 * split before it: `parallel master`, `parallel masked`, their `taskloop
 * [simd]` forms, `master|masked taskloop [simd]` and `parallel loop`.
 * OPARI2 takes the words after the first for clauses: it put its barrier
 * inside the master block, or its calls between a loop directive and its
 * loop, and gcc and clang refused the result. In preprocessed C/C++ text,
 * each such directive becomes one directive per construct, each on a line
 * of its own between line markers that keep them all on the directive's
 * line and the lines after it theirs; a combined construct is defined as
 * exactly that nesting. The clauses go where they apply: `filter` to
 * master/masked; with a loop, `num_threads`, `proc_bind`, `copyin`,
 * `shared`, `firstprivate` and an `if` not for the taskloop to `parallel`
 * and the others to the loop; without one, all to `parallel`. A directive
 * with a `default` clause and a loop is left whole (the variables the
 * loop's clauses name would have to be listed on `parallel` too), as is one
 * before the text's first line marker. OPARI2 then records `parallel` and
 * `master` (not `masked`, `taskloop` or `loop`, which it does not know).
 * *CHANGED counts the directives split. Pure, as compile_pretext.h.
 *
 * In Fortran (weft__compile_split_fortran), the same constructs also have
 * end directives: a construct is split only when its end is found (a loop
 * construct written without its optional end is left whole), and the end
 * becomes one end directive per construct, innermost first, all on the end's
 * line. The clauses go one per continuation line (`!$omp&`, which both
 * source forms read), so that no line grows past 72 (FIXED_FORM) or 132
 * columns; a directive whose clause would not fit is left whole.
 * Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_SPLIT_H
#define WEFT_TOOLS_COMPILE_SPLIT_H

#include <stdbool.h>

char *weft__compile_split_combined(const char *text, unsigned *changed);

char *weft__compile_split_fortran(const char *text, bool fixed_form, unsigned *changed);

#endif /* WEFT_TOOLS_COMPILE_SPLIT_H */
