/* Unit tests of the rewrites of preprocessed text around OPARI2
 * (tools/compile/compile_pretext.c, compile_cstmt.c, compile_shield.c)
 * and of the joining of gfortran's two dependency files
 * (compile_depfile.c). Table-driven: input text, the exact output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compile_atomic.h"
#include "compile_cancel.h"
#include "compile_depfile.h"
#include "compile_interface.h"
#include "compile_shield.h"
#include "compile_split.h"
#include "compile_pretext.h"

typedef struct text_case {
    const char *name;
    const char *text;
    const char *expected;
    unsigned changed;
} text_case;

static void expect_text(const char *name, char *out, const char *expected)
{
    assert_non_null(out);
    if (strcmp(out, expected) != 0) {
        print_error("case '%s':\n--- got:\n%s\n--- expected:\n%s\n", name, out, expected);
        free(out);
        fail();
    }
    free(out);
}

/* clang-format off */
static const text_case untied_c[] = {
    {"a clause after untied gets a comma",
     "#pragma omp task untied shared(x)\n", "#pragma omp task untied, shared(x)\n", 1},
    {"and before it, with blanks",
     "  #  pragma  omp  task untied  firstprivate(i) shared(x)\n",
     "  #  pragma  omp  task untied,  firstprivate(i) shared(x)\n", 1},
    {"untied last, or before a comma: nothing",
     "#pragma omp task shared(x) untied\n#pragma omp task untied, if(1)\n",
     "#pragma omp task shared(x) untied\n#pragma omp task untied, if(1)\n", 0},
    {"not a task directive, or untied in parentheses or a longer word",
     "#pragma omp taskloop untied grainsize(4)\n#pragma omp task shared(untied) if(untiedness)\n"
     "int untied = 1;\n",
     "#pragma omp taskloop untied grainsize(4)\n#pragma omp task shared(untied) if(untiedness)\n"
     "int untied = 1;\n", 0},
};

static const text_case untied_fortran[] = {
    {"free form, continued: the & stays",
     "!$omp task untied &\n!$omp& shared(x)\n  x = 1\n!$omp end task\n",
     "!$omp task untied, &\n!$omp& shared(x)\n  x = 1\n!$omp end task\n", 1},
    {"upper case, on the continuation line",
     "  !$OMP TASK &\n  !$OMP UNTIED FIRSTPRIVATE(I)\n",
     "  !$OMP TASK &\n  !$OMP UNTIED, FIRSTPRIVATE(I)\n", 1},
    {"a comment after untied",
     "!$omp task untied ! keep it\n", "!$omp task untied, ! keep it\n", 1},
    {"fixed form: c$omp and a continuation mark in column 6",
     "c$omp task\nc$omp+untied shared(x)\n", "c$omp task\nc$omp+untied, shared(x)\n", 1},
    {"another directive's continuation is not a task's",
     "!$omp parallel &\n!$omp untied shared(x)\n!$omp task untied\n",
     "!$omp parallel &\n!$omp untied shared(x)\n!$omp task untied\n", 0},
};

static const text_case braces[] = {
    {"an unbraced construct before else",
     "# 1 \"f.c\"\nvoid f(int c, int *a)\n{\n    if (c)\n#pragma omp parallel for\n"
     "        for (int i = 0; i < 8; i++)\n            a[i] = i;\n    else\n        a[0] = 5;\n}\n",
     "# 1 \"f.c\"\nvoid f(int c, int *a)\n{\n    if (c)\n{\n# 4 \"f.c\"\n#pragma omp parallel for\n"
     "        for (int i = 0; i < 8; i++)\n            a[i] = i;\n}\n# 6 \"f.c\"\n\n    else\n"
     "        a[0] = 5;\n}\n", 1},
    {"nested constructs and a block: braced once, system flags kept",
     "# 3 \"/usr/include/h.h\" 1 3 4\nif (c)\n#pragma omp parallel\n#pragma omp single\n"
     "{ x(); }\nelse y();\n",
     "# 3 \"/usr/include/h.h\" 1 3 4\nif (c)\n{\n# 4 \"/usr/include/h.h\" 3 4\n"
     "#pragma omp parallel\n#pragma omp single\n{ x(); }\n}\n# 6 \"/usr/include/h.h\" 3 4\n"
     "\nelse y();\n", 1},
    {"an inner if-else belongs to the loop: nothing",
     "# 1 \"f.c\"\n#pragma omp parallel for\nfor (i = 0; i < n; i++)\n  if (a[i]) b++;\n"
     "  else c++;\n",
     "# 1 \"f.c\"\n#pragma omp parallel for\nfor (i = 0; i < n; i++)\n  if (a[i]) b++;\n"
     "  else c++;\n", 0},
    {"do-while, strings with braces and a standalone directive: nothing",
     "# 1 \"f.c\"\n#pragma omp barrier\nif (c)\n#pragma omp single\ndo { s(\"}\"); } while (0);\n"
     "x = '{';\n",
     "# 1 \"f.c\"\n#pragma omp barrier\nif (c)\n#pragma omp single\ndo { s(\"}\"); } while (0);\n"
     "x = '{';\n", 0},
    {"unbalanced text is left alone",
     "# 1 \"f.c\"\nif (c)\n#pragma omp parallel\n{ x(;\nelse y();\n",
     "# 1 \"f.c\"\nif (c)\n#pragma omp parallel\n{ x(;\nelse y();\n", 0},
};

