/* The assertions of registry_assert.h. */
#include "registry_assert.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

static const char *text(const weft_registry *reg, weft_string s)
{
    return weft_registry_string_text(reg, s);
}

/* A communicator's members, in a buffer of exactly their number. */
static uint32_t *members_of(const weft_registry *reg, uint32_t comm, uint32_t *count)
{
    weft_comm_def def;
    assert_int_equal(weft_registry_comm_get(reg, (weft_comm){comm}, &def), WEFT_OK);
    uint32_t *members = malloc((def.member_count ? def.member_count : 1) * sizeof(*members));
    assert_non_null(members);
    *count = weft_registry_comm_members(reg, (weft_comm){comm}, members, def.member_count);
    assert_int_equal(*count, def.member_count);
    return members;
}

static void assert_same_comms(const weft_registry *a, const weft_registry *b)
{
    assert_int_equal(weft_registry_comm_count(a), weft_registry_comm_count(b));
    for (uint32_t i = 0; i < weft_registry_comm_count(a); i++) {
        weft_comm_def x, y;
        assert_int_equal(weft_registry_comm_get(a, (weft_comm){i}, &x), WEFT_OK);
        assert_int_equal(weft_registry_comm_get(b, (weft_comm){i}, &y), WEFT_OK);
        assert_int_equal(x.name.id, y.name.id);
        assert_int_equal(x.paradigm, y.paradigm);
        assert_int_equal(x.parent.id, y.parent.id);
        assert_true(x.key == y.key);
        uint32_t nx, ny;
        uint32_t *mx = members_of(a, i, &nx), *my = members_of(b, i, &ny);
        assert_int_equal(nx, ny);
        if (nx)
            assert_memory_equal(mx, my, nx * sizeof(uint32_t));
        free(mx);
        free(my);
    }
}

static void assert_same_metrics(const weft_registry *a, const weft_registry *b)
{
    assert_int_equal(weft_registry_metric_member_count(a), weft_registry_metric_member_count(b));
    for (uint32_t i = 0; i < weft_registry_metric_member_count(a); i++) {
        weft_metric_member_def x, y;
        assert_int_equal(weft_registry_metric_member_get(a, i, &x), WEFT_OK);
        assert_int_equal(weft_registry_metric_member_get(b, i, &y), WEFT_OK);
        assert_memory_equal(&x, &y, sizeof(x));
    }
    assert_int_equal(weft_registry_metric_class_count(a), weft_registry_metric_class_count(b));
    for (uint32_t i = 0; i < weft_registry_metric_class_count(a); i++) {
        uint32_t mx[WEFT_METRIC_MAX_MEMBERS], my[WEFT_METRIC_MAX_MEMBERS];
        uint32_t n =
            weft_registry_metric_class_members(a, (weft_metric){i}, mx, WEFT_METRIC_MAX_MEMBERS);
        assert_int_equal(
            weft_registry_metric_class_members(b, (weft_metric){i}, my, WEFT_METRIC_MAX_MEMBERS),
            n);
        assert_memory_equal(mx, my, n * sizeof(uint32_t));
    }
}

void registry_assert_same(const weft_registry *a, const weft_registry *b)
{
    assert_int_equal(weft_registry_string_count(a), weft_registry_string_count(b));
    for (uint32_t i = 0; i < weft_registry_string_count(a); i++)
        assert_string_equal(text(a, (weft_string){i}), text(b, (weft_string){i}));
    assert_int_equal(weft_registry_region_count(a), weft_registry_region_count(b));
    for (uint32_t i = 0; i < weft_registry_region_count(a); i++) {
        weft_region_def x, y;
        assert_int_equal(weft_registry_region_get(a, (weft_region){i}, &x), WEFT_OK);
        assert_int_equal(weft_registry_region_get(b, (weft_region){i}, &y), WEFT_OK);
        assert_memory_equal(&x, &y, sizeof(x));
    }
    assert_same_comms(a, b);
    assert_int_equal(weft_registry_process_count(a), weft_registry_process_count(b));
    for (uint32_t i = 0; i < weft_registry_process_count(a); i++) {
        weft_process_def x, y;
        assert_int_equal(weft_registry_process_get(a, i, &x), WEFT_OK);
        assert_int_equal(weft_registry_process_get(b, i, &y), WEFT_OK);
        assert_memory_equal(&x, &y, sizeof(x));
    }
    assert_int_equal(weft_registry_location_count(a), weft_registry_location_count(b));
    for (uint32_t i = 0; i < weft_registry_location_count(a); i++) {
        weft_location_def x, y;
        assert_int_equal(weft_registry_location_get(a, (weft_location){i}, &x), WEFT_OK);
        assert_int_equal(weft_registry_location_get(b, (weft_location){i}, &y), WEFT_OK);
        assert_memory_equal(&x, &y, sizeof(x));
    }
    assert_int_equal(weft_registry_property_count(a), weft_registry_property_count(b));
    for (uint32_t i = 0; i < weft_registry_property_count(a); i++) {
        weft_location_property x, y;
        assert_int_equal(weft_registry_property_get(a, i, &x), WEFT_OK);
        assert_int_equal(weft_registry_property_get(b, i, &y), WEFT_OK);
        assert_memory_equal(&x, &y, sizeof(x));
    }
    assert_same_metrics(a, b);
}

