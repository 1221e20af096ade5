/* Packing and merging definition registries (weft/unify.h): round trips,
 * de-duplication across ranks, scoped thread teams, corrupt buffers (every
 * truncation, every byte changed), the job's unification simulated with four
 * ranks in one process exactly as recorder/job_unify.c runs it, identity
 * maps, and an out-of-memory sweep. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rank_registry.h"
#include "registry_assert.h"
#include "weft/alloc.h"
#include "weft/definitions.h"
#include "weft/unify.h"

typedef struct counts {
    uint32_t strings, regions, comms, processes, locations, properties;
} counts;

static counts count_of(const weft_registry *reg)
{
    return (counts){weft_registry_string_count(reg),   weft_registry_region_count(reg),
                    weft_registry_comm_count(reg),     weft_registry_process_count(reg),
                    weft_registry_location_count(reg), weft_registry_property_count(reg)};
}

static void assert_counts(const weft_registry *reg, counts want)
{
    counts have = count_of(reg);
    assert_int_equal(have.strings, want.strings);
    assert_int_equal(have.regions, want.regions);
    assert_int_equal(have.comms, want.comms);
    assert_int_equal(have.processes, want.processes);
    assert_int_equal(have.locations, want.locations);
    assert_int_equal(have.properties, want.properties);
}

static void pack(const weft_registry *reg, uint32_t rank, unsigned flags, void **buf, uint64_t *len)
{
    assert_int_equal(weft_registry_pack(reg, rank, flags, buf, len), WEFT_OK);
    assert_non_null(*buf);
    assert_true(*len > 0);
}

/* Packs reg and merges it into `into`, as job_unify.c's merge_registry. */
static void merge_packed(weft_registry *into, const weft_registry *reg, uint32_t rank,
                         unsigned flags, weft_id_maps *maps)
{
    void *buf;
    uint64_t len;
    pack(reg, rank, flags, &buf, &len);
    assert_int_equal(weft_registry_merge(into, buf, len, maps), WEFT_OK);
    free(buf);
}

static uint32_t members_of(const weft_registry *reg, uint32_t comm, uint32_t *members,
                           uint32_t capacity)
{
    uint32_t count = weft_registry_comm_members(reg, (weft_comm){comm}, members, capacity);
    assert_true(count <= capacity);
    return count;
}

static const char *text(const weft_registry *reg, weft_string s)
{
    return weft_registry_string_text(reg, s);
}

/* Metric classes merge by their members: rank 1 defines {ru_stime} before
 * {ru_utime, ru_stime}, so its classes map to 1 and 0 of the merged
 * registry, and the members are defined once. */
static void test_metric_classes_merge(void **state)
{
    (void)state;
    weft_registry *r0 = fixture_rank_registry(0, 2), *r1 = fixture_rank_registry(1, 2);
    weft_registry *into = weft_registry_create();
    weft_id_maps m0, m1;
    merge_packed(into, r0, 0, WEFT_PACK_LOCATIONS, &m0);
    merge_packed(into, r1, 1, WEFT_PACK_LOCATIONS, &m1);
    assert_int_equal(weft_registry_metric_member_count(into), 2);
    assert_int_equal(weft_registry_metric_class_count(into), 2);
    assert_int_equal(m0.metric_count, 1);
    assert_int_equal(m0.metrics[0], 0);
    assert_int_equal(m1.metric_count, 2);
    assert_int_equal(m1.metrics[0], 1);
    assert_int_equal(m1.metrics[1], 0);
    uint32_t members[4];
    assert_int_equal(weft_registry_metric_class_members(into, (weft_metric){1}, members, 4), 1);
    weft_metric_member_def def;
    assert_int_equal(weft_registry_metric_member_get(into, members[0], &def), WEFT_OK);
    assert_string_equal(text(into, def.name), "ru_stime");
    assert_string_equal(text(into, def.unit), "s");
    assert_int_equal(def.description.id, WEFT_INVALID_ID);
    assert_int_equal(def.exponent, -6);
    assert_int_equal(def.source, WEFT_METRIC_SOURCE_RUSAGE);
    weft_id_maps_free(&m0);
    weft_id_maps_free(&m1);
    weft_registry_destroy(into);
    weft_registry_destroy(r0);
    weft_registry_destroy(r1);
}