static const text_case if_else_bodies[] = {
    {"a loop's unbraced if-else with else ending a line: braced",
     "# 1 \"f.c\"\n#pragma omp for nowait\nfor (i = 0; i < n; i++)\n  if (a[i])\n    b++;\n"
     "  else\n    c++;\nx = 1;\n",
     "# 1 \"f.c\"\n#pragma omp for nowait\nfor (i = 0; i < n; i++)\n  {\n# 3 \"f.c\"\nif (a[i])\n"
     "    b++;\n  else\n    c++;\n}\n# 6 \"f.c\"\n\nx = 1;\n", 1},
    {"a construct's own if-else: braced",
     "# 1 \"f.c\"\n#pragma omp parallel\nif (c) x(); else { y(); }\n",
     "# 1 \"f.c\"\n#pragma omp parallel\n{\n# 2 \"f.c\"\nif (c) x(); else { y(); }\n}\n"
     "# 2 \"f.c\"\n\n", 1},
    {"an if without else, and a braced loop body: nothing",
     "# 1 \"f.c\"\n#pragma omp for\nfor (i = 0; i < n; i++)\n  if (a[i]) b++;\n"
     "#pragma omp for\nfor (i = 0; i < n; i++) {\n  if (a[i]) b++; else c++;\n}\n",
     "# 1 \"f.c\"\n#pragma omp for\nfor (i = 0; i < n; i++)\n  if (a[i]) b++;\n"
     "#pragma omp for\nfor (i = 0; i < n; i++) {\n  if (a[i]) b++; else c++;\n}\n", 0},
};
/* clang-format on */

/* clang-format off */
static const text_case loop_bodies[] = {
    {"a range-based loop's body braced, a classic loop's too; a nested loop and a block left",
     "# 1 \"f.cpp\"\n#pragma omp parallel for\nfor (int &x : v) s += x;\ncalls++;\n"
     "#pragma omp for\nfor (i = 0; i < n; i++) [&](int k) { a[k] = k; }(i);\n"
     "#pragma omp for collapse(2)\nfor (i = 0; i < n; i++)\n  for (j = 0; j < n; j++) a[i] = j;\n"
     "#pragma omp for\nfor (auto &r : rows)\n  for (int j = 0; j < n; j++) r[j] = j;\n"
     "#pragma omp for\nfor (i = 0; i < (c ? n : m); i++) { a[i] = i; }\n",
     "# 1 \"f.cpp\"\n#pragma omp parallel for\nfor (int &x : v) {\n# 2 \"f.cpp\"\ns += x; }\n"
     "calls++;\n#pragma omp for\nfor (i = 0; i < n; i++) {\n# 5 \"f.cpp\"\n"
     "[&](int k) { a[k] = k; }(i); }\n"
     "#pragma omp for collapse(2)\nfor (i = 0; i < n; i++)\n  for (j = 0; j < n; j++) a[i] = j;\n"
     "#pragma omp for\nfor (auto &r : rows)\n  {\n# 11 \"f.cpp\"\n"
     "for (int j = 0; j < n; j++) r[j] = j; }\n"
     "#pragma omp for\nfor (i = 0; i < (c ? n : m); i++) { a[i] = i; }\n", 3},
    {"a body followed by more on its line: the brace on a line of its own",
     "# 1 \"m.c\"\ndo {\n#pragma omp for\nfor (i = 0; i < n; i++) y[i] *= a; } while (0);\n",
     "# 1 \"m.c\"\ndo {\n#pragma omp for\nfor (i = 0; i < n; i++) {\n# 3 \"m.c\"\n"
     "y[i] *= a;\n}\n# 3 \"m.c\"\n } while (0);\n", 1},
};
/* clang-format on */

