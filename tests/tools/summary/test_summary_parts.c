/* Unit tests of the pieces `weft summary` adds to the region profile: the
 * builder's OpenMP waiting (barrier time, lock wait), the classification of
 * regions into paradigms and waiting kinds (table-driven), and the counter
 * table behind the MPI sections. No OTF2 file is involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <otf2/otf2.h>

#include "summary.h"

enum { WORK, BARRIER, IMPLICIT, CRITICAL, SBLOCK, SET_LOCK, REGION_COUNT };

static weft_summary_builder *make_builder(void)
{
    weft_summary_builder *b = weft__summary_builder_create(REGION_COUNT);
    assert_non_null(b);
    weft__summary_builder_set_wait(b, BARRIER, WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER);
    weft__summary_builder_set_wait(b, IMPLICIT, WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER);
    weft__summary_builder_set_wait(b, CRITICAL, WEFT_SUMMARY_WAIT_LOCK);
    weft__summary_builder_set_wait(b, SET_LOCK, WEFT_SUMMARY_WAIT_LOCK);
    weft__summary_builder_set_wait(b, REGION_COUNT, WEFT_SUMMARY_WAIT_LOCK); /* ignored */
    return b;
}

static void enter(weft_summary_builder *b, size_t region, uint64_t t)
{
    assert_int_equal(weft__summary_enter(b, region, t), WEFT_OK);
}

/* One location: barriers at 10-30 and 40-45, implicit barrier 50-60, a
 * critical entered at 60 and acquired at 67 (the sblock inside), omp_set_lock
 * entered at 70 and acquired at 72, and an acquisition inside WORK alone. */
static void test_waiting(void **state)
{
    (void)state;
    weft_summary_builder *b = make_builder();
    weft__summary_location_begin(b);
    enter(b, WORK, 0);
    enter(b, BARRIER, 10);
    weft__summary_leave(b, BARRIER, 30);
    enter(b, BARRIER, 40);
    weft__summary_leave(b, BARRIER, 45);
    enter(b, IMPLICIT, 50);
    weft__summary_leave(b, IMPLICIT, 60);
    enter(b, CRITICAL, 60);
    weft__summary_lock_acquired(b, 67);
    enter(b, SBLOCK, 67);
    weft__summary_lock_acquired(b, 68); /* not directly inside the critical: no wait */
    weft__summary_leave(b, SBLOCK, 69);
    weft__summary_leave(b, CRITICAL, 69);
    enter(b, SET_LOCK, 70);
    weft__summary_lock_acquired(b, 72);
    weft__summary_leave(b, SET_LOCK, 72);
    weft__summary_lock_acquired(b, 80); /* omp_test_lock, say: counted, no wait */
    weft__summary_leave(b, WORK, 100);
    weft__summary_location_end(b);

    weft_summary_omp o = weft__summary_builder_location_omp(b);
    assert_int_equal(o.explicit_barrier_ticks, 25);
    assert_int_equal(o.explicit_barrier_visits, 2);
    assert_int_equal(o.implicit_barrier_ticks, 10);
    assert_int_equal(o.implicit_barrier_visits, 1);
    assert_int_equal(o.lock_wait_ticks, 7 + 2);
    assert_int_equal(o.lock_acquisitions, 4);

    /* The next location starts from zero; a barrier left open is closed at
     * the location's last timestamp and counted. */
    weft__summary_location_begin(b);
    assert_int_equal(weft__summary_builder_location_omp(b).lock_acquisitions, 0);
    enter(b, BARRIER, 5);
    enter(b, WORK, 8);
    weft__summary_leave(b, WORK, 9);
    weft__summary_location_end(b);
    o = weft__summary_builder_location_omp(b);
    assert_int_equal(o.explicit_barrier_ticks, 4);
    assert_int_equal(o.explicit_barrier_visits, 1);
    assert_int_equal(o.lock_acquisitions, 0);
    weft__summary_builder_destroy(b);
}

typedef struct classify_case {
    uint8_t paradigm, role;
    const char *name, *file;
    weft_summary_class want;
    weft_summary_wait wait;
} classify_case;