static void assert_identity_maps(const weft_id_maps *maps, const weft_registry *reg)
{
    assert_int_equal(maps->string_count, weft_registry_string_count(reg));
    assert_int_equal(maps->region_count, weft_registry_region_count(reg));
    assert_int_equal(maps->comm_count, weft_registry_comm_count(reg));
    assert_true(weft_id_map_is_identity(maps->strings, maps->string_count));
    assert_true(weft_id_map_is_identity(maps->regions, maps->region_count));
    assert_true(weft_id_map_is_identity(maps->comms, maps->comm_count));
}

/* Packing then merging into an empty registry gives the same registry;
 * merging its own pack (without locations) again adds nothing; and the
 * copy packs to the very same bytes (the scope it got is the rank's). */
static void test_round_trip(void **state)
{
    (void)state;
    weft_registry *local = fixture_rank_registry(1, 4);
    assert_non_null(local);
    void *original;
    uint64_t original_len;
    pack(local, 1, WEFT_PACK_LOCATIONS, &original, &original_len);

    weft_registry *copy = weft_registry_create();
    weft_id_maps maps;
    assert_int_equal(weft_registry_merge(copy, original, original_len, &maps), WEFT_OK);
    registry_assert_same(local, copy);
    assert_identity_maps(&maps, local);
    weft_id_maps_free(&maps);

    void *again;
    uint64_t again_len;
    pack(copy, 99, WEFT_PACK_LOCATIONS, &again, &again_len);
    assert_int_equal(again_len, original_len);
    assert_memory_equal(again, original, original_len);
    free(again);

    counts before = count_of(copy);
    merge_packed(copy, local, 1, 0, &maps);
    assert_counts(copy, before);
    assert_identity_maps(&maps, local);
    weft_id_maps_free(&maps);
    weft_id_maps_free(&maps); /* twice is harmless */
    weft_id_maps_free(NULL);

    free(original);
    weft_registry_destroy(copy);
    weft_registry_destroy(local);
}

/* An empty registry packs and merges too. */
static void test_empty_registry(void **state)
{
    (void)state;
    weft_registry *empty = weft_registry_create();
    weft_registry *into = weft_registry_create();
    weft_id_maps maps;
    merge_packed(into, empty, 0, WEFT_PACK_LOCATIONS, &maps);
    assert_counts(into, (counts){0});
    assert_int_equal(maps.string_count, 0);
    assert_int_equal(maps.comm_count, 0);
    weft_id_maps_free(&maps);
    weft_registry_destroy(into);
    weft_registry_destroy(empty);
}

/* Two ranks: shared strings and regions are one, MPI communicators are one
 * by key, thread teams stay per rank, team members and properties follow
 * their locations, processes are appended. */