static void run_untied(const text_case *cases, size_t count, bool fortran)
{
    for (size_t i = 0; i < count; i++) {
        unsigned changed = 99;
        char *out = weft__compile_untied_commas(cases[i].text, fortran, &changed);
        assert_int_equal(changed, cases[i].changed);
        expect_text(cases[i].name, out, cases[i].expected);
    }
}

/* clang-format off */
static const text_case hide_c[] = {
    {"doacross: sink and source hidden, the loop's directive and an ordered block not",
     "#pragma omp for ordered(1)\nfor (i = 1; i < n; i++) {\n"
     "#pragma omp ordered depend(sink : i - 1)\n  a[i] = a[i - 1];\n"
     "  #  pragma  omp  ordered depend(source)\n}\n#pragma omp ordered\n{ x(); }\n",
     "#pragma omp for ordered(1)\nfor (i = 1; i < n; i++) {\n"
     "//weft-hidden-from-opari2:#pragma omp ordered depend(sink : i - 1)\n  a[i] = a[i - 1];\n"
     "//weft-hidden-from-opari2:  #  pragma  omp  ordered depend(source)\n}\n"
     "#pragma omp ordered\n{ x(); }\n", 2},
    {"OpenMP 5.2's doacross clause; no newline at the end",
     "#pragma omp ordered doacross(sink: i - 1)", 
     "//weft-hidden-from-opari2:#pragma omp ordered doacross(sink: i - 1)", 1},
    {"ordered threads, a word containing depend, or not ordered: nothing",
     "#pragma omp ordered threads\n#pragma omp ordered simd // independent\n"
     "#pragma omp task depend(in: x)\n",
     "#pragma omp ordered threads\n#pragma omp ordered simd // independent\n"
     "#pragma omp task depend(in: x)\n", 0},
};

static const text_case shield_c[] = {
    {"ordered(N) of a combined parallel for travels with schedule; nested parentheses",
     "#pragma omp parallel for ordered(2) schedule(static) if(f(a, (b))) num_threads(2)\n"
     "#pragma omp for ordered(1)\n#pragma omp parallel for ordered\n",
     "#pragma omp parallel for schedule(weft_ordered:2) schedule(static) if(f(a, (b))) "
     "num_threads(2)\n#pragma omp for ordered(1)\n#pragma omp parallel for ordered\n", 1},
};

static const text_case simd_c[] = {
    {"parallel for simd: simd and the clauses OPARI2 would give parallel",
     "#pragma omp parallel for simd safelen(4) linear(j:1) reduction(+:s) order(concurrent)\n",
     "#pragma omp parallel for schedule(weft_simd:) schedule(weft_safelen:4) "
     "schedule(weft_linear:j:1) reduction(+:s) schedule(weft_order:concurrent)\n", 4},
    {"not a combined loop, or a longer word: nothing",
     "#pragma omp for simd safelen(4)\n#pragma omp parallel for simdlen_x(2)\n",
     "#pragma omp for simd safelen(4)\n#pragma omp parallel for simdlen_x(2)\n", 0},
};

