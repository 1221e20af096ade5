/* SPDX-License-Identifier: BSD-3-Clause */
/* Rewrites of preprocessed source text around OPARI2, for `weft compile`'s
 * preprocessing path (compile_preprocess.c). The input is what the
 * compiler's preprocessor wrote: GNU line markers (`# 12 "file.c" 1 3`)
 * tell where each line came from. Each function returns a new malloc'ed
 * text (NULL when out of memory) and leaves the input alone; each keeps the
 * line numbers the compiler will report, adding line markers where it adds
 * lines. Pure: no file is touched, so unit tests feed them any text.
 * Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_PRETEXT_H
#define WEFT_TOOLS_COMPILE_PRETEXT_H

#include <stdbool.h>
#include <stddef.h>

/* OPARI2 2.0.7, when it makes an untied task tied, deletes `untied`, the
 * blanks after it and one more character: "untied shared(x)" becomes
 * "hared(x)", "untied &" loses the Fortran continuation. A comma after the
 * clause is what it then deletes, harmlessly. Adds that comma to every
 * `untied` clause of a task directive (C/C++ `#pragma omp task`; Fortran
 * `!$omp task` in free form, `!$omp`/`c$omp`/`*$omp` in fixed form, and
 * their continuation lines) that is followed by anything but a comma or the
 * end of the line. *CHANGED counts the clauses changed. */
char *weft__compile_untied_commas(const char *text, bool fortran, unsigned *changed);

/* OPARI2 misreads a Fortran directive continuation line whose mark is not
 * followed by a blank (`!$omp&schedule(static)`) or, in fixed form, whose
 * mark in column 6 is a digit or another character than `&` (`c$omp1
 * shared(a)`): it left a combined loop's clauses on `parallel`, or wrote a
 * clause it moved on a line that is no continuation. Writes every
 * continuation line of an OpenMP directive as `SENTINEL& ...`, with a blank
 * after the `&`; line count unchanged. *CHANGED counts the lines changed. */
char *weft__compile_fortran_continuations(const char *text, bool fixed_form, unsigned *changed);

/* OPARI2 takes an `else` after an OpenMP construct that is the unbraced
 * body of an `if` for part of the construct ("'else' without a previous
 * 'if'"). Puts braces around every such construct of C/C++ text (the
 * pragma line through the end of its statement), each on a line of its
 * own followed by a line marker, so reported lines stay those of the
 * source. *CHANGED counts the constructs braced. */
char *weft__compile_brace_else(const char *text, unsigned *changed);

/* OPARI2 ends a construct whose statement is, directly or as the body of
 * its `for` loops, an unbraced `if` whose `else` ends a line, after that
 * `else`: the construct's end code became the else branch (a `for nowait`
 * loop computed another result, a `for` failed to compile: "'else' without
 * a previous 'if'"; LLNL's AMG). Puts braces around every such `if`
 * statement, as weft__compile_brace_else does. *CHANGED counts them. */
char *weft__compile_brace_if_else(const char *text, unsigned *changed);

/* OPARI2 finds the end of a loop construct's `for` by the two `;` of its
 * header and then the statement after it: a range-based `for` (C++) with
 * an unbraced body took the statements after the loop into the construct,
 * which every thread then ran (a wrong result, silently); a body holding
 * `;` of its own (a lambda called at once, `try`, a macro's `} while (0)`)
 * did not compile. Puts braces around the unbraced body of every `for`
 * that is an OpenMP construct's statement (not a body that is a loop of a
 * classic header, for collapse), as weft__compile_brace_else does.
 * *CHANGED counts them. */
char *weft__compile_brace_loop_bodies(const char *text, unsigned *changed);

/* The unbraced bodies of range-based `for` loops that OpenMP constructs
 * have for statement in TEXT (C++ source as written, for weft compile's
 * warning when it does not preprocess). */
unsigned weft__compile_range_for_bodies(const char *text);

/* OPARI2 2.0.7 crashes (a segmentation fault) on a C++14 digit separator,
 * `1'000`, which it takes for the start of a character literal. Returns
 * C++ TEXT with the separators of its numbers left out (the same values);
 * strings and character literals are left as they are. *CHANGED counts the
 * separators. */
char *weft__compile_digit_separators(const char *text, unsigned *changed);

/* OPARI2 names the files of relative line markers relative to the
 * directory of the file it reads (a work directory), in the regions' source
 * paths and its `#line` directives. Makes every relative marker name
 * absolute, CWD/NAME (the directory the preprocessor ran in), as OPARI2
 * would name the source it was given itself. */
char *weft__compile_absolute_markers(const char *text, const char *cwd);

/* Turns OPARI2's output TEXT back into what the compiler was given: every
 * line marker and `#line N "NAME"` directive becomes a line marker naming
 * the file as the preprocessor's markers in PREPROCESSED did (CWD/REL back
 * to REL), `#line` with that file's system-header flags (3, 4), so
 * diagnostics name files as without weft and system headers stay quiet.
 * gfortran reads line markers without its preprocessor, `#line` not. */
char *weft__compile_map_lines(const char *text, const char *preprocessed, const char *cwd);

#endif /* WEFT_TOOLS_COMPILE_PRETEXT_H */