static void test_merge_two_ranks(void **state)
{
    (void)state;
    weft_registry *r0 = fixture_rank_registry(0, 2);
    weft_registry *r1 = fixture_rank_registry(1, 2);
    weft_registry *into = weft_registry_create();
    merge_packed(into, r0, 0, WEFT_PACK_LOCATIONS, NULL);
    weft_id_maps maps;
    merge_packed(into, r1, 1, WEFT_PACK_LOCATIONS, &maps);

    /* Regions: main, compute from rank 0; odd_only added by rank 1. */
    assert_int_equal(weft_registry_region_count(into), 3);
    assert_int_equal(maps.region_count, 3);
    assert_int_equal(maps.regions[0], 2); /* odd_only */
    assert_int_equal(maps.regions[1], 0); /* main */
    assert_int_equal(maps.regions[2], 1); /* compute */
    weft_region_def def;
    assert_int_equal(weft_registry_region_get(into, (weft_region){2}, &def), WEFT_OK);
    assert_string_equal(text(into, def.name), "odd_only");
    for (uint32_t i = 0; i < maps.string_count; i++)
        assert_string_equal(text(into, (weft_string){maps.strings[i]}), text(r1, (weft_string){i}));

    /* Comms: world, self, split 0, team r0 | split 1, team r1, nested r1. */
    assert_int_equal(weft_registry_comm_count(into), 7);
    uint32_t want_comms[] = {0, 1, 4, 5, 6};
    assert_int_equal(maps.comm_count, 5);
    assert_memory_equal(maps.comms, want_comms, sizeof(want_comms));
    weft_comm_def c;
    assert_int_equal(weft_registry_comm_get(into, (weft_comm){6}, &c), WEFT_OK);
    assert_int_equal(c.parent.id, 5);
    assert_int_equal(weft_registry_comm_get(into, (weft_comm){5}, &c), WEFT_OK);
    assert_int_equal(c.paradigm, WEFT_PARADIGM_OPENMP);
    uint32_t m[8];
    assert_int_equal(members_of(into, 0, m, 8), 2); /* world: ranks 0, 1 */
    assert_int_equal(m[0], 0);
    assert_int_equal(m[1], 1);
    assert_int_equal(members_of(into, 1, m, 8), 0); /* self */
    assert_int_equal(members_of(into, 3, m, 8), 2); /* team r0: locations 0, 1 */
    assert_int_equal(m[0], 0);
    assert_int_equal(m[1], 1);
    assert_int_equal(members_of(into, 5, m, 8), 3); /* team r1: locations 2, 3, 4 */
    assert_int_equal(m[0], 2);
    assert_int_equal(m[1], 3);
    assert_int_equal(m[2], 4);
    assert_int_equal(members_of(into, 6, m, 8), 1); /* nested r1: thread 1 */
    assert_int_equal(m[0], 3);

    /* Locations and properties in merge order. */
    assert_int_equal(weft_registry_location_count(into), 5);
    weft_location_def loc;
    assert_int_equal(weft_registry_location_get(into, (weft_location){3}, &loc), WEFT_OK);
    assert_int_equal(loc.group, 1);
    assert_int_equal(loc.thread_number, 1);
    assert_int_equal(loc.event_count, 101);
    assert_string_equal(text(into, loc.name), "OMP thread 1");
    assert_int_equal(weft_registry_property_count(into), 5);
    weft_location_property prop;
    assert_int_equal(weft_registry_property_get(into, 4, &prop), WEFT_OK);
    assert_int_equal(prop.location.id, 4);
    assert_int_equal(prop.value, 12);
    assert_string_equal(text(into, prop.name), "weft::chunks_flushed");

    assert_int_equal(weft_registry_process_count(into), 2);
    weft_process_def p;
    assert_int_equal(weft_registry_process_get(into, 1, &p), WEFT_OK);
    assert_int_equal(p.rank, 1);
    assert_string_equal(text(into, p.host), "node-0");

    weft_id_maps_free(&maps);
    weft_registry_destroy(into);
    weft_registry_destroy(r1);
    weft_registry_destroy(r0);
}

/* A team's scope is set once (by the first pack) and survives re-packing
 * with another rank; teams of equal (parent, key) from two ranks stay two,
 * MPI communicators of equal key become one. */
static void test_scoped_teams(void **state)
{
    (void)state;
    weft_registry *local = weft_registry_create();
    weft_comm team, world;
    weft_comm_desc d = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 9};
    assert_int_equal(weft_registry_comm(local, &d, &team), WEFT_OK);
    d = (weft_comm_desc){.name = "MPI_COMM_WORLD",
                         .paradigm = WEFT_PARADIGM_MPI,
                         .parent = WEFT_COMM_INVALID,
                         .key = WEFT_COMM_KEY_MPI_WORLD};
    assert_int_equal(weft_registry_comm(local, &d, &world), WEFT_OK);

    weft_registry *acc = weft_registry_create();
    merge_packed(acc, local, 3, 0, NULL);
    weft_registry *other = weft_registry_create();
    merge_packed(other, acc, 7, 0, NULL); /* scope stays 3 */
    weft_id_maps maps;
    merge_packed(other, local, 3, 0, &maps);
    assert_int_equal(weft_registry_comm_count(other), 2);
    assert_identity_maps(&maps, local);
    weft_id_maps_free(&maps);

    merge_packed(other, local, 4, 0, &maps); /* another rank's equal team */
    assert_int_equal(weft_registry_comm_count(other), 3);
    assert_int_equal(maps.comms[team.id], 2);
    assert_int_equal(maps.comms[world.id], world.id);
    weft_id_maps_free(&maps);

    weft_registry_destroy(other);
    weft_registry_destroy(acc);
    weft_registry_destroy(local);
}

