/* The definition registry: de-duplication of strings and regions, typed
 * handles, locations and properties, communicators, processes and location
 * groups, concurrent registration, an out-of-memory sweep that fails
 * every allocation in turn, the change count and forgetting a fork()ed
 * parent's locations. */
#include <pthread.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "weft/alloc.h"
#include "weft/definitions.h"

static weft_region_desc region_desc(const char *name, const char *file, uint32_t line)
{
    return (weft_region_desc){.name = name,
                              .file = file,
                              .begin_line = line,
                              .end_line = line + 10,
                              .role = WEFT_REGION_ROLE_FUNCTION,
                              .paradigm = WEFT_PARADIGM_USER};
}

static void test_strings(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_string a, b, c;
    assert_int_equal(weft_registry_string(reg, "alpha", &a), WEFT_OK);
    assert_int_equal(weft_registry_string(reg, "beta", &b), WEFT_OK);
    char copy[] = "alpha";
    assert_int_equal(weft_registry_string(reg, copy, &c), WEFT_OK);
    copy[0] = 'X'; /* the registry copied the text */
    assert_int_equal(a.id, c.id);
    assert_int_not_equal(a.id, b.id);
    assert_int_equal(weft_registry_string_count(reg), 2);
    assert_string_equal(weft_registry_string_text(reg, a), "alpha");
    assert_null(weft_registry_string_text(reg, (weft_string){99}));
    assert_int_equal(weft_registry_string(reg, NULL, &a), WEFT_ERR_INVALID);
    assert_int_equal(a.id, WEFT_INVALID_ID);
    weft_registry_destroy(reg);
    weft_registry_destroy(NULL);
}

static void test_regions(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_region_desc d = region_desc("solve", "solver.c", 12);
    weft_region r1, r2, r3, r4;
    assert_int_equal(weft_registry_region(reg, &d, &r1), WEFT_OK);
    assert_int_equal(weft_registry_region(reg, &d, &r2), WEFT_OK);
    assert_int_equal(r1.id, r2.id);
    d.begin_line = 13; /* any differing field is another region */
    assert_int_equal(weft_registry_region(reg, &d, &r3), WEFT_OK);
    assert_int_not_equal(r1.id, r3.id);
    d = region_desc("solve", NULL, 12);
    assert_int_equal(weft_registry_region(reg, &d, &r4), WEFT_OK);
    assert_int_not_equal(r1.id, r4.id);
    assert_int_equal(weft_registry_region_count(reg), 3);

    weft_region_def def;
    assert_int_equal(weft_registry_region_get(reg, r1, &def), WEFT_OK);
    assert_string_equal(weft_registry_string_text(reg, def.name), "solve");
    assert_int_equal(def.canonical_name.id, def.name.id);
    assert_string_equal(weft_registry_string_text(reg, def.file), "solver.c");
    assert_int_equal(def.begin_line, 12);
    assert_int_equal(def.end_line, 22);
    assert_int_equal(weft_registry_region_get(reg, r4, &def), WEFT_OK);
    assert_int_equal(def.file.id, WEFT_INVALID_ID);
    assert_int_equal(weft_registry_region_get(reg, (weft_region){7}, &def), WEFT_ERR_NOT_FOUND);

    d.role = WEFT_REGION_ROLE_COUNT;
    assert_int_equal(weft_registry_region(reg, &d, &r1), WEFT_ERR_INVALID);
    assert_int_equal(r1.id, WEFT_INVALID_ID);
    weft_registry_destroy(reg);
}

