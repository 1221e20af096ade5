/* SPDX-License-Identifier: BSD-3-Clause */
/* Where the DO loop that follows a Fortran loop directive ends, for the
 * constructs whose end directive is optional (`!$omp parallel master
 * taskloop`, `!$omp parallel loop`, ...): weft compile writes the end
 * directives of a split construct after the loop (compile_split.h).
 *
 * Reads preprocessed free- or fixed-form text: skips blank, comment,
 * directive and line-marker lines and continuation lines, and follows
 * nested DO loops, block (`do` ... `end do`/`enddo`, also named) and
 * labelled (`do 10 i = ...` ending at the statement labelled 10, shared by
 * nested loops as old codes do). Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_FORTRAN_LOOP_H
#define WEFT_TOOLS_COMPILE_FORTRAN_LOOP_H

#include <stdbool.h>

/* FROM: the line after the directive. The line after the last line of the
 * loop's last statement (the text's end when it is the last), or NULL when
 * the first statement is no DO loop or its end is not found. *LAST: the
 * start of that last line. */
const char *weft__fortran_loop_end(const char *from, bool fixed_form, const char **last);

#endif /* WEFT_TOOLS_COMPILE_FORTRAN_LOOP_H */