/* Team members that name no packed location become unknown positions. */
static void test_team_member_out_of_range(void **state)
{
    (void)state;
    weft_registry *local = weft_registry_create();
    weft_location l;
    weft_comm team;
    weft_comm_desc d = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 0};
    assert_int_equal(weft_registry_location(local, "Master thread", 0, &l), WEFT_OK);
    assert_int_equal(weft_registry_comm(local, &d, &team), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(local, team, 0, l.id), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(local, team, 1, 7), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(local, team, 3, 0), WEFT_OK);

    weft_registry *into = weft_registry_create();
    for (int i = 0; i < 3; i++)
        assert_int_equal(weft_registry_location(into, "x", 0, &l), WEFT_OK);
    merge_packed(into, local, 0, WEFT_PACK_LOCATIONS, NULL);
    uint32_t m[4];
    assert_int_equal(members_of(into, 0, m, 4), 4);
    assert_int_equal(m[0], 3);
    assert_int_equal(m[1], WEFT_INVALID_ID);
    assert_int_equal(m[2], WEFT_INVALID_ID);
    assert_int_equal(m[3], 3);
    weft_registry_destroy(into);
    weft_registry_destroy(local);
}

static void test_bad_arguments_and_headers(void **state)
{
    (void)state;
    weft_registry *reg = fixture_rank_registry(0, 2);
    void *buf = (void *)1;
    uint64_t len = 1;
    assert_int_equal(weft_registry_pack(reg, 0, 2, &buf, &len), WEFT_ERR_INVALID);
    assert_null(buf);
    assert_int_equal(len, 0);
    assert_int_equal(weft_registry_pack(NULL, 0, 0, &buf, &len), WEFT_ERR_INVALID);
    assert_int_equal(weft_registry_pack(reg, 0, 0, NULL, &len), WEFT_ERR_INVALID);

    pack(reg, 0, 0, &buf, &len);
    weft_registry *into = weft_registry_create();
    weft_id_maps maps = {.string_count = 5};
    assert_int_equal(weft_registry_merge(into, NULL, len, &maps), WEFT_ERR_INVALID);
    assert_null(maps.strings);
    assert_int_equal(maps.string_count, 0);
    assert_int_equal(weft_registry_merge(NULL, buf, len, NULL), WEFT_ERR_INVALID);

    unsigned char *bytes = malloc(len + 1);
    /* Header fields: magic, version, flags, then the counts. */
    static const struct {
        size_t offset;
        uint32_t value;
    } bad[] = {{0, 0x12345678}, {4, 1},  {4, 2},  {4, 4},  {8, 2}, {8, 4},
               {28, 1},         {32, 1}, {36, 9}, {40, 7}, {44, 3}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        memcpy(bytes, buf, len);
        memcpy(bytes + bad[i].offset, &bad[i].value, sizeof(uint32_t));
        assert_int_equal(weft_registry_merge(into, bytes, len, NULL), WEFT_ERR_INVALID);
    }
    memcpy(bytes, buf, len);
    bytes[len] = 0; /* a byte too many */
    assert_int_equal(weft_registry_merge(into, bytes, len + 1, NULL), WEFT_ERR_INVALID);
    assert_counts(into, (counts){0});
    free(bytes);
    free(buf);
    weft_registry_destroy(into);
    weft_registry_destroy(reg);
}

/* I/O files merge by name, I/O handles stay apart per rank (their files
 * and comms mapped), RMA windows merge by key; the maps say where each
 * rank's objects went, and a pack of the merged registry round-trips. */
