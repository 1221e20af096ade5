/* The filter-file parser and matcher (weft/filter.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "weft/filter.h"
#include "weft/openmp.h"

static weft_filter *parse_ok(const char *text)
{
    weft_filter *f = NULL;
    char err[256];
    weft_status st = weft_filter_parse(text, strlen(text), &f, err, sizeof(err));
    if (st != WEFT_OK)
        fail_msg("'%s' does not parse: %s", text, err);
    return f;
}

static void test_rules_in_order(void **state)
{
    (void)state;
    weft_filter *f = parse_ok("SCOREP_REGION_NAMES_BEGIN\n"
                              "  EXCLUDE *\n"
                              "  INCLUDE solve* main\n"
                              "  EXCLUDE solve_debug\n"
                              "  EXCLUDE MANGLED _Z3fooi\n"
                              "SCOREP_REGION_NAMES_END\n");
    assert_int_equal(weft_filter_rule_count(f), 5);
    assert_true(weft_filter_excludes(f, "helper", "a.c"));
    assert_false(weft_filter_excludes(f, "solve", "a.c"));
    assert_false(weft_filter_excludes(f, "solve_fast", NULL));
    assert_true(weft_filter_excludes(f, "solve_debug", "a.c")); /* the last match decides */
    assert_false(weft_filter_excludes(f, "main", "a.c"));
    assert_true(weft_filter_excludes(f, "_Z3fooi", "a.c"));
    weft_filter_free(f);
}

static void test_files_then_names(void **state)
{
    (void)state;
    weft_filter *f = parse_ok("# comment line\n"
                              "WEFT_FILE_NAMES_BEGIN # a comment after a marker\n"
                              "  EXCLUDE */tests/*\n"
                              "          *.f90\n"
                              "  INCLUDE */tests/keep.c\n"
                              "WEFT_FILE_NAMES_END\n"
                              "WEFT_REGION_NAMES_BEGIN\n"
                              "  EXCLUDE tmp?\n"
                              "WEFT_REGION_NAMES_END\n");
    assert_true(weft_filter_excludes(f, "main", "/src/tests/x.c"));
    assert_true(weft_filter_excludes(f, "main", "solver.f90"));
    assert_false(weft_filter_excludes(f, "main", "/src/tests/keep.c"));
    assert_false(weft_filter_excludes(f, "main", "/src/app.c"));
    assert_true(weft_filter_excludes(f, "tmp1", "/src/app.c"));
    assert_false(weft_filter_excludes(f, "tmp12", "/src/app.c"));
    assert_false(weft_filter_excludes(f, "main", NULL));
    assert_false(weft_filter_excludes(NULL, "anything", "x.c"));
    weft_filter_free(f);
    f = parse_ok(""); /* an empty file: no rules, nothing excluded */
    assert_int_equal(weft_filter_rule_count(f), 0);
    assert_false(weft_filter_excludes(f, "x", "y.c"));
    weft_filter_free(f);
}

static void test_malformed(void **state)
{
    (void)state;
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"EXCLUDE foo\n", "line 1: outside a REGION_NAMES or FILE_NAMES block: 'EXCLUDE'"},
        {"SCOREP_REGION_NAMES_BEGIN\n  foo\nSCOREP_REGION_NAMES_END\n",
         "line 2: a pattern before INCLUDE or EXCLUDE: 'foo'"},
        {"SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo\n",
         "line 3: REGION_NAMES block not ended at the end of the file"},
        {"\nSCOREP_FILE_NAMES_END\n", "line 2: no matching BEGIN for 'SCOREP_FILE_NAMES_END'"},
        {"SCOREP_REGION_NAMES_BEGIN\nSCOREP_FILE_NAMES_BEGIN\n",
         "line 2: a block begins inside another: 'SCOREP_FILE_NAMES_BEGIN'"},
        {"SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE\n  INCLUDE x\nSCOREP_REGION_NAMES_END\n",
         "line 3: EXCLUDE without a pattern"},
        {"SCOREP_REGION_NAMES_BEGIN\n  INCLUDE\nSCOREP_REGION_NAMES_END\n",
         "line 3: INCLUDE without a pattern"},
        {"SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE a\0b\n", "line 2: a NUL byte (not a text file?)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        weft_filter *f = (weft_filter *)&f;
        char err[256] = "";
        size_t len = strlen(cases[i].text);
        if (i == sizeof(cases) / sizeof(cases[0]) - 1)
            len = sizeof("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE a\0b\n") - 1;
        assert_int_equal(weft_filter_parse(cases[i].text, len, &f, err, sizeof(err)),
                         WEFT_ERR_INVALID);
        assert_null(f);
        assert_string_equal(err, cases[i].error);
    }
}

