/* Unit tests of the `weft compile` command-line classifier
 * (tools/compile_args.c): a table of compiler command lines, each with the
 * mode it must give and the role of every word, written one letter per word:
 *
 *   F flag (every compile and the link)   L link-only flag   S instrumented source
 *   I other input                         O output (-o)      X stop (-c, -S)
 *
 * Nothing is run; the classifier never touches the file system. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compile_args.h"

#define MAX_WORDS 32

enum {
    PASS = WEFT_COMPILE_MODE_PASS,
    COMPILE = WEFT_COMPILE_MODE_COMPILE,
    LINK = WEFT_COMPILE_MODE_LINK
};

typedef struct args_case {
    const char *command; /* words separated by single spaces */
    int mode;
    const char *roles;  /* one letter per word (above); NULL: not checked (PASS) */
    const char *langs;  /* per source, in order: c C, x C++, f fixed Fortran, F free Fortran */
    const char *output; /* expected plan.output; NULL for none */
    const char *reason; /* PASS: a substring of pass_reason */
} args_case;

/* clang-format off */
static const args_case cases[] = {
    /* -c with and without -o, glued -o */
    {"gcc -fopenmp -c t.c",                     COMPILE, "FFXS",   "c", NULL, NULL},
    {"gcc -fopenmp -c src/t.c -o out/t.o",      COMPILE, "FFXSOO", "c", "out/t.o", NULL},
    {"gcc -fopenmp -c -ofoo.o t.c",             COMPILE, "FFXOS",  "c", "foo.o", NULL},
    {"gcc -fopenmp -S t.c",                     COMPILE, "FFXS",   "c", NULL, NULL},
    /* several sources, compile only and compile + link */
    {"gcc -fopenmp -c a.c b.c",                 COMPILE, "FFXSS",  "cc", NULL, NULL},
    {"gcc -fopenmp a.c b.cpp -o app -lm",       LINK,    "FFSSOOL", "cx", "app", NULL},
    {"gcc -fopenmp a.c b.c",                    LINK,    "FFSS",   "cc", NULL, NULL},
    /* options with a separate argument never take it for a source */
    {"gcc -fopenmp -I inc -Iinc2 -D X=1 -DY -U Z -c t.c", COMPILE, "FFFFFFFFFFXS", "c", NULL, NULL},
    {"gcc -fopenmp -I a.c -c t.c",              COMPILE, "FFFFXS", "c", NULL, NULL},
    {"gcc -fopenmp -include pre.h -imacros m.h -isystem s.c -iquote q -idirafter d -c t.c",
                                                COMPILE, "FFFFFFFFFFFFXS", "c", NULL, NULL},
    {"gcc -fopenmp -MD -MF t.d -MT t.o -MQ q.o -c t.c",
                                                COMPILE, "FFFFFFFFFXS", "c", NULL, NULL},
    {"gcc -fopenmp -Xpreprocessor -DX -Xassembler --64 -Xclang -v -c t.c",
                                                COMPILE, "FFFFFFFFXS", "c", NULL, NULL},
    {"clang -fopenmp -mllvm -x=1 -Xopenmp-target -march=sm_70 --sysroot /s.c -c t.c",
                                                COMPILE, "FFFFFFFFXS", "c", NULL, NULL},
    {"gcc -fopenmp --param max-unroll-times=2 -A x=y -c t.c",
                                                COMPILE, "FFFFFFXS", "c", NULL, NULL},
    {"gfortran -fopenmp -J mods -c m.f90",      COMPILE, "FFFFXS", "F", NULL, NULL},
    {"gfortran -fopenmp -Jmods -c m.f90",       COMPILE, "FFFXS",  "F", NULL, NULL},
    {"gcc -fopenmp -u sym -T link.ld a.o -o app", LINK,  "FFLLLLIOO", "", "app", NULL},
    {"gcc -fopenmp -Xlinker -z -Xlinker now a.o -o app", LINK, "FFLLLLIOO", "", "app", NULL},
    {"gcc -fopenmp -l m -L /opt/lib a.c -Wl,-rpath,/opt/lib -lfoo -L/x", LINK,
                                                "FFLLLLSLLL", "c", NULL, NULL},
    /* objects and libraries stay inputs, in place */
    {"gcc -fopenmp main.o libx.a liby.so libz.so.1 a.c -o app", LINK, "FFIIIISOO", "c", "app",
                                                NULL},
    {"gcc -fopenmp -c a.c b.o -o a.o",          COMPILE, "FFXSIOO", "c", "a.o", NULL},
    {"gcc -fopenmp -c a.c a.s",                 COMPILE, "FFXSI",  "c", NULL, NULL},
    /* languages from suffixes */
    {"g++ -fopenmp -c a.C b.cc c.cxx d.c++ e.cp f.CPP g.cpp", COMPILE, "FFXSSSSSSS", "xxxxxxx",
                                                NULL, NULL},
    {"gfortran -fopenmp -c a.f b.F c.for d.FTN e.fpp", COMPILE, "FFXSSSSS", "fffff", NULL, NULL},
    {"gfortran -fopenmp -c a.f90 b.F90 c.f95 d.f03 e.F08", COMPILE, "FFXSSSSS", "FFFFF", NULL,
                                                NULL},
    {"gfortran -fopenmp -ffree-form -c a.f b.f90", COMPILE, "FFFXSS", "FF", NULL, NULL},
    {"gfortran -fopenmp -ffixed-form -c a.f90", COMPILE, "FFFXS",  "f", NULL, NULL},
    {"gcc -fopenmp -c t.i x.h a.c",             COMPILE, "FFXIIS", "c", NULL, NULL},
    /* OpenMP flags */
    {"gcc -fopenmp=libomp -c t.c",              COMPILE, "FFXS",   "c", NULL, NULL},
    {"icx -qopenmp -c t.c",                     COMPILE, "FFXS",   "c", NULL, NULL},
    {"icc -openmp -c t.c",                      COMPILE, "FFXS",   "c", NULL, NULL},
    {"gcc -fopenmp-simd t.c -o app",            LINK,    "FFIOO",  "", "app", NULL},
    {"gcc t.c -o app",                          LINK,    "FIOO",   "", "app", NULL},
    {"gcc -c t.c",                              PASS,    NULL,     "", NULL, "OpenMP"},
    {"gcc -fopenmp -fno-openmp -c t.c",         PASS,    NULL,     "", NULL, "OpenMP"},
    /* response files go to every command */
    {"gcc -fopenmp -c @flags.rsp t.c",          COMPILE, "FFXFS",  "c", NULL, NULL},
    /* commands that run unchanged */
    {"gcc -fopenmp -x c -c t.c",                PASS,    NULL,     "", NULL, "-x"},
    {"gcc -fopenmp -xc++ -c t.c",               PASS,    NULL,     "", NULL, "-x"},
    {"gcc -fopenmp -E t.c",                     PASS,    NULL,     "", NULL, "neither"},
    {"gcc -fopenmp -M t.c",                     PASS,    NULL,     "", NULL, "neither"},
    {"gcc -fopenmp -MM -c t.c",                 PASS,    NULL,     "", NULL, "neither"},
    {"gcc -fopenmp -fsyntax-only t.c",          PASS,    NULL,     "", NULL, "neither"},
    {"gcc --version",                           PASS,    NULL,     "", NULL, "neither"},
    {"gcc -v",                                  PASS,    NULL,     "", NULL, "no input"},
    {"gcc",                                     PASS,    NULL,     "", NULL, "no input"},
    {"gcc -dumpversion",                        PASS,    NULL,     "", NULL, "neither"},
    {"gcc -fopenmp -print-file-name=libgomp.so", PASS,   NULL,     "", NULL, "neither"},
    {"mpicc -fopenmp -showme",                  PASS,    NULL,     "", NULL, "neither"},
    {"mpicc -fopenmp --showme:compile",         PASS,    NULL,     "", NULL, "neither"},
    {"gcc -fopenmp -o app",                     PASS,    NULL,     "", NULL, "no input"},
    {"gcc -fopenmp -c t.c -o",                  PASS,    NULL,     "", NULL, "argument"},
    {"gcc -fopenmp -c t.c -I",                  PASS,    NULL,     "", NULL, "argument"},
    {"gcc -fopenmp -c a.c b.c -o x.o",          PASS,    NULL,     "", NULL, "several"},
    {"gcc -fopenmp -c a.c -o a.o -o b.o",       PASS,    NULL,     "", NULL, "more than once"},
    {"gcc -fopenmp -c t.i",                     PASS,    NULL,     "", NULL, "no source"},
    {"gcc -fopenmp -x c -",                     PASS,    NULL,     "", NULL, NULL},
};
/* clang-format on */