static void test_locations_and_properties(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_location l0, l1;
    assert_int_equal(weft_registry_location(reg, "Master thread", 0, &l0), WEFT_OK);
    assert_int_equal(weft_registry_location(reg, "Thread 1", 1, &l1), WEFT_OK);
    weft_registry_location_set_events(reg, l1, 42);
    assert_int_equal(weft_registry_location_property(reg, l1, "weft::x", 7), WEFT_OK);
    assert_int_equal(weft_registry_location_property(reg, (weft_location){5}, "y", 1),
                     WEFT_ERR_NOT_FOUND);
    weft_location_def def;
    assert_int_equal(weft_registry_location_get(reg, l1, &def), WEFT_OK);
    assert_int_equal(def.thread_number, 1);
    assert_int_equal(def.event_count, 42);
    assert_int_equal(weft_location_otf2_id(&def), UINT64_C(1) << 32);
    weft_location_property prop;
    assert_int_equal(weft_registry_property_count(reg), 1);
    assert_int_equal(weft_registry_property_get(reg, 0, &prop), WEFT_OK);
    assert_int_equal(prop.location.id, l1.id);
    assert_int_equal(prop.value, 7);
    weft_registry_destroy(reg);
}

/* Many threads register overlapping names: every name gets exactly one
 * handle, whatever the interleaving. */
#define THREADS 4
#define NAMES 2000
static weft_registry *shared;
static uint32_t handles[THREADS][NAMES];

static void *register_names(void *arg)
{
    long t = (long)arg;
    char name[32];
    for (int i = 0; i < NAMES; i++) {
        int n = (i * 7 + (int)t * 13) % NAMES;
        snprintf(name, sizeof(name), "region-%d", n);
        weft_region_desc d = region_desc(name, "f.c", 1);
        weft_region r;
        if (weft_registry_region(shared, &d, &r) == WEFT_OK)
            handles[t][n] = r.id;
    }
    return NULL;
}

static void test_concurrent_registration(void **state)
{
    (void)state;
    shared = weft_registry_create();
    pthread_t threads[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, register_names, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    assert_int_equal(weft_registry_region_count(shared), NAMES);
    for (int n = 0; n < NAMES; n++)
        for (int t = 1; t < THREADS; t++)
            assert_int_equal(handles[t][n], handles[0][n]);
    weft_registry_destroy(shared);
}

/* Thread teams: one per (paradigm, parent, key), members by position. */
static void test_comms(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_comm outer, again, inner0, inner1;
    weft_comm_desc d = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 4};
    assert_int_equal(weft_registry_comm(reg, &d, &outer), WEFT_OK);
    assert_int_equal(weft_registry_comm(reg, &d, &again), WEFT_OK);
    assert_int_equal(outer.id, again.id);
    d.parent = outer;
    d.key = 2;
    assert_int_equal(weft_registry_comm(reg, &d, &inner0), WEFT_OK);
    d.key = (uint64_t)1 << 32 | 2; /* forked by thread 1 of the outer team */
    assert_int_equal(weft_registry_comm(reg, &d, &inner1), WEFT_OK);
    assert_int_not_equal(inner0.id, inner1.id);
    d.parent = (weft_comm){77};
    weft_comm bad;
    assert_int_equal(weft_registry_comm(reg, &d, &bad), WEFT_ERR_NOT_FOUND);
    assert_int_equal(bad.id, WEFT_INVALID_ID);
    assert_int_equal(weft_registry_comm_count(reg), 3);

    assert_int_equal(weft_registry_comm_set_member(reg, outer, 2, 40), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(reg, outer, 0, 10), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(reg, outer, 0, 11), WEFT_OK);
    uint32_t members[4];
    assert_int_equal(weft_registry_comm_members(reg, outer, members, 4), 3);
    assert_int_equal(members[0], 11);
    assert_int_equal(members[1], WEFT_INVALID_ID);
    assert_int_equal(members[2], 40);
    assert_int_equal(weft_registry_comm_members(reg, inner0, members, 4), 0);

    weft_comm_def def;
    assert_int_equal(weft_registry_comm_get(reg, inner1, &def), WEFT_OK);
    assert_int_equal(def.parent.id, outer.id);
    assert_string_equal(weft_registry_string_text(reg, def.name), "Thread team 2");
    weft_registry_destroy(reg);
}

/* Processes: one per rank, in registration order; a rank keeps its first
 * host. */