void registry_assert_maps(const weft_registry *global, const weft_registry *local, uint32_t rank,
                          const weft_id_maps *maps)
{
    assert_int_equal(maps->string_count, weft_registry_string_count(local));
    assert_int_equal(maps->region_count, weft_registry_region_count(local));
    assert_int_equal(maps->comm_count, weft_registry_comm_count(local));
    assert_int_equal(maps->metric_count, weft_registry_metric_class_count(local));
    for (uint32_t i = 0; i < maps->string_count; i++)
        assert_string_equal(text(local, (weft_string){i}),
                            text(global, (weft_string){maps->strings[i]}));
    for (uint32_t i = 0; i < maps->region_count; i++) {
        weft_region_def l, g;
        assert_int_equal(weft_registry_region_get(local, (weft_region){i}, &l), WEFT_OK);
        assert_int_equal(weft_registry_region_get(global, (weft_region){maps->regions[i]}, &g),
                         WEFT_OK);
        assert_string_equal(text(local, l.name), text(global, g.name));
        assert_int_equal(l.begin_line, g.begin_line);
        assert_int_equal(l.role, g.role);
    }
    for (uint32_t i = 0; i < maps->comm_count; i++) {
        weft_comm_def l, g;
        assert_int_equal(weft_registry_comm_get(local, (weft_comm){i}, &l), WEFT_OK);
        assert_int_equal(weft_registry_comm_get(global, (weft_comm){maps->comms[i]}, &g), WEFT_OK);
        assert_int_equal(l.paradigm, g.paradigm);
        assert_true(l.key == g.key);
        assert_string_equal(text(local, l.name), text(global, g.name));
        if (l.paradigm == WEFT_PARADIGM_MPI)
            continue;
        /* A thread team maps to this rank's own team. */
        uint32_t n;
        uint32_t *m = members_of(global, maps->comms[i], &n);
        assert_int_equal(n, l.member_count);
        for (uint32_t t = 0; t < n; t++) {
            weft_location_def loc;
            assert_int_equal(weft_registry_location_get(global, (weft_location){m[t]}, &loc),
                             WEFT_OK);
            assert_int_equal(loc.group, rank);
        }
        free(m);
    }
    for (uint32_t i = 0; i < maps->metric_count; i++) {
        uint32_t lm[WEFT_METRIC_MAX_MEMBERS], gm[WEFT_METRIC_MAX_MEMBERS];
        uint32_t n = weft_registry_metric_class_members(local, (weft_metric){i}, lm,
                                                        WEFT_METRIC_MAX_MEMBERS);
        assert_int_equal(weft_registry_metric_class_members(global, (weft_metric){maps->metrics[i]},
                                                            gm, WEFT_METRIC_MAX_MEMBERS),
                         n);
        for (uint32_t k = 0; k < n; k++) {
            weft_metric_member_def l, g;
            assert_int_equal(weft_registry_metric_member_get(local, lm[k], &l), WEFT_OK);
            assert_int_equal(weft_registry_metric_member_get(global, gm[k], &g), WEFT_OK);
            assert_string_equal(text(local, l.name), text(global, g.name));
        }
    }
    if (rank == 0) { /* merged first: its ids are the global ones */
        assert_true(weft_id_map_is_identity(maps->strings, maps->string_count));
        assert_true(weft_id_map_is_identity(maps->regions, maps->region_count));
        assert_true(weft_id_map_is_identity(maps->comms, maps->comm_count));
    }
}
/* SPDX-License-Identifier: BSD-3-Clause */