#define CASE_COUNT (sizeof(cases) / sizeof(cases[0]))

/* Splits COMMAND at single spaces into WORDS (storage in BUF). */
static int split(const char *command, char *buf, size_t size, char **words)
{
    snprintf(buf, size, "%s", command);
    int count = 0;
    for (char *word = strtok(buf, " "); word && count < MAX_WORDS - 1; word = strtok(NULL, " "))
        words[count++] = word;
    words[count] = NULL;
    return count;
}

static char role_letter(weft_compile_role role)
{
    switch (role) {
    case WEFT_COMPILE_ARG_FLAG:
        return 'F';
    case WEFT_COMPILE_ARG_LINK_FLAG:
        return 'L';
    case WEFT_COMPILE_ARG_SOURCE:
        return 'S';
    case WEFT_COMPILE_ARG_INPUT:
        return 'I';
    case WEFT_COMPILE_ARG_OUTPUT:
        return 'O';
    case WEFT_COMPILE_ARG_STOP:
        return 'X';
    }
    return '?';
}

static char lang_letter(weft_compile_lang lang)
{
    switch (lang) {
    case WEFT_COMPILE_LANG_C:
        return 'c';
    case WEFT_COMPILE_LANG_CXX:
        return 'x';
    case WEFT_COMPILE_LANG_FORTRAN_FIXED:
        return 'f';
    case WEFT_COMPILE_LANG_FORTRAN_FREE:
        return 'F';
    case WEFT_COMPILE_LANG_NONE:
        return '-';
    }
    return '?';
}