static void test_objects_merge(void **state)
{
    (void)state;
    weft_registry *local[2], *global = weft_registry_create();
    weft_object handle[2], win[2];
    for (uint32_t r = 0; r < 2; r++) {
        local[r] = fixture_rank_registry(r, 2);
        weft_object file, other;
        weft_object_desc f = {WEFT_OBJECT_IO_FILE, "shared.dat", 0, WEFT_OBJECT_INVALID,
                              WEFT_COMM_INVALID};
        assert_int_equal(weft_registry_object(local[r], &f, &file), WEFT_OK);
        if (r == 1) { /* rank 1 also opens a file of its own, first */
            weft_object_desc g = {WEFT_OBJECT_IO_FILE, "own.dat", 0, WEFT_OBJECT_INVALID,
                                  WEFT_COMM_INVALID};
            assert_int_equal(weft_registry_object(local[r], &g, &other), WEFT_OK);
        }
        weft_object_desc h = {WEFT_OBJECT_IO_HANDLE, "shared.dat", 0, file, (weft_comm){0}};
        assert_int_equal(weft_registry_object(local[r], &h, &handle[r]), WEFT_OK);
        weft_object_desc w = {WEFT_OBJECT_RMA_WIN, "MPI Window", 77, WEFT_OBJECT_INVALID,
                              (weft_comm){0}};
        assert_int_equal(weft_registry_object(local[r], &w, &win[r]), WEFT_OK);
        /* an equal description is the same object */
        weft_object again;
        assert_int_equal(weft_registry_object(local[r], &w, &again), WEFT_OK);
        assert_int_equal(again.id, win[r].id);
    }
    weft_id_maps maps[2];
    for (uint32_t r = 0; r < 2; r++)
        merge_packed(global, local[r], r, WEFT_PACK_LOCATIONS, &maps[r]);
    /* shared.dat, its handle on rank 0, the window, own.dat, rank 1's handle */
    assert_int_equal(weft_registry_object_count(global), 5);
    weft_object_def h0, h1, w0, w1, f;
    assert_int_equal(
        weft_registry_object_get(global, (weft_object){maps[0].objects[handle[0].id]}, &h0),
        WEFT_OK);
    assert_int_equal(
        weft_registry_object_get(global, (weft_object){maps[1].objects[handle[1].id]}, &h1),
        WEFT_OK);
    assert_true(maps[0].objects[handle[0].id] != maps[1].objects[handle[1].id]);
    assert_int_equal(h0.scope, 0);
    assert_int_equal(h1.scope, 1);
    assert_int_equal(h0.file.id, h1.file.id);
    assert_int_equal(weft_registry_object_get(global, h0.file, &f), WEFT_OK);
    assert_int_equal(f.kind, WEFT_OBJECT_IO_FILE);
    assert_string_equal(text(global, f.name), "shared.dat");
    assert_int_equal(maps[0].objects[win[0].id], maps[1].objects[win[1].id]);
    assert_int_equal(
        weft_registry_object_get(global, (weft_object){maps[0].objects[win[0].id]}, &w0), WEFT_OK);
    assert_int_equal(
        weft_registry_object_get(global, (weft_object){maps[1].objects[win[1].id]}, &w1), WEFT_OK);
    assert_true(w0.key == 77);
    assert_int_equal(w0.comm.id, maps[0].comms[0]);
    /* round trip of the merged registry */
    weft_registry *copy = weft_registry_create();
    weft_id_maps identity;
    merge_packed(copy, global, 0, WEFT_PACK_LOCATIONS, &identity);
    assert_true(weft_id_map_is_identity(identity.objects, identity.object_count));
    assert_int_equal(weft_registry_object_count(copy), 5);
    weft_id_maps_free(&identity);
    weft_registry_destroy(copy);
    for (uint32_t r = 0; r < 2; r++) {
        weft_id_maps_free(&maps[r]);
        weft_registry_destroy(local[r]);
    }
    weft_registry_destroy(global);
}

/* Every truncation is refused and leaves the target as it was. Each cut
 * buffer is its own allocation of exactly that size, so ASan catches a read
 * past its end. */
static void test_truncated_buffers(void **state)
{
    (void)state;
    weft_registry *r0 = fixture_rank_registry(0, 4);
    weft_registry *r1 = fixture_rank_registry(1, 4);
    void *buf;
    uint64_t len;
    pack(r1, 1, WEFT_PACK_LOCATIONS, &buf, &len);
    weft_registry *into = weft_registry_create();
    merge_packed(into, r0, 0, WEFT_PACK_LOCATIONS, NULL);
    counts before = count_of(into);
    for (uint64_t cut = 0; cut < len; cut++) {
        void *part = malloc(cut ? cut : 1);
        memcpy(part, buf, cut);
        weft_id_maps maps;
        assert_int_equal(weft_registry_merge(into, part, cut, &maps), WEFT_ERR_INVALID);
        assert_null(maps.regions);
        free(part);
    }
    assert_counts(into, before);
    free(buf);
    weft_registry_destroy(into);
    weft_registry_destroy(r1);
    weft_registry_destroy(r0);
}