static const text_case hide_fortran[] = {
    {"parallel do simd, a clause on the continuation line; the end directive as it is",
     "!$omp parallel do simd private(x) &\n!$omp& aligned(a:32)\ndo i = 1, n\nend do\n"
     "!$omp end parallel do simd\n",
     "!$omp parallel do schedule(weft_simd:) private(x) &\n!$omp& schedule(weft_aligned:a:32)\n"
     "do i = 1, n\nend do\n!$omp end parallel do simd\n", 2},
    {"combined parallel do, the clause on a continuation line",
     "!$omp parallel do private(x) &\n!$omp& ordered(1)\n",
     "!$omp parallel do private(x) &\n!$omp& schedule(weft_ordered:1)\n", 1},
    {"free form, upper case, with a continuation line (&, or none after it)",
     "!$OMP ORDERED DEPEND(SINK: I-1)\n  A(I) = A(I-1)\n  !$omp ordered &\n  !$omp depend(source)\n"
     "!$omp ordered\n!$omp end ordered\n",
     "!weft-hidden-from-opari2:!$OMP ORDERED DEPEND(SINK: I-1)\n  A(I) = A(I-1)\n"
     "!weft-hidden-from-opari2:  !$omp ordered &\n!weft-hidden-from-opari2:  !$omp depend(source)\n"
     "!$omp ordered\n!$omp end ordered\n", 2},
    {"fixed form: a mark in column 6 continues",
     "c$omp ordered\nc$omp+depend(sink: i-1)\n      a(i) = 1\n",
     "!weft-hidden-from-opari2:c$omp ordered\n!weft-hidden-from-opari2:c$omp+depend(sink: i-1)\n"
     "      a(i) = 1\n", 1},
};
/* clang-format on */

static void run_hide(const text_case *cases, size_t count, bool fortran)
{
    for (size_t i = 0; i < count; i++) {
        unsigned changed = 99;
        char *hidden = weft__compile_shield(cases[i].text, fortran, false, &changed);
        assert_non_null(hidden);
        /* what OPARI2 is given, then what it leaves for the compiler */
        expect_text(cases[i].name, weft__compile_unshield(hidden, fortran), cases[i].text);
        expect_text(cases[i].name, hidden, cases[i].expected);
        assert_int_equal(changed, cases[i].changed);
    }
}

static void test_hide_doacross(void **state)
{
    (void)state;
    run_hide(hide_c, sizeof(hide_c) / sizeof(hide_c[0]), false);
    run_hide(shield_c, sizeof(shield_c) / sizeof(shield_c[0]), false);
    run_hide(simd_c, sizeof(simd_c) / sizeof(simd_c[0]), false);
    /* OPARI2's loop of a parallel do simd: simd back, and on its end */
    expect_text("Fortran do simd end",
                weft__compile_unshield("!$omp          do schedule(weft_simd:)\ndo i = 1, n\n"
                                       "!$omp do\ndo j = 1, n\nend do\n!$omp end do\nend do\n"
                                       "!$omp end do nowait\n",
                                       true),
                "!$omp          do simd\ndo i = 1, n\n!$omp do\ndo j = 1, n\nend do\n"
                "!$omp end do\nend do\n!$omp end do simd nowait\n");
    run_hide(hide_fortran, sizeof(hide_fortran) / sizeof(hide_fortran[0]), true);
    /* a C mark means nothing in Fortran text, and the other way round */
    expect_text("other language's mark",
                weft__compile_unshield("//weft-hidden-from-opari2:x\n", true),
                "//weft-hidden-from-opari2:x\n");
    /* blanks before the parenthesis: found, and not kept */
    expect_text("ordered (N)",
                weft__compile_shield("#pragma omp parallel for ordered (1)\n", false, false, NULL),
                "#pragma omp parallel for schedule(weft_ordered:1)\n");
    /* fixed form: the clause stays, the longer text could pass column 72 */
    const char *fixed = "c$omp parallel do ordered(1)\n";
    expect_text("fixed form", weft__compile_shield(fixed, true, true, NULL), fixed);
}

/* clang-format off */
static const text_case waits_c[] = {
    {"the loop and the sections holding cancel directives lose OPARI2's nowait, others not",
     "#pragma omp          for schedule(static)    nowait\nfor (;;) {\n"
     "#pragma omp cancel for if(x)\n#pragma omp cancellation point for\n}\n"
     "#pragma omp barrier\n#pragma omp for nowait\nfor (;;) {}\n"
     "#pragma omp sections nowait\n{\n#pragma omp section\n{\n"
     "#pragma omp cancellation point sections\n}\n}\n",
     "#pragma omp          for schedule(static)          \nfor (;;) {\n"
     "#pragma omp cancel for if(x)\n#pragma omp cancellation point for\n}\n"
     "#pragma omp barrier\n#pragma omp for nowait\nfor (;;) {}\n"
     "#pragma omp sections       \n{\n#pragma omp section\n{\n"
     "#pragma omp cancellation point sections\n}\n}\n", 2},
};