static void test_processes(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    assert_int_equal(weft_registry_process_count(reg), 0);
    weft_string host1, host2, again;
    assert_int_equal(weft_registry_process(reg, 3, "node-a", &host1), WEFT_OK);
    assert_int_equal(weft_registry_process(reg, 1, "node-b", &host2), WEFT_OK);
    assert_int_equal(weft_registry_process(reg, 0, "node-a", NULL), WEFT_OK);
    assert_int_equal(weft_registry_process(reg, 3, "node-a", &again), WEFT_OK);
    assert_int_equal(again.id, host1.id);
    assert_int_equal(weft_registry_process(reg, 3, "node-c", &again), WEFT_ERR_EXISTS);
    assert_int_equal(again.id, host1.id);
    assert_int_equal(weft_registry_process_count(reg), 3);

    weft_process_def def;
    assert_int_equal(weft_registry_process_get(reg, 0, &def), WEFT_OK);
    assert_int_equal(def.rank, 3);
    assert_string_equal(weft_registry_string_text(reg, def.host), "node-a");
    assert_int_equal(weft_registry_process_get(reg, 1, &def), WEFT_OK);
    assert_int_equal(def.rank, 1);
    assert_int_equal(def.host.id, host2.id);
    assert_int_equal(weft_registry_process_get(reg, 2, &def), WEFT_OK);
    assert_int_equal(def.rank, 0);
    assert_int_equal(def.host.id, host1.id);
    assert_int_equal(weft_registry_process_get(reg, 3, &def), WEFT_ERR_NOT_FOUND);
    assert_int_equal(weft_registry_process(reg, 4, NULL, &again), WEFT_ERR_INVALID);
    assert_int_equal(again.id, WEFT_INVALID_ID);
    weft_registry_destroy(reg);
}

/* The location group applies to the locations before and after it is set
 * (locations may be registered before MPI_Init tells the rank). */
static void test_set_location_group(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_location l0, l1, l2;
    assert_int_equal(weft_registry_location(reg, "Master thread", 0, &l0), WEFT_OK);
    assert_int_equal(weft_registry_location(reg, "Thread 1", 1, &l1), WEFT_OK);
    weft_location_def def;
    assert_int_equal(weft_registry_location_get(reg, l1, &def), WEFT_OK);
    assert_int_equal(def.group, 0);
    weft_registry_set_location_group(reg, 5);
    assert_int_equal(weft_registry_location(reg, "Thread 2", 2, &l2), WEFT_OK);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(weft_registry_location_get(reg, (weft_location){i}, &def), WEFT_OK);
        assert_int_equal(def.group, 5);
        assert_int_equal(def.thread_number, i);
    }
    assert_int_equal(weft_location_otf2_id(&def), (UINT64_C(2) << 32) | 5);
    weft_registry_set_location_group(NULL, 1);
    weft_registry_destroy(reg);
}

/* MPI communicators and thread teams side by side: each kind is one per
 * (paradigm, parent, key) locally; equal keys of different paradigms are
 * different communicators. */
static void test_mpi_and_team_comms(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_comm world, self, team, world_again;
    weft_comm_desc d = {.name = "MPI_COMM_WORLD",
                        .paradigm = WEFT_PARADIGM_MPI,
                        .parent = WEFT_COMM_INVALID,
                        .key = WEFT_COMM_KEY_MPI_WORLD};
    assert_int_equal(weft_registry_comm(reg, &d, &world), WEFT_OK);
    d.name = "MPI_COMM_SELF";
    d.key = WEFT_COMM_KEY_MPI_SELF;
    assert_int_equal(weft_registry_comm(reg, &d, &self), WEFT_OK);
    d = (weft_comm_desc){.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 0};
    assert_int_equal(weft_registry_comm(reg, &d, &team), WEFT_OK);
    d = (weft_comm_desc){.name = "other name",
                         .paradigm = WEFT_PARADIGM_MPI,
                         .parent = WEFT_COMM_INVALID,
                         .key = WEFT_COMM_KEY_MPI_WORLD};
    assert_int_equal(weft_registry_comm(reg, &d, &world_again), WEFT_OK);
    assert_int_equal(world.id, 0);
    assert_int_equal(world_again.id, world.id);
    assert_int_not_equal(team.id, world.id);
    assert_int_equal(weft_registry_comm_count(reg), 3);
    weft_comm_def def;
    assert_int_equal(weft_registry_comm_get(reg, world, &def), WEFT_OK);
    assert_string_equal(weft_registry_string_text(reg, def.name), "MPI_COMM_WORLD");
    assert_int_equal(weft_registry_comm_get(reg, team, &def), WEFT_OK);
    assert_string_equal(weft_registry_string_text(reg, def.name), "Thread team 2");
    assert_int_equal(def.paradigm, WEFT_PARADIGM_OPENMP);
    weft_registry_destroy(reg);
}