/* Every byte changed in several ways: the merge either refuses the buffer
 * (WEFT_ERR_INVALID, target unchanged) or accepts a different but valid
 * registry; it never crashes. The header's and the ids' changes must be
 * among the refused ones. */
static void test_corrupted_bytes(void **state)
{
    (void)state;
    weft_registry *r1 = fixture_rank_registry(1, 4);
    void *buf;
    uint64_t len;
    pack(r1, 1, WEFT_PACK_LOCATIONS, &buf, &len);
    static const unsigned char flips[] = {0xff, 0x01, 0x80, 0x10};
    unsigned char *bytes = malloc(len);
    unsigned refused = 0, accepted = 0;
    for (uint64_t at = 0; at < len; at++) {
        for (size_t f = 0; f < sizeof(flips); f++) {
            memcpy(bytes, buf, len);
            bytes[at] ^= flips[f];
            weft_registry *into = weft_registry_create();
            weft_status st = weft_registry_merge(into, bytes, len, NULL);
            if (st == WEFT_OK) {
                accepted++;
                /* A valid registry: it packs and merges again. */
                weft_registry *again = weft_registry_create();
                merge_packed(again, into, 0, WEFT_PACK_LOCATIONS, NULL);
                weft_registry_destroy(again);
            } else {
                assert_int_equal(st, WEFT_ERR_INVALID);
                assert_counts(into, (counts){0});
                refused++;
            }
            weft_registry_destroy(into);
        }
        if (at < 12) /* magic, version, flags: never accepted changed */
            assert_true(refused == (at + 1) * sizeof(flips));
    }
    assert_true(refused > 0 && accepted > 0);
    free(bytes);
    free(buf);
    weft_registry_destroy(r1);
}

/* ---- the job's unification, four ranks in one process ------------------- */

enum { RANKS = 4 };

/* recorder/job_unify.c: each rank merges its own pack (with locations) into
 * a fresh registry, then in round k (stride 2^k) a rank with bit k set sends
 * its packed registry to rank - stride, which merges it. */
static weft_registry *reduce_tree(weft_registry *const *local)
{
    weft_registry *acc[RANKS];
    for (uint32_t r = 0; r < RANKS; r++) {
        acc[r] = weft_registry_create();
        merge_packed(acc[r], local[r], r, WEFT_PACK_LOCATIONS, NULL);
    }
    for (uint32_t stride = 1; stride < RANKS; stride <<= 1) {
        for (uint32_t r = 0; r + stride < RANKS; r += 2 * stride) {
            merge_packed(acc[r], acc[r + stride], r + stride, WEFT_PACK_LOCATIONS, NULL);
            weft_registry_destroy(acc[r + stride]);
            acc[r + stride] = NULL;
        }
    }
    return acc[0];
}

/* Location ids of rank r's threads in the global registry. */
static uint32_t first_location(uint32_t rank)
{
    uint32_t first = 0;
    for (uint32_t r = 0; r < rank; r++)
        first += fixture_thread_count(r);
    return first;
}