static void test_table(void **state)
{
    (void)state;
    for (size_t c = 0; c < CASE_COUNT; c++) {
        const args_case *tc = &cases[c];
        char buf[512];
        char *words[MAX_WORDS];
        int argc = split(tc->command, buf, sizeof(buf), words);
        weft_compile_plan plan;
        assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);

        char roles[MAX_WORDS + 1] = "", langs[MAX_WORDS + 1] = "";
        size_t lang_count = 0;
        for (int i = 0; i < argc; i++) {
            roles[i] = role_letter(plan.roles[i]);
            if (plan.roles[i] == WEFT_COMPILE_ARG_SOURCE)
                langs[lang_count++] = lang_letter(plan.langs[i]);
        }
        roles[argc] = '\0';
        langs[lang_count] = '\0';
        if ((int)plan.mode != tc->mode || (tc->roles && strcmp(roles, tc->roles) != 0) ||
            (tc->mode != PASS && strcmp(langs, tc->langs) != 0) ||
            (tc->mode != PASS && (tc->output ? !plan.output || strcmp(plan.output, tc->output)
                                             : plan.output != NULL)) ||
            (tc->mode == PASS && tc->reason &&
             (!plan.pass_reason || !strstr(plan.pass_reason, tc->reason)))) {
            print_error("case '%s': mode %d roles %s langs %s output %s reason %s\n", tc->command,
                        (int)plan.mode, roles, langs, plan.output ? plan.output : "(none)",
                        plan.pass_reason ? plan.pass_reason : "(none)");
            fail();
        }
        assert_int_equal(plan.source_count, lang_count);
        weft__compile_plan_clear(&plan);
    }
}

/* Details the table does not show: the stop flag and object suffix, the
 * dependency file, -shared, and that PASS and LINK leave stop_flag unset. */
static void test_details(void **state)
{
    (void)state;
    char buf[512];
    char *words[MAX_WORDS];
    weft_compile_plan plan;

    int argc = split("gcc -fopenmp -c -S t.c", buf, sizeof(buf), words);
    assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
    assert_string_equal(plan.stop_flag, "-S");
    assert_string_equal(plan.object_suffix, ".s");
    weft__compile_plan_clear(&plan);

    argc = split("gcc -fopenmp -c t.c", buf, sizeof(buf), words);
    assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
    assert_string_equal(plan.stop_flag, "-c");
    assert_string_equal(plan.object_suffix, ".o");
    assert_false(plan.depfile);
    assert_null(plan.depfile_path);
    weft__compile_plan_clear(&plan);

    argc = split("gcc -fopenmp -MMD -MFdeps/t.d -c t.c", buf, sizeof(buf), words);
    assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
    assert_true(plan.depfile);
    assert_string_equal(plan.depfile_path, "deps/t.d");
    weft__compile_plan_clear(&plan);

    argc = split("gcc -fopenmp -MD -MF t.d -c t.c", buf, sizeof(buf), words);
    assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
    assert_true(plan.depfile);
    assert_string_equal(plan.depfile_path, "t.d");
    weft__compile_plan_clear(&plan);

    argc = split("gcc -fopenmp -shared -fPIC a.c -o liba.so", buf, sizeof(buf), words);
    assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
    assert_int_equal(plan.mode, WEFT_COMPILE_MODE_LINK);
    assert_true(plan.shared);
    assert_true(plan.openmp);
    assert_null(plan.stop_flag);
    assert_null(plan.object_suffix);
    weft__compile_plan_clear(&plan);

    argc = split("gcc -fopenmp -E t.c", buf, sizeof(buf), words);
    assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
    assert_null(plan.stop_flag);
    weft__compile_plan_clear(&plan);

    weft__compile_plan_clear(NULL);
}

