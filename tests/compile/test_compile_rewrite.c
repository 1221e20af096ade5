/* Unit tests of the two text rewrites of `weft compile`: make dependency
 * files written while compiling an instrumented copy (tools/compile_depfile.c)
 * and the #line directives opari2 writes into the copy (tools/compile_copy.c).
 * Table-driven: input text, the rewrite's parameters, the exact output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compile_copy.h"
#include "compile_depfile.h"

#define WORK "/tmp/weft-compile-AbC123"

typedef struct depfile_case {
    const char *name;
    const char *text;
    const char *copy;
    const char *original;
    const char *expected;
} depfile_case;

/* clang-format off */
static const depfile_case depfile_cases[] = {
    {"the copy becomes the source, the OPARI2 include goes",
     "t.o: " WORK "/s1/t.c /usr/include/stdc-predef.h " WORK "/s1/t.c.opari.inc \\\n"
     " /usr/include/opari2/pomp2_lib.h ../src/x.h\n",
     WORK "/s1/t.c", "../src/t.c",
     "t.o: ../src/t.c /usr/include/stdc-predef.h /usr/include/opari2/pomp2_lib.h \\\n"
     " ../src/x.h\n"},
    {"-MP phony rules of work-directory files go",
     "t.o: " WORK "/s1/t.c " WORK "/s1/t.c.opari.inc x.h\n"
     WORK "/s1/t.c.opari.inc:\n"
     "x.h:\n",
     WORK "/s1/t.c", "t.c",
     "t.o: t.c x.h\nx.h:\n"},
    {"spaces, '#' and '$' in the source are escaped for make",
     "t.o: " WORK "/s1/t.c\n",
     WORK "/s1/t.c", "my dir/a#b$c.c",
     "t.o: my\\ dir/a\\#b$$c.c\n"},
    {"escaped spaces in the work directory still match",
     "out.o: /tmp/my\\ tmp/weft-compile-1/s1/t.c /tmp/my\\ tmp/weft-compile-1/s1/t.c.opari.inc"
     " y.h\n",
     "/tmp/my tmp/weft-compile-1/s1/t.c", "t.c",
     "out.o: t.c y.h\n"},
    {"several targets (GFortran) and -MT/-MQ targets are kept",
     "f.o out.o: " WORK "/s2/f.F90 " WORK "/s2/f.f90.opari.inc " WORK "/s2/f.f90.opari.inc \\\n"
     " /usr/lib/gcc/finclude/omp_lib.mod\n",
     WORK "/s2/f.F90", "src/f.f90",
     "f.o out.o: src/f.f90 /usr/lib/gcc/finclude/omp_lib.mod\n"},
    {"a file that merely starts like the work directory is kept",
     "t.o: " WORK "/s1/t.c " WORK "x/other.h\n",
     WORK "/s1/t.c", "t.c",
     "t.o: t.c " WORK "x/other.h\n"},
    {"long rules are wrapped",
     "t.o: " WORK "/s1/t.c /a/very/long/path/number/one.h /a/very/long/path/number/two.h"
     " /a/very/long/path/number/three.h\n",
     WORK "/s1/t.c", "t.c",
     "t.o: t.c /a/very/long/path/number/one.h /a/very/long/path/number/two.h \\\n"
     " /a/very/long/path/number/three.h\n"},
    {"no final newline", "t.o: " WORK "/s1/t.c", WORK "/s1/t.c", "t.c", "t.o: t.c\n"},
    {"empty", "", WORK "/s1/t.c", "t.c", ""},
};
/* clang-format on */

static void test_depfile(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(depfile_cases) / sizeof(depfile_cases[0]); i++) {
        const depfile_case *tc = &depfile_cases[i];
        const char *work = strstr(tc->text, "/tmp/my\\ tmp") ? "/tmp/my tmp/weft-compile-1" : WORK;
        char *out = weft__compile_depfile_rewrite(tc->text, work, tc->copy, tc->original);
        assert_non_null(out);
        if (strcmp(out, tc->expected) != 0) {
            print_error("case '%s':\n--- got:\n%s--- expected:\n%s", tc->name, out, tc->expected);
            free(out);
            fail();
        }
        free(out);
    }
}

typedef struct lines_case {
    const char *name;
    const char *text;
    const char *source;
    const char *expected;
} lines_case;

/* clang-format off */
static const lines_case lines_cases[] = {
    {"C: every #line naming the source",
     "#include \"t.c.opari.inc\"\n#line 1 \"/home/u/build/../src/t.c\"\nint x;\n"
     "{ POMP2_Parallel_fork(); }\n#line 6 \"/home/u/build/../src/t.c\"\n#pragma omp parallel\n",
     "../src/t.c",
     "#include \"t.c.opari.inc\"\n#line 1 \"../src/t.c\"\nint x;\n"
     "{ POMP2_Parallel_fork(); }\n#line 6 \"../src/t.c\"\n#pragma omp parallel\n"},
    {"Fortran: an empty first line",
     "\n#line 1 \"/w/f.f90\"\nprogram p\n      include 'f.f90.opari.inc'\n#line 2 \"/w/f.f90\"\n",
     "f.f90",
     "\n#line 1 \"f.f90\"\nprogram p\n      include 'f.f90.opari.inc'\n#line 2 \"f.f90\"\n"},
    {"quotes and backslashes are escaped",
     "#line 1 \"/w/a.c\"\n", "we\"ird\\dir/a.c", "#line 1 \"we\\\"ird\\\\dir/a.c\"\n"},
    {"a #line of another file is left alone",
     "#line 1 \"/w/a.c\"\n#line 3 \"/usr/include/x.h\"\n#line 9 \"/w/a.c\"",
     "a.c", "#line 1 \"a.c\"\n#line 3 \"/usr/include/x.h\"\n#line 9 \"a.c\""},
    {"no #line at all", "int x;\n", "a.c", "int x;\n"},
    {"not a directive", "#linear 1 \"/w/a.c\"\n#line x \"/w/a.c\"\n#line 2 \"\"\n", "a.c",
     "#linear 1 \"/w/a.c\"\n#line x \"/w/a.c\"\n#line 2 \"\"\n"},
};
/* clang-format on */

static void test_lines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(lines_cases) / sizeof(lines_cases[0]); i++) {
        const lines_case *tc = &lines_cases[i];
        char *out = weft__compile_copy_rewrite_lines(tc->text, tc->source);
        assert_non_null(out);
        if (strcmp(out, tc->expected) != 0) {
            print_error("case '%s':\n--- got:\n%s\n--- expected:\n%s\n", tc->name, out,
                        tc->expected);
            free(out);
            fail();
        }
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depfile),
        cmocka_unit_test(test_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