static const text_case waits_fortran[] = {
    {"the end after the cancel that ends no loop begun in between",
     "!$omp do\ndo i = 1, n\n!$OMP CANCEL DO\n!$omp parallel\n!$omp do\ndo j = 1, n\nend do\n"
     "!$omp end do nowait\n!$omp end parallel\nend do\n!$omp end do nowait\n",
     "!$omp do\ndo i = 1, n\n!$OMP CANCEL DO\n!$omp parallel\n!$omp do\ndo j = 1, n\nend do\n"
     "!$omp end do nowait\n!$omp end parallel\nend do\n!$omp end do       \n", 1},
};
/* clang-format on */

static void run_waits(const text_case *cases, size_t count, bool fortran)
{
    for (size_t i = 0; i < count; i++) {
        unsigned changed = 99;
        expect_text(cases[i].name, weft__compile_cancel_waits(cases[i].text, fortran, &changed),
                    cases[i].expected);
        assert_int_equal(changed, cases[i].changed);
    }
}

static void test_cancel(void **state)
{
    (void)state;
    run_waits(waits_c, sizeof(waits_c) / sizeof(waits_c[0]), false);
    run_waits(waits_fortran, sizeof(waits_fortran) / sizeof(waits_fortran[0]), true);
    assert_int_equal(weft__compile_cancel_jumps("#pragma omp cancel parallel if(x)\n"
                                                "#pragma omp cancellation point taskgroup\n"
                                                "#pragma omp cancel sections\n"
                                                "#pragma omp cancel for\n#pragma omp parallel\n",
                                                false),
                     3);
    assert_int_equal(weft__compile_cancel_jumps("!$omp cancel parallel\n!$omp cancel do\n", true),
                     1);
}

/* clang-format off */
static const text_case split_cases[] = {
    {"parallel master, masked, taskloop and loop combinations split on their line",
     "# 6 \"a b.c\" 1 3\n#pragma omp parallel master num_threads(2)\n{ x(); }\n"
     "  #pragma omp parallel masked filter(f(1, 2)) if(c)\nx();\n"
     "#pragma omp parallel master taskloop simd num_threads(2), grainsize(4) "
     "if(taskloop: c) reduction(+: s) firstprivate(y) safelen(4)\nfor (;;) {}\n"
     "#pragma omp master taskloop num_threads(2)\nfor (;;) {}\n"
     "#pragma omp parallel loop shared(a) reduction(+: s) if(c)\nfor (;;) {}\n",
     "# 6 \"a b.c\" 1 3\n#pragma omp parallel num_threads(2)\n# 6 \"a b.c\" 3\n"
     "#pragma omp master\n# 7 \"a b.c\" 3\n{ x(); }\n"
     "  #pragma omp parallel if(c)\n# 8 \"a b.c\" 3\n#pragma omp masked filter(f(1, 2))\n"
     "# 9 \"a b.c\" 3\nx();\n"
     "#pragma omp parallel num_threads(2) firstprivate(y)\n# 10 \"a b.c\" 3\n"
     "#pragma omp master\n# 10 \"a b.c\" 3\n"
     "#pragma omp taskloop simd grainsize(4) if(taskloop: c) reduction(+: s) safelen(4)\n"
     "# 11 \"a b.c\" 3\nfor (;;) {}\n"
     "#pragma omp master\n# 12 \"a b.c\" 3\n#pragma omp taskloop num_threads(2)\n"
     "# 13 \"a b.c\" 3\nfor (;;) {}\n"
     "#pragma omp parallel shared(a) if(c)\n# 14 \"a b.c\" 3\n#pragma omp loop reduction(+: s)\n"
     "# 15 \"a b.c\" 3\nfor (;;) {}\n", 5},
    {"before any marker, with default(), or not combined: left as they are",
     "#pragma omp parallel master\nx();\n# 1 \"a.c\"\n"
     "#pragma omp parallel master taskloop default(none) shared(a)\nfor (;;) {}\n"
     "#pragma omp parallel for\n#pragma omp master\n",
     "#pragma omp parallel master\nx();\n# 1 \"a.c\"\n"
     "#pragma omp parallel master taskloop default(none) shared(a)\nfor (;;) {}\n"
     "#pragma omp parallel for\n#pragma omp master\n", 0},
};
/* clang-format on */

static void test_split(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(split_cases) / sizeof(split_cases[0]); i++) {
        unsigned changed = 99;
        expect_text(split_cases[i].name,
                    weft__compile_split_combined(split_cases[i].text, &changed),
                    split_cases[i].expected);
        assert_int_equal(changed, split_cases[i].changed);
    }
}