/* OpenMP regions: only rules whose pattern starts with "!$omp" apply to
 * them, the last matching one deciding; "EXCLUDE *" or a file rule leaves
 * them alone (issue 19). */
static void test_openmp_rules(void **state)
{
    (void)state;
    weft_filter *f = parse_ok("SCOREP_REGION_NAMES_BEGIN\n"
                              "  EXCLUDE * *omp*\n"
                              "  EXCLUDE !$omp?flush* !$omp?atomic?@lu.c:*\n"
                              "  INCLUDE !$omp?flush?@keep.c:*\n"
                              "SCOREP_REGION_NAMES_END\n"
                              "SCOREP_FILE_NAMES_BEGIN\n  EXCLUDE *\nSCOREP_FILE_NAMES_END\n");
    assert_true(weft_filter_excludes_openmp(f, "!$omp flush @syncs.c:48"));
    assert_false(weft_filter_excludes_openmp(f, "!$omp flush @keep.c:3"));
    assert_true(weft_filter_excludes_openmp(f, "!$omp atomic @lu.c:12"));
    assert_false(weft_filter_excludes_openmp(f, "!$omp atomic @other.c:12"));
    assert_false(weft_filter_excludes_openmp(f, "!$omp for @lu.c:12"));
    assert_false(weft_filter_excludes_openmp(NULL, "!$omp flush @syncs.c:48"));
    weft_filter_free(f);
    f = parse_ok("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\nSCOREP_REGION_NAMES_END\n");
    assert_false(weft_filter_excludes_openmp(f, "!$omp flush @syncs.c:48"));
    weft_filter_free(f);
}

/* WEFT_OPENMP_EVENTS: words in order, '-' leaves out, a list starting with
 * '-' starts from all, any other from none; parallel regions always. */
static void test_openmp_groups(void **state)
{
    (void)state;
    const uint32_t all = WEFT_OMP_GROUPS_ALL;
    const uint32_t always = 1u << WEFT_OMP_GROUP_ALWAYS;
#define G(name) (1u << WEFT_OMP_GROUP_##name)
    static const struct {
        const char *text;
        uint32_t mask;
    } cases[] = {
        {NULL, WEFT_OMP_GROUPS_ALL},
        {"", WEFT_OMP_GROUPS_ALL},
        {"all", WEFT_OMP_GROUPS_ALL},
        {"-flush,-atomic", WEFT_OMP_GROUPS_ALL & ~(G(FLUSH) | G(ATOMIC))},
        {"all -locks", WEFT_OMP_GROUPS_ALL & ~G(LOCKS)},
        {"loops,barrier", G(ALWAYS) | G(LOOPS) | G(BARRIER)},
        {"none", G(ALWAYS)},
        {"none,tasks", G(ALWAYS) | G(TASKS)},
        {"-sync", WEFT_OMP_GROUPS_ALL & ~(G(ATOMIC) | G(CRITICAL) | G(MASTER) | G(FLUSH) |
                                          G(SINGLE) | G(ORDERED) | G(LOCKS))},
        {"-task,-lock", WEFT_OMP_GROUPS_ALL & ~(G(TASKS) | G(LOCKS))},
        {"-parallel", WEFT_OMP_GROUPS_ALL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t mask = 0;
        char bad[32];
        assert_int_equal(weft_omp_groups_parse(cases[i].text, &mask, bad, sizeof(bad)), WEFT_OK);
        if (mask != cases[i].mask)
            fail_msg("'%s': mask 0x%x, expected 0x%x", cases[i].text, mask, cases[i].mask);
    }
    uint32_t mask = 0;
    char bad[32];
    assert_int_equal(weft_omp_groups_parse("-flush,-flsh", &mask, bad, sizeof(bad)),
                     WEFT_ERR_INVALID);
    assert_string_equal(bad, "-flsh");
    assert_int_equal(mask, all & ~G(FLUSH));
    assert_true(mask & always);
#undef G
    /* what may be left out one region at a time */
    assert_false(weft_omp_region_optional(WEFT_OMP_PARALLEL));
    assert_false(weft_omp_region_optional(WEFT_OMP_UNTIED_TASK));
    assert_false(weft_omp_region_optional(WEFT_OMP_TASK_CREATE));
    assert_true(weft_omp_region_optional(WEFT_OMP_FLUSH));
    assert_true(weft_omp_region_optional(WEFT_OMP_IMPLICIT_BARRIER));
    assert_true(weft_omp_region_optional(WEFT_OMP_LOCK_ROUTINE));
    assert_string_equal(weft_omp_group_name(weft_omp_region_group(WEFT_OMP_CRITICAL_SBLOCK)),
                        "critical");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_in_order), cmocka_unit_test(test_files_then_names),
        cmocka_unit_test(test_malformed),      cmocka_unit_test(test_openmp_rules),
        cmocka_unit_test(test_openmp_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