/* The generation grows with every definition added (the recorder's journal
 * rewrites itself when it did), not with lookups of existing ones nor with
 * location properties. */
static void test_generation(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    uint64_t g0 = weft_registry_generation(reg);
    weft_string s;
    assert_int_equal(weft_registry_string(reg, "a", &s), WEFT_OK);
    uint64_t g1 = weft_registry_generation(reg);
    assert_true(g1 > g0);
    assert_int_equal(weft_registry_string(reg, "a", &s), WEFT_OK);
    assert_int_equal(weft_registry_generation(reg), g1);
    weft_region_desc d = region_desc("f", "f.c", 1);
    weft_region r;
    assert_int_equal(weft_registry_region(reg, &d, &r), WEFT_OK);
    uint64_t g2 = weft_registry_generation(reg);
    assert_true(g2 > g1);
    assert_int_equal(weft_registry_region(reg, &d, &r), WEFT_OK);
    assert_int_equal(weft_registry_generation(reg), g2);
    weft_comm team;
    weft_comm_desc c = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 1};
    assert_int_equal(weft_registry_comm(reg, &c, &team), WEFT_OK);
    uint64_t g3 = weft_registry_generation(reg);
    assert_int_equal(weft_registry_comm_set_member(reg, team, 0, 5), WEFT_OK);
    uint64_t g4 = weft_registry_generation(reg);
    assert_true(g4 > g3);
    assert_int_equal(weft_registry_comm_set_member(reg, team, 0, 5), WEFT_OK); /* the same */
    assert_int_equal(weft_registry_generation(reg), g4);
    /* I/O files and handles, RMA windows: a second handle of the same file
     * adds no string, but is a definition of its own. */
    weft_object file, handle, again;
    weft_object_desc o = {.kind = WEFT_OBJECT_IO_FILE,
                          .name = "data",
                          .file = WEFT_OBJECT_INVALID,
                          .comm = WEFT_COMM_INVALID};
    assert_int_equal(weft_registry_object(reg, &o, &file), WEFT_OK);
    o = (weft_object_desc){.kind = WEFT_OBJECT_IO_HANDLE,
                           .name = "data",
                           .key = 1,
                           .file = file,
                           .comm = WEFT_COMM_INVALID};
    uint64_t g5 = weft_registry_generation(reg);
    assert_int_equal(weft_registry_object(reg, &o, &handle), WEFT_OK);
    uint64_t g6 = weft_registry_generation(reg);
    assert_true(g6 > g5);
    assert_int_equal(weft_registry_object(reg, &o, &again), WEFT_OK); /* the same one */
    assert_int_equal(again.id, handle.id);
    assert_int_equal(weft_registry_generation(reg), g6);
    /* A location property is no definition events need: once its name is
     * known, it does not count (the end adds several to every location). */
    weft_location loc;
    assert_int_equal(weft_registry_location(reg, NULL, 0, &loc), WEFT_OK);
    assert_int_equal(weft_registry_location_property(reg, loc, "p", 1), WEFT_OK);
    uint64_t g7 = weft_registry_generation(reg);
    assert_int_equal(weft_registry_location_property(reg, loc, "p", 2), WEFT_OK);
    assert_int_equal(weft_registry_generation(reg), g7);
    weft_registry_destroy(reg);
}