/* clang-format off */
static const classify_case classify_cases[] = {
    {OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION, "solve", "a.c",
     WEFT_SUMMARY_CLASS_USER, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_COMPILER, OTF2_REGION_ROLE_FUNCTION, "f", NULL,
     WEFT_SUMMARY_CLASS_USER, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_UNKNOWN, OTF2_REGION_ROLE_UNKNOWN, NULL, NULL,
     WEFT_SUMMARY_CLASS_USER, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_BARRIER, "MPI_Barrier", "MPI",
     WEFT_SUMMARY_CLASS_MPI, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_UNKNOWN, OTF2_REGION_ROLE_UNKNOWN, "MPI_Send", "MPI",
     WEFT_SUMMARY_CLASS_MPI, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_BARRIER, "!$omp barrier @a.c:3", "a.c",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_IMPLICIT_BARRIER, "!$omp implicit barrier @a.c:9",
     "a.c", WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_CRITICAL, "!$omp critical @a.c:5", "a.c",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_LOCK},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_CRITICAL_SBLOCK, "!$omp critical sblock @a.c:5",
     "a.c", WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_WRAPPER, "omp_set_lock", "OMP",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_LOCK},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_WRAPPER, "omp_set_nest_lock", "OMP",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_LOCK},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_WRAPPER, "omp_test_lock", "OMP",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_NONE},
    /* Scalasca's rules for traces without paradigms: by name and file. */
    {OTF2_PARADIGM_UNKNOWN, OTF2_REGION_ROLE_UNKNOWN, "!$omp ibarrier @b.f:7", "b.f",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER},
    {OTF2_PARADIGM_UNKNOWN, OTF2_REGION_ROLE_UNKNOWN, "!$omp barrier @b.f:8", "b.f",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER},
    {OTF2_PARADIGM_UNKNOWN, OTF2_REGION_ROLE_UNKNOWN, "!$omp critical @b.f:9", "b.f",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_LOCK},
    {OTF2_PARADIGM_UNKNOWN, OTF2_REGION_ROLE_UNKNOWN, "omp_get_thread_num", "OMP",
     WEFT_SUMMARY_CLASS_OPENMP, WEFT_SUMMARY_WAIT_NONE},
    /* A barrier role outside OpenMP is not OpenMP waiting. */
    {OTF2_PARADIGM_USER, OTF2_REGION_ROLE_BARRIER, "my_barrier", NULL,
     WEFT_SUMMARY_CLASS_USER, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_MEASUREMENT_SYSTEM, OTF2_REGION_ROLE_ARTIFICIAL, "weft clock synchronisation",
     NULL, WEFT_SUMMARY_CLASS_MEASUREMENT, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_USER, OTF2_REGION_ROLE_ARTIFICIAL, "MEASUREMENT OFF", NULL,
     WEFT_SUMMARY_CLASS_MEASUREMENT, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_UNKNOWN, OTF2_REGION_ROLE_FUNCTION, "TRACE BUFFER FLUSH", "EPIK",
     WEFT_SUMMARY_CLASS_MEASUREMENT, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_PTHREAD, OTF2_REGION_ROLE_FUNCTION, "pthread_create", "PTHREAD",
     WEFT_SUMMARY_CLASS_OTHER, WEFT_SUMMARY_WAIT_NONE},
    {OTF2_PARADIGM_CUDA, OTF2_REGION_ROLE_FUNCTION, "cudaMemcpy", NULL,
     WEFT_SUMMARY_CLASS_OTHER, WEFT_SUMMARY_WAIT_NONE},
};
/* clang-format on */

static void test_classify(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(classify_cases) / sizeof(classify_cases[0]); i++) {
        const classify_case *c = &classify_cases[i];
        print_message("case %zu: %s\n", i, c->name ? c->name : "(no name)");
        weft_summary_kind kind = weft__summary_classify(c->paradigm, c->role, c->name, c->file);
        assert_int_equal(kind.paradigm, c->want);
        assert_int_equal(kind.wait, c->wait);
    }
    assert_string_equal(weft__summary_class_name(WEFT_SUMMARY_CLASS_MEASUREMENT), "measurement");
    assert_string_equal(weft__summary_collective_name(OTF2_COLLECTIVE_OP_ALLREDUCE), "allreduce");
    assert_null(weft__summary_collective_name(200));
}

/* Many keys: the index grows several times and every row keeps its counts. */
static void test_table(void **state)
{
    (void)state;
    enum { KEYS = 5000 };
    weft_summary_table *t = weft__summary_table_create();
    assert_non_null(t);
    for (int round = 0; round < 3; round++) {
        for (uint64_t k = 0; k < KEYS; k++) {
            uint64_t key = k << 32 | (k * 7 % 13); /* rank-pair-like keys */
            uint64_t *c = weft__summary_table_counters(t, key);
            assert_non_null(c);
            c[0]++;
            c[3] += k;
        }
    }
    assert_int_equal(weft__summary_table_size(t), KEYS);
    for (size_t i = 0; i < KEYS; i++) {
        const uint64_t *c;
        uint64_t key = weft__summary_table_key(t, i, &c);
        assert_int_equal(key, (uint64_t)i << 32 | (i * 7 % 13)); /* order of first use */
        assert_int_equal(c[0], 3);
        assert_int_equal(c[1], 0);
        assert_int_equal(c[3], 3 * i);
    }
    weft__summary_table_destroy(t);
    weft__summary_table_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waiting),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