/* clang-format off */
static const text_case split_fortran_cases[] = {
    {"parallel master and its end; clauses one per continuation line",
     "# 3 \"a.F90\"\n  !$OMP parallel master num_threads(2) &\n!$omp& shared(n) ! why\n"
     "n = 1\n!$omp end parallel master\nx = 1\n",
     "# 3 \"a.F90\"\n  !$OMP parallel &\n!$omp& num_threads(2) &\n!$omp& shared(n)\n"
     "# 3 \"a.F90\"\n!$omp master\n# 5 \"a.F90\"\nn = 1\n"
     "!$omp end master\n# 6 \"a.F90\"\n!$omp end parallel\n# 7 \"a.F90\"\nx = 1\n", 1},
    {"loop forms: an end written after a loop without one, one given replaced",
     "# 1 \"b.F90\"\n!$omp master taskloop grainsize(2)\nouter: do i = 1, n\n"
     "  do 10 j = 1, n\n    x = x + &\n      1\n10 continue\nend do outer\ny = 1\n"
     "!$omp parallel loop\ndo i = 1, n\nenddo\n\n!$omp end parallel loop\n",
     "# 1 \"b.F90\"\n!$omp master\n# 1 \"b.F90\"\n!$omp taskloop &\n!$omp& grainsize(2)\n"
     "# 2 \"b.F90\"\nouter: do i = 1, n\n  do 10 j = 1, n\n    x = x + &\n      1\n"
     "10 continue\nend do outer\n# 7 \"b.F90\"\n!$omp end taskloop\n# 7 \"b.F90\"\n"
     "!$omp end master\n# 8 \"b.F90\"\ny = 1\n"
     "!$omp parallel\n# 9 \"b.F90\"\n!$omp loop\n# 10 \"b.F90\"\ndo i = 1, n\nenddo\n\n"
     "!$omp end loop\n# 13 \"b.F90\"\n!$omp end parallel\n# 14 \"b.F90\"\n", 2},
    {"left whole: no end, no loop, default() with a loop, before any marker",
     "!$omp parallel master\n!$omp end parallel master\n# 1 \"c.F90\"\n"
     "!$omp parallel master\nx = 1\n!$omp parallel loop\nx = 2\n"
     "!$omp master taskloop default(shared)\ndo i = 1, n\nend do\n",
     "!$omp parallel master\n!$omp end parallel master\n# 1 \"c.F90\"\n"
     "!$omp parallel master\nx = 1\n!$omp parallel loop\nx = 2\n"
     "!$omp master taskloop default(shared)\ndo i = 1, n\nend do\n", 0},
};
/* clang-format on */

/* clang-format off */
static const text_case atomic_cases[] = {
    {"an optional end left out, a capture and its end hidden",
     "!$omp atomic update\nk = k + 1\n!$OMP END ATOMIC\n!$omp atomic &\n!$omp& capture\n"
     "old = k\nk = k + 1\n!$omp end atomic\n!$omp atomic\nk = k + 1\n",
     "!$omp atomic update\nk = k + 1\n\n!weft-hidden-from-opari2:!$omp atomic &\n"
     "!weft-hidden-from-opari2:!$omp& capture\nold = k\nk = k + 1\n"
     "!weft-hidden-from-opari2:!$omp end atomic\n!$omp atomic\nk = k + 1\n", 2},
};
/* clang-format on */

static void test_fortran_atomics(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(atomic_cases) / sizeof(atomic_cases[0]); i++) {
        unsigned changed = 99;
        char *out = weft__compile_fortran_atomics(atomic_cases[i].text, &changed);
        assert_int_equal(changed, atomic_cases[i].changed);
        char *shown = weft__compile_unshield(out, true);
        expect_text(atomic_cases[i].name, out, atomic_cases[i].expected);
        /* shown again after OPARI2: only the optional end stays out */
        expect_text("unshielded", shown,
                    "!$omp atomic update\nk = k + 1\n\n!$omp atomic &\n!$omp& capture\n"
                    "old = k\nk = k + 1\n!$omp end atomic\n!$omp atomic\nk = k + 1\n");
    }
}