static void test_lang_of(void **state)
{
    (void)state;
    assert_int_equal(weft__compile_lang_of("t.c"), WEFT_COMPILE_LANG_C);
    assert_int_equal(weft__compile_lang_of("dir.f90/t.C"), WEFT_COMPILE_LANG_CXX);
    assert_int_equal(weft__compile_lang_of("../src/x.F"), WEFT_COMPILE_LANG_FORTRAN_FIXED);
    assert_int_equal(weft__compile_lang_of("x.F08"), WEFT_COMPILE_LANG_FORTRAN_FREE);
    assert_int_equal(weft__compile_lang_of("Makefile"), WEFT_COMPILE_LANG_NONE);
    assert_int_equal(weft__compile_lang_of("dir.c/noext"), WEFT_COMPILE_LANG_NONE);
    assert_int_equal(weft__compile_lang_of(".c"), WEFT_COMPILE_LANG_NONE);
    assert_int_equal(weft__compile_lang_of("x.CXX"), WEFT_COMPILE_LANG_NONE);
    assert_int_equal(weft__compile_lang_of("x.i"), WEFT_COMPILE_LANG_NONE);
    assert_int_equal(weft__compile_lang_of("x.S"), WEFT_COMPILE_LANG_NONE);
}

static void test_is_object(void **state)
{
    (void)state;
    assert_true(weft__compile_is_object("a.o"));
    assert_true(weft__compile_is_object("lib/libx.a"));
    assert_true(weft__compile_is_object("libx.so"));
    assert_true(weft__compile_is_object("libx.so.1.2.3"));
    assert_true(weft__compile_is_object("x.obj"));
    assert_false(weft__compile_is_object("libx.so."));
    assert_false(weft__compile_is_object("libx.so.abc"));
    assert_false(weft__compile_is_object("a.lo"));
    assert_false(weft__compile_is_object("a.c"));
    assert_false(weft__compile_is_object("dir.o/file"));
    assert_false(weft__compile_is_object(".o"));
}

static void test_mpi_wrapper(void **state)
{
    (void)state;
    assert_true(weft__compile_is_mpi_wrapper("mpicc"));
    assert_true(weft__compile_is_mpi_wrapper("/usr/bin/mpicxx"));
    assert_true(weft__compile_is_mpi_wrapper("mpic++"));
    assert_true(weft__compile_is_mpi_wrapper("mpiCC"));
    assert_true(weft__compile_is_mpi_wrapper("mpif77"));
    assert_true(weft__compile_is_mpi_wrapper("mpif90.openmpi"));
    assert_true(weft__compile_is_mpi_wrapper("mpifort"));
    assert_true(weft__compile_is_mpi_wrapper("mpicc.mpich"));
    assert_true(weft__compile_is_mpi_wrapper("mpicc-4.1"));
    assert_true(weft__compile_is_mpi_wrapper("mpicxx12"));
    assert_true(weft__compile_is_mpi_wrapper("mpiicx"));
    assert_true(weft__compile_is_mpi_wrapper("/opt/intel/bin/mpiifort"));
    assert_false(weft__compile_is_mpi_wrapper("gcc"));
    assert_false(weft__compile_is_mpi_wrapper("/opt/mpicc/bin/gcc"));
    assert_false(weft__compile_is_mpi_wrapper("mpirun"));
    assert_false(weft__compile_is_mpi_wrapper("mpiexec"));
    assert_false(weft__compile_is_mpi_wrapper("mpiccache"));
    assert_false(weft__compile_is_mpi_wrapper("xmpicc"));
}

/* plan.mpi and plan.mpi_library: an MPI wrapper, or a -lmpi* on the command
 * line, whose index tells weft compile where libweft-mpi must go. */
