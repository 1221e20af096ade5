/* SPDX-License-Identifier: BSD-3-Clause */
/* Cancellation (OpenMP 4.0) through OPARI2 2.0.7, which does not know it.
 *
 * OPARI2 gives every worksharing loop and `sections` construct a `nowait`
 * and a barrier of its own after it, to record the implicit barrier. A
 * `cancel for` or `cancellation point for` (`do`, `sections`) inside then
 * binds to a nowait construct: clang refuses to compile it, gcc and
 * gfortran warn and ignore the cancellation. weft__compile_cancel_waits
 * takes OPARI2's `nowait` away from such a construct in OPARI2's output:
 * the construct's own barrier comes back, inside the recorded loop, and
 * OPARI2's barrier after it is then passed by all threads at once.
 *
 * Cancelling a parallel region, sections or a taskgroup sends threads, or
 * the task, to the end of the region, past OPARI2's calls there (of the
 * parallel region, the section, the task): when cancellation is active
 * (OMP_CANCELLATION=true) their ends are not recorded. A loop's body has no
 * such calls. weft__compile_cancel_jumps counts the `cancel` and
 * `cancellation point` directives of those three, for weft compile's
 * warning.
 * Pure text functions on preprocessed text, as those of compile_pretext.h.
 * Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_CANCEL_H
#define WEFT_TOOLS_COMPILE_CANCEL_H

#include <stdbool.h>

/* A new text; *CHANGED counts the constructs given their barrier back. */
char *weft__compile_cancel_waits(const char *text, bool fortran, unsigned *changed);

/* The cancel and cancellation point directives for parallel, sections or
 * taskgroup in TEXT. */
unsigned weft__compile_cancel_jumps(const char *text, bool fortran);

#endif /* WEFT_TOOLS_COMPILE_CANCEL_H */