static void test_interface_includes(void **state)
{
    (void)state;
    unsigned changed = 99;
    expect_text("emptied in interface bodies only",
                weft__compile_interface_includes(
                    "subroutine s\n      include 'a.opari.inc'\n  Abstract Interface\n"
                    "    subroutine f(x)\n      include 'a.opari.inc'\n      import :: k\n"
                    "    end subroutine f\n  end interface\n  interface = 1\n"
                    "      include 'a.opari.inc'\nend\n",
                    false, &changed),
                "subroutine s\n      include 'a.opari.inc'\n  Abstract Interface\n"
                "    subroutine f(x)\n\n      import :: k\n    end subroutine f\n  end interface\n"
                "  interface = 1\n      include 'a.opari.inc'\nend\n");
    assert_int_equal(changed, 1);
}

static void test_fortran_continuations(void **state)
{
    (void)state;
    unsigned changed = 99;
    expect_text("free form: a blank after the mark",
                weft__compile_fortran_continuations(
                    "!$omp parallel do &\n!$omp&schedule(static) &\n!$omp& shared(a)\n"
                    "x = 1 &\n&y\n",
                    false, &changed),
                "!$omp parallel do &\n!$omp& schedule(static) &\n!$omp& shared(a)\n"
                "x = 1 &\n&y\n");
    assert_int_equal(changed, 1);
    expect_text("fixed form: the mark of column 6 an ampersand",
                weft__compile_fortran_continuations(
                    "c$omp parallel do\nc$omp1 schedule(static)\n!$OMP+shared(a)\n"
                    "     1  x = 1\nc$omp& private(b)\n",
                    true, &changed),
                "c$omp parallel do\nc$omp&  schedule(static)\n!$OMP& shared(a)\n"
                "     1  x = 1\nc$omp& private(b)\n");
    assert_int_equal(changed, 2);
}

static void test_digit_separators(void **state)
{
    (void)state;
    unsigned changed = 99;
    expect_text("numbers only",
                weft__compile_digit_separators(
                    "long n = 1'000'000 + 0xFF'FF + 3.141'59;\nchar c = 'a', d = u8'0';\n"
                    "const char *t = \"it's 1'2\", *r = R\"x(1'2)x\";\n",
                    &changed),
                "long n = 1000000 + 0xFFFF + 3.14159;\nchar c = 'a', d = u8'0';\n"
                "const char *t = \"it's 1'2\", *r = R\"x(1'2)x\";\n");
    assert_int_equal(changed, 4);
}

static void test_split_fortran(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(split_fortran_cases) / sizeof(split_fortran_cases[0]); i++) {
        unsigned changed = 99;
        expect_text(split_fortran_cases[i].name,
                    weft__compile_split_fortran(split_fortran_cases[i].text, false, &changed),
                    split_fortran_cases[i].expected);
        assert_int_equal(changed, split_fortran_cases[i].changed);
    }
}

/* clang-format off */
static const text_case plain_if_c[] = {
    {"the modifier naming the directive's construct left out",
     "#pragma omp parallel if(parallel: a ? b : c) num_threads(2)\n"
     "#pragma omp parallel for if ( parallel : x) nowait\n#pragma omp task if(task:y)\n",
     "#pragma omp parallel if( a ? b : c) num_threads(2)\n"
     "#pragma omp parallel for if (  x) nowait\n#pragma omp task if(y)\n", 3},
    {"with simd, another construct's modifier, no modifier, C++ scope: left",
     "#pragma omp parallel for simd if(parallel: c)\n#pragma omp target if(target: c)\n"
     "#pragma omp parallel if(c)\n#pragma omp parallel if(parallel::f())\n",
     "#pragma omp parallel for simd if(parallel: c)\n#pragma omp target if(target: c)\n"
     "#pragma omp parallel if(c)\n#pragma omp parallel if(parallel::f())\n", 0},
};
/* clang-format on */

static void test_plain_if(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(plain_if_c) / sizeof(plain_if_c[0]); i++) {
        unsigned changed = 99;
        expect_text(plain_if_c[i].name, weft__compile_plain_if(plain_if_c[i].text, false, &changed),
                    plain_if_c[i].expected);
        assert_int_equal(changed, plain_if_c[i].changed);
    }
    expect_text(
        "Fortran, continued",
        weft__compile_plain_if("!$OMP PARALLEL &\n!$OMP& IF(PARALLEL: N > 1)\n", true, NULL),
        "!$OMP PARALLEL &\n!$OMP& IF( N > 1)\n");
}

