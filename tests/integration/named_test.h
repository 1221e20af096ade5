/* Running one test of a cmocka group by name, as each CTest case does
 * (`test_faults test_sigterm`). cmocka's own filter runs nothing, and
 * passes, when the name matches no test: a misspelt case in CMakeLists.txt,
 * or a binary left over from a build that failed, would then pass without
 * testing anything. Here a name without wildcards must be a test's. */
#ifndef WEFT_TESTS_NAMED_TEST_H
#define WEFT_TESTS_NAMED_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* Runs the test of `tests` called `name`, or all of them when name is
 * NULL; 1, with a line on stderr, when no test has that name. */
#define run_named_test(tests, name)                                                                \
    run_named_test_of(#tests, tests, sizeof(tests) / sizeof((tests)[0]), name)

static inline int run_named_test_of(const char *group, const struct CMUnitTest *tests, size_t count,
                                    const char *name)
{
    if (name) {
        int found = strpbrk(name, "*?") != NULL;
        for (size_t i = 0; i < count && !found; i++)
            found = strcmp(tests[i].name, name) == 0;
        if (!found) {
            fprintf(stderr, "no test named '%s' in this program\n", name);
            return 1;
        }
        cmocka_set_test_filter(name);
    }
    return _cmocka_run_group_tests(group, tests, count, NULL, NULL);
}

#endif /* WEFT_TESTS_NAMED_TEST_H */
/* SPDX-License-Identifier: BSD-3-Clause */
