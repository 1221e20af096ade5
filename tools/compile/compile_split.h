/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP 5.0's combined `parallel master` and 5.1's `parallel masked` split
 * before OPARI2 2.0.7, which takes the second word for a clause of
 * `parallel` and puts its barrier at the end of the region, inside the
 * master block (gcc and clang refuse it: a barrier may not be closely
 * nested in a master region). In preprocessed C/C++ text, each such
 * directive becomes `parallel` with all its clauses, then `master` (or
 * `masked` with its `filter`) on a line of its own, between line markers
 * that keep both on the directive's line and the lines after it theirs:
 * the combined construct is defined as exactly that. OPARI2 then records
 * both constructs (a masked one it does not know: not recorded). `parallel
 * master taskloop` and `parallel loop` are not split: their clauses would
 * have to be divided between the constructs. *CHANGED counts the
 * directives split. Pure, as compile_pretext.h. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_SPLIT_H
#define WEFT_TOOLS_COMPILE_SPLIT_H

char *weft__compile_split_combined(const char *text, unsigned *changed);

#endif /* WEFT_TOOLS_COMPILE_SPLIT_H */
