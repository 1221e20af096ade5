/* SPDX-License-Identifier: BSD-3-Clause */
/* OPARI2 2.0.7 writes its `include 'NAME.opari.inc'` line (the region
 * handles and its variables) into every program unit of a Fortran source,
 * interface bodies included, right after the unit's first statement: in an
 * interface body that takes an `import` statement, the include came before
 * it and gfortran refused the copy ("IMPORT statement at (1) cannot follow
 * data declaration statement"). An interface body holds no code, so the
 * include has nothing to do there: weft__compile_interface_includes
 * empties every such line between `interface` and `end interface` of
 * OPARI2's output (line counts do not change), on both of weft compile's
 * paths. Pure, as compile_pretext.h. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_INTERFACE_H
#define WEFT_TOOLS_COMPILE_INTERFACE_H

#include <stdbool.h>

/* A new text; *CHANGED counts the include lines emptied. */
char *weft__compile_interface_includes(const char *text, bool fixed_form, unsigned *changed);

#endif /* WEFT_TOOLS_COMPILE_INTERFACE_H */
