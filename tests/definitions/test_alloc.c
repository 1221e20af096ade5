/* The allocation hooks' failure injection (weft/alloc.h): for all threads,
 * and for the calling thread alone, which the job tests use to make one
 * rank of a job run out of memory. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "weft/alloc.h"

static void test_fail_after(void **state)
{
    (void)state;
    weft_alloc_fail_after(2);
    void *a = weft_alloc(8), *b = weft_calloc(1, 8), *c = weft_realloc(NULL, 8);
    void *d = weft_alloc(8);
    weft_alloc_fail_after(-1);
    assert_non_null(a);
    assert_non_null(b);
    assert_null(c);     /* the third */
    assert_non_null(d); /* one failure only */
    weft_free(a);
    weft_free(b);
    weft_free(d);
    weft_free(NULL);
}

/* Allocates on another thread while this one counts down. */
static void *allocate_elsewhere(void *arg)
{
    (void)arg;
    void *p = weft_alloc(8);
    bool ok = p != NULL;
    weft_free(p);
    return ok ? (void *)1 : NULL;
}

static void test_fail_after_in_thread(void **state)
{
    (void)state;
    assert_int_equal(weft_alloc_fail_after_in_thread(1), -1); /* none was set */
    pthread_t other;
    void *other_ok = NULL;
    assert_int_equal(pthread_create(&other, NULL, allocate_elsewhere, NULL), 0);
    assert_int_equal(pthread_join(other, &other_ok), 0);
    assert_non_null(other_ok); /* another thread's allocation neither counts nor fails */
    char *kept = weft_strdup("kept");
    assert_non_null(kept);
    assert_null(weft_strdup("lost"));
    void *after = weft_alloc(8);
    assert_non_null(after);
    assert_int_equal(weft_alloc_fail_after_in_thread(-1), -1); /* it fired */
    weft_free(kept);
    weft_free(after);

    /* Not reached: what was left is returned, and nothing fails. */
    weft_alloc_fail_after_in_thread(5);
    void *p = weft_alloc(8);
    assert_non_null(p);
    weft_free(p);
    assert_int_equal(weft_alloc_fail_after_in_thread(-1), 4);
    p = weft_alloc(8);
    assert_non_null(p);
    weft_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fail_after),
        cmocka_unit_test(test_fail_after_in_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