static void check_global(const weft_registry *global)
{
    /* Strings and regions once each: odd_only, main, compute. */
    assert_int_equal(weft_registry_region_count(global), 3);
    /* world, self, split 0, team r0 | split 1, team r1, nested r1 | team r2 |
     * team r3 */
    assert_int_equal(weft_registry_comm_count(global), 9);
    const char *names[] = {"MPI_COMM_WORLD", "MPI_COMM_SELF", "split 0"};
    for (uint32_t i = 0; i < 3; i++) {
        weft_comm_def c;
        assert_int_equal(weft_registry_comm_get(global, (weft_comm){i}, &c), WEFT_OK);
        assert_string_equal(text(global, c.name), names[i]);
        assert_int_equal(c.paradigm, WEFT_PARADIGM_MPI);
    }
    uint32_t m[8];
    assert_int_equal(members_of(global, 0, m, 8), RANKS);
    for (uint32_t r = 0; r < RANKS; r++)
        assert_int_equal(m[r], r);
    assert_int_equal(members_of(global, 4, m, 8), 2); /* split 1: ranks 1, 3 */
    assert_int_equal(m[0], 1);
    assert_int_equal(m[1], 3);

    /* Locations in rank order, then the teams' members point at them. */
    assert_int_equal(weft_registry_location_count(global), first_location(RANKS));
    assert_int_equal(weft_registry_property_count(global), first_location(RANKS));
    for (uint32_t r = 0; r < RANKS; r++) {
        for (uint32_t t = 0; t < fixture_thread_count(r); t++) {
            weft_location_def loc;
            weft_location_property prop;
            uint32_t id = first_location(r) + t;
            assert_int_equal(weft_registry_location_get(global, (weft_location){id}, &loc),
                             WEFT_OK);
            assert_int_equal(loc.group, r);
            assert_int_equal(loc.thread_number, t);
            assert_int_equal(weft_registry_property_get(global, id, &prop), WEFT_OK);
            assert_int_equal(prop.location.id, id);
            assert_int_equal(prop.value, 10 * r + t);
        }
    }
    const uint32_t team_of_rank[RANKS] = {3, 5, 7, 8};
    for (uint32_t r = 0; r < RANKS; r++) {
        uint32_t n = members_of(global, team_of_rank[r], m, 8);
        assert_int_equal(n, fixture_thread_count(r));
        for (uint32_t t = 0; t < n; t++)
            assert_int_equal(m[t], first_location(r) + t);
    }
    weft_comm_def nested;
    assert_int_equal(weft_registry_comm_get(global, (weft_comm){6}, &nested), WEFT_OK);
    assert_int_equal(nested.parent.id, team_of_rank[1]);
    assert_int_equal(members_of(global, 6, m, 8), 1);
    assert_int_equal(m[0], first_location(1) + 1);

    assert_int_equal(weft_registry_process_count(global), RANKS);
    for (uint32_t r = 0; r < RANKS; r++) {
        weft_process_def p;
        assert_int_equal(weft_registry_process_get(global, r, &p), WEFT_OK);
        assert_int_equal(p.rank, r);
        assert_string_equal(text(global, p.host), r < 2 ? "node-0" : "node-1");
    }
}

/* Rank r's maps lead to global definitions equal to its local ones; in this
 * fixture every rank but 0 has ids of its own. */
static void check_maps(const weft_registry *global, const weft_registry *local, uint32_t rank,
                       const weft_id_maps *maps)
{
    registry_assert_maps(global, local, rank, maps);
    /* Rank 0 was merged first: its ids are the global ones. */
    bool identity = weft_id_map_is_identity(maps->regions, maps->region_count) &&
                    weft_id_map_is_identity(maps->comms, maps->comm_count) &&
                    weft_id_map_is_identity(maps->strings, maps->string_count);
    assert_true(identity == (rank == 0));
}

static void test_four_rank_job(void **state)
{
    (void)state;
    weft_registry *local[RANKS];
    for (uint32_t r = 0; r < RANKS; r++) {
        local[r] = fixture_rank_registry(r, RANKS);
        assert_non_null(local[r]);
    }
    weft_registry *global = reduce_tree(local);
    check_global(global);

    /* Rank 0 broadcasts the global definitions without locations; every rank
     * merges them into an empty registry, then its own pack (without
     * locations) to learn its ids: nothing new may appear. */
    void *shared;
    uint64_t shared_len;
    pack(global, 0, 0, &shared, &shared_len);
    for (uint32_t r = 0; r < RANKS; r++) {
        weft_registry *copy = weft_registry_create();
        assert_int_equal(weft_registry_merge(copy, shared, shared_len, NULL), WEFT_OK);
        counts before = count_of(copy);
        assert_int_equal(before.locations, 0);
        assert_int_equal(before.comms, weft_registry_comm_count(global));
        weft_id_maps maps;
        merge_packed(copy, local[r], r, 0, &maps);
        assert_counts(copy, before);
        check_maps(global, local[r], r, &maps);
        weft_id_maps_free(&maps);
        weft_registry_destroy(copy);
    }
    free(shared);
    weft_registry_destroy(global);
    for (uint32_t r = 0; r < RANKS; r++)
        weft_registry_destroy(local[r]);
}