static void test_untied_c(void **state)
{
    (void)state;
    run_untied(untied_c, sizeof(untied_c) / sizeof(untied_c[0]), false);
}

static void test_untied_fortran(void **state)
{
    (void)state;
    run_untied(untied_fortran, sizeof(untied_fortran) / sizeof(untied_fortran[0]), true);
}

static void test_brace_else(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(braces) / sizeof(braces[0]); i++) {
        unsigned changed = 99;
        char *out = weft__compile_brace_else(braces[i].text, &changed);
        assert_int_equal(changed, braces[i].changed);
        expect_text(braces[i].name, out, braces[i].expected);
    }
}

static void test_brace_if_else(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(if_else_bodies) / sizeof(if_else_bodies[0]); i++) {
        unsigned changed = 99;
        char *out = weft__compile_brace_if_else(if_else_bodies[i].text, &changed);
        assert_int_equal(changed, if_else_bodies[i].changed);
        expect_text(if_else_bodies[i].name, out, if_else_bodies[i].expected);
    }
}

static void test_brace_loop_bodies(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(loop_bodies) / sizeof(loop_bodies[0]); i++) {
        unsigned changed = 99;
        char *out = weft__compile_brace_loop_bodies(loop_bodies[i].text, &changed);
        assert_int_equal(changed, loop_bodies[i].changed);
        expect_text(loop_bodies[i].name, out, loop_bodies[i].expected);
    }
}

static void test_line_markers(void **state)
{
    (void)state;
    const char *pre = "# 0 \"src/t.c\"\n# 1 \"/usr/include/stdio.h\" 1 3 4\n"
                      "# 2 \"src/t.c\" 2\n# 1 \"/abs/u.h\" 1\n";
    /* before OPARI2: relative names absolute, others untouched */
    expect_text("absolute", weft__compile_absolute_markers(pre, "/home/b"),
                "# 0 \"/home/b/src/t.c\"\n# 1 \"/usr/include/stdio.h\" 1 3 4\n"
                "# 2 \"/home/b/src/t.c\" 2\n# 1 \"/abs/u.h\" 1\n");
    /* after: back to the preprocessor's names, #line as markers with flags;
     * OPARI2's own input file (after a Fortran atomic) as the file before */
    const char *opari = "# 0 \"/home/b/src/t.c\"\n#line 7 \"/home/b/src/t.c\"\n"
                        "#line 40 \"/usr/include/stdio.h\"\n#line 3 \"/abs/u.h\"\n"
                        "#line 1 \"/w/s1/t.in.c\"\n# 2 \"/home/b/src/t.c\" 2\nint x;\n";
    expect_text("mapped", weft__compile_map_lines(opari, pre, "/home/b"),
                "# 0 \"src/t.c\"\n# 7 \"src/t.c\"\n# 40 \"/usr/include/stdio.h\" 3 4\n"
                "# 3 \"/abs/u.h\"\n# 1 \"/abs/u.h\"\n# 2 \"src/t.c\" 2\nint x;\n");
}

static void test_depfile_join(void **state)
{
    (void)state;
    const char *headers = "x.o: ../src/x.F90 ../src/x.h \\\n /usr/include/y.h\n../src/x.h:\n"
                          "/usr/include/y.h:\n";
    const char *modules = "x.o: ../src/x.F90 /usr/include/y.h m.mod\n/usr/include/y.h:\nm.mod:\n";
    expect_text("joined", weft__compile_depfile_join(headers, modules),
                "x.o: ../src/x.F90 ../src/x.h \\\n /usr/include/y.h \\\n m.mod\n../src/x.h:\n"
                "/usr/include/y.h:\nm.mod:\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_untied_c),
        cmocka_unit_test(test_untied_fortran),
        cmocka_unit_test(test_brace_else),
        cmocka_unit_test(test_brace_if_else),
        cmocka_unit_test(test_line_markers),
        cmocka_unit_test(test_depfile_join),
        cmocka_unit_test(test_hide_doacross),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_plain_if),
        cmocka_unit_test(test_split_fortran),
        cmocka_unit_test(test_fortran_atomics),
        cmocka_unit_test(test_brace_loop_bodies),
        cmocka_unit_test(test_interface_includes),
        cmocka_unit_test(test_fortran_continuations),
        cmocka_unit_test(test_digit_separators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