static void test_mpi_plan(void **state)
{
    (void)state;
    static const struct {
        const char *command;
        bool mpi;
        int mpi_library;
    } mpi_cases[] = {
        {"mpicc app.c -o app", true, 0},
        {"/usr/bin/mpif90.openmpi -fopenmp app.f90", true, 0},
        {"gcc app.c -o app", false, 0},
        {"gcc app.c -lm -o app", false, 0},
        {"gcc app.c -o app -L/opt/mpi/lib -lmpi", true, 5},
        {"gcc app.c -lmpich -lmpi", true, 2},
        {"g++ app.cpp -lmpi_cxx -lmpi", true, 2},
        {"gcc app.c -l mpi", true, 2},
        {"gcc app.c -l m -lmpifort", true, 4},
        {"mpicc app.c -lmpi", true, 2},
        {"gcc -fopenmp -c app.c -lmpi", true, 4},
    };
    for (size_t c = 0; c < sizeof(mpi_cases) / sizeof(mpi_cases[0]); c++) {
        char buf[512];
        char *words[MAX_WORDS];
        int argc = split(mpi_cases[c].command, buf, sizeof(buf), words);
        weft_compile_plan plan;
        assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
        if (plan.mpi != mpi_cases[c].mpi || plan.mpi_library != mpi_cases[c].mpi_library) {
            print_error("case '%s': mpi %d mpi_library %d\n", mpi_cases[c].command, (int)plan.mpi,
                        plan.mpi_library);
            fail();
        }
        weft__compile_plan_clear(&plan);
    }
}

/* What each flag is read by (the compile of preprocessed text leaves out
 * the preprocessor's), one letter per word: A any step, P the preprocessor
 * only, I an include directory, J gfortran's module directory, M the
 * dependency file; '.' for words that are no flag. And which sources the
 * compiler preprocesses. */
static void test_uses(void **state)
{
    (void)state;
    static const struct {
        const char *command, *uses;
    } use_cases[] = {
        {"gcc -fopenmp -O2 -DX=1 -D Y -UZ -I inc -Iinc2 -isystem s -include p.h -c t.c",
         "AAAPPPPIIIIIPP.."},
        {"gcc -fopenmp -MD -MP -MF t.d -MT t.o -MQx -MMD -Wp,-v -Xpreprocessor -C -c t.c",
         "AAMMMMMMMMPPP.."},
        {"gfortran -fopenmp -cpp -J mods -Jm2 -std=f2008 -c t.F90", "AAPJJJA.."},
        {"gcc -fopenmp -undef -nostdinc -iquote q -idirafter d -P -H -c t.c", "AAPPPPPPPP.."},
    };
    for (size_t c = 0; c < sizeof(use_cases) / sizeof(use_cases[0]); c++) {
        char buf[512];
        char *words[MAX_WORDS];
        int argc = split(use_cases[c].command, buf, sizeof(buf), words);
        weft_compile_plan plan;
        assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
        for (int i = 0; i < argc; i++) {
            static const char letters[] = "APIJM";
            char got = plan.roles[i] == WEFT_COMPILE_ARG_FLAG ? letters[plan.uses[i]] : '.';
            if (got != use_cases[c].uses[i])
                fail_msg("'%s': word %d '%s' is '%c', expected '%c'", use_cases[c].command, i,
                         words[i], got, use_cases[c].uses[i]);
        }
        weft__compile_plan_clear(&plan);
    }
    static const struct {
        const char *command;
        const char *preprocessed; /* per source: y or n */
    } sources[] = {
        {"gfortran -fopenmp -c a.f90 b.F90 c.f d.F e.fpp f.FOR g.f08", "nynyyyn"},
        {"gfortran -fopenmp -cpp -c a.f90 b.f", "yy"},
        {"gfortran -fopenmp -nocpp -c a.F90", "n"},
        {"g++ -fopenmp -c a.cpp b.c", "yy"},
    };
    for (size_t c = 0; c < sizeof(sources) / sizeof(sources[0]); c++) {
        char buf[512];
        char *words[MAX_WORDS];
        int argc = split(sources[c].command, buf, sizeof(buf), words);
        weft_compile_plan plan;
        assert_int_equal(weft__compile_plan_make(argc, words, &plan), WEFT_OK);
        size_t n = 0;
        for (int i = 0; i < argc; i++) {
            if (plan.roles[i] != WEFT_COMPILE_ARG_SOURCE)
                continue;
            char got = weft__compile_preprocesses(&plan, i) ? 'y' : 'n';
            if (got != sources[c].preprocessed[n])
                fail_msg("'%s': source '%s' preprocessed '%c'", sources[c].command, words[i], got);
            n++;
        }
        assert_int_equal(n, strlen(sources[c].preprocessed));
        weft__compile_plan_clear(&plan);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),       cmocka_unit_test(test_details),
        cmocka_unit_test(test_lang_of),     cmocka_unit_test(test_is_object),
        cmocka_unit_test(test_mpi_wrapper), cmocka_unit_test(test_mpi_plan),
        cmocka_unit_test(test_uses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