/* An attribute used on one rank only is used in the merged registry (its
 * name string carries it over); an unused one stays unused. */
static void test_attribute_use_survives_merge(void **state)
{
    (void)state;
    weft_registry *rank0 = weft_registry_create(), *rank1 = weft_registry_create();
    weft_registry *global = weft_registry_create();
    assert_false(weft_registry_attribute_used(rank1, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES));
    assert_int_equal(weft_registry_attribute_use(rank1, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES),
                     WEFT_OK);
    assert_true(weft_registry_attribute_used(rank1, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES));
    assert_int_equal(weft_registry_attribute_use(rank1, WEFT_ATTRIBUTE_COUNT), WEFT_ERR_INVALID);
    assert_false(weft_registry_attribute_used(rank1, WEFT_ATTRIBUTE_COUNT));
    assert_null(weft_attribute_name(WEFT_ATTRIBUTE_COUNT));

    void *buf;
    uint64_t len;
    assert_int_equal(weft_registry_pack(rank0, 0, 0, &buf, &len), WEFT_OK);
    assert_int_equal(weft_registry_merge(global, buf, len, NULL), WEFT_OK);
    free(buf);
    assert_false(weft_registry_attribute_used(global, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES));
    assert_int_equal(weft_registry_pack(rank1, 1, 0, &buf, &len), WEFT_OK);
    assert_int_equal(weft_registry_merge(global, buf, len, NULL), WEFT_OK);
    free(buf);
    assert_true(weft_registry_attribute_used(global, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES));
    weft_registry_destroy(rank0);
    weft_registry_destroy(rank1);
    weft_registry_destroy(global);
}

static void test_identity(void **state)
{
    (void)state;
    uint32_t same[] = {0, 1, 2, 3};
    uint32_t moved[] = {0, 1, 3, 2};
    assert_true(weft_id_map_is_identity(same, 4));
    assert_true(weft_id_map_is_identity(moved, 2));
    assert_false(weft_id_map_is_identity(moved, 4));
    assert_true(weft_id_map_is_identity(NULL, 0));
}

/* Fails allocation k for k = 0, 1, ... during pack and merge: every failure
 * is WEFT_ERR_NO_MEMORY, never a crash or a leak (ASan checks the latter). */
static void test_out_of_memory_sweep(void **state)
{
    (void)state;
    weft_registry *r0 = fixture_rank_registry(0, 2);
    weft_registry *r1 = fixture_rank_registry(1, 2);
    for (long fail_at = 0;; fail_at++) {
        weft_registry *into = weft_registry_create();
        assert_non_null(into);
        weft_alloc_fail_after(fail_at);
        weft_status st = WEFT_OK;
        weft_id_maps maps = {0};
        for (uint32_t r = 0; r < 2 && st == WEFT_OK; r++) {
            void *buf = NULL;
            uint64_t len = 0;
            st = weft_registry_pack(r ? r1 : r0, r, WEFT_PACK_LOCATIONS, &buf, &len);
            if (st == WEFT_OK)
                st = weft_registry_merge(into, buf, len, &maps);
            if (st == WEFT_OK)
                weft_id_maps_free(&maps);
            weft_free(buf);
        }
        weft_alloc_fail_after(-1);
        assert_null(maps.comms);
        weft_registry_destroy(into);
        if (st == WEFT_OK)
            break;
        assert_int_equal(st, WEFT_ERR_NO_MEMORY);
        assert_true(fail_at < 10000);
    }
    weft_registry_destroy(r1);
    weft_registry_destroy(r0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_empty_registry),
        cmocka_unit_test(test_merge_two_ranks),
        cmocka_unit_test(test_scoped_teams),
        cmocka_unit_test(test_team_member_out_of_range),
        cmocka_unit_test(test_bad_arguments_and_headers),
        cmocka_unit_test(test_objects_merge),
        cmocka_unit_test(test_truncated_buffers),
        cmocka_unit_test(test_corrupted_bytes),
        cmocka_unit_test(test_four_rank_job),
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_metric_classes_merge),
        cmocka_unit_test(test_attribute_use_survives_merge),
        cmocka_unit_test(test_out_of_memory_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