/* A fork()ed child's registry: the parent's locations, their properties and
 * team members go; strings, regions and MPI communicators stay. */
static void test_forget_locations(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_location loc;
    assert_int_equal(weft_registry_location(reg, NULL, 0, &loc), WEFT_OK);
    assert_int_equal(weft_registry_location_property(reg, loc, "p", 1), WEFT_OK);
    weft_comm team, world;
    weft_comm_desc c = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 1};
    assert_int_equal(weft_registry_comm(reg, &c, &team), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(reg, team, 0, loc.id), WEFT_OK);
    c = (weft_comm_desc){.name = "MPI_COMM_WORLD",
                         .paradigm = WEFT_PARADIGM_MPI,
                         .parent = WEFT_COMM_INVALID,
                         .key = WEFT_COMM_KEY_MPI_WORLD};
    assert_int_equal(weft_registry_comm(reg, &c, &world), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(reg, world, 0, 0), WEFT_OK);
    weft_registry_fork_lock(reg);
    weft_registry_fork_unlock(reg);
    weft_registry_forget_locations(reg);
    assert_int_equal(weft_registry_location_count(reg), 0);
    assert_int_equal(weft_registry_property_count(reg), 0);
    assert_int_equal(weft_registry_comm_members(reg, team, NULL, 0), 0);
    assert_int_equal(weft_registry_comm_members(reg, world, NULL, 0), 1);
    assert_int_equal(weft_registry_comm_count(reg), 2);
    assert_int_equal(weft_registry_location(reg, NULL, 0, &loc), WEFT_OK);
    assert_int_equal(loc.id, 0);
    weft_registry_destroy(reg);
}

/* Fails allocation k for k = 0, 1, ... until a full run succeeds: every
 * failure is reported as a status, never a crash or a leak (valgrind and
 * ASan runs check the latter). */
static void test_out_of_memory_sweep(void **state)
{
    (void)state;
    for (long fail_at = 0;; fail_at++) {
        weft_alloc_fail_after(fail_at);
        weft_registry *reg = weft_registry_create();
        bool ok = reg != NULL;
        for (int i = 0; ok && i < 100; i++) {
            char name[32];
            snprintf(name, sizeof(name), "r%d", i);
            weft_region_desc d = region_desc(name, "file.c", (uint32_t)i);
            weft_region r;
            weft_location l;
            weft_comm_desc cd = {.paradigm = WEFT_PARADIGM_OPENMP,
                                 .parent = WEFT_COMM_INVALID,
                                 .key = (uint64_t)i};
            weft_comm c;
            ok = weft_registry_process(reg, (uint32_t)i % 7, "host", NULL) == WEFT_OK &&
                 weft_registry_region(reg, &d, &r) == WEFT_OK &&
                 weft_registry_location(reg, name, (uint32_t)i, &l) == WEFT_OK &&
                 weft_registry_location_property(reg, l, "p", 1) == WEFT_OK &&
                 weft_registry_comm(reg, &cd, &c) == WEFT_OK &&
                 weft_registry_comm_set_member(reg, c, (uint32_t)i % 5, l.id) == WEFT_OK;
        }
        weft_alloc_fail_after(-1);
        weft_registry_destroy(reg);
        if (ok)
            break;
        assert_true(fail_at < 10000);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_locations_and_properties),
        cmocka_unit_test(test_concurrent_registration),
        cmocka_unit_test(test_comms),
        cmocka_unit_test(test_processes),
        cmocka_unit_test(test_set_location_group),
        cmocka_unit_test(test_mpi_and_team_comms),
        cmocka_unit_test(test_out_of_memory_sweep),
        cmocka_unit_test(test_generation),
        cmocka_unit_test(test_forget_locations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
