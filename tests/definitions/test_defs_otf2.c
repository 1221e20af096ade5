/* The OTF2 definition writer (weft/definitions_otf2.h) read back with
 * tests/support's trace_load: a three-rank job unified from the fixture's
 * local registries (system tree, location groups, locations, the MPI and
 * OpenMP location lists, MPI_COMM_WORLD/SELF, split communicators and
 * thread teams with their members and parents), and a single process
 * without a process table, written as it always was. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <otf2/otf2.h>

#include "otf2_trace.h"
#include "rank_registry.h"
#include "weft/definitions.h"
#include "weft/definitions_otf2.h"
#include "weft/unify.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static OTF2_FlushType pre_flush(void *user_data, OTF2_FileType file_type, OTF2_LocationRef location,
                                void *caller_data, bool final)
{
    (void)user_data;
    (void)file_type;
    (void)location;
    (void)caller_data;
    (void) final;
    return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush};

/* Writes reg as a complete archive (empty event and local definition files
 * per location) into a new directory under /tmp and loads it back. *dir
 * receives the directory for remove_archive. */
static trace_model *write_and_load(weft_registry *reg, char *dir, size_t dir_len)
{
    snprintf(dir, dir_len, "/tmp/weft-defs-otf2-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof(path), "%s/trace", dir);
    OTF2_Archive *archive =
        OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    assert_non_null(archive);
    assert_int_equal(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), OTF2_SUCCESS);
    assert_int_equal(OTF2_Archive_SetSerialCollectiveCallbacks(archive), OTF2_SUCCESS);

    uint32_t locations = weft_registry_location_count(reg);
    assert_int_equal(OTF2_Archive_OpenEvtFiles(archive), OTF2_SUCCESS);
    for (uint32_t i = 0; i < locations; i++) {
        weft_location_def def;
        assert_int_equal(weft_registry_location_get(reg, (weft_location){i}, &def), WEFT_OK);
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, weft_location_otf2_id(&def));
        assert_non_null(w);
        assert_int_equal(OTF2_Archive_CloseEvtWriter(archive, w), OTF2_SUCCESS);
    }
    assert_int_equal(OTF2_Archive_CloseEvtFiles(archive), OTF2_SUCCESS);
    assert_int_equal(OTF2_Archive_OpenDefFiles(archive), OTF2_SUCCESS);
    for (uint32_t i = 0; i < locations; i++) {
        weft_location_def def;
        assert_int_equal(weft_registry_location_get(reg, (weft_location){i}, &def), WEFT_OK);
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(archive, weft_location_otf2_id(&def));
        assert_non_null(w);
        assert_int_equal(OTF2_Archive_CloseDefWriter(archive, w), OTF2_SUCCESS);
    }
    assert_int_equal(OTF2_Archive_CloseDefFiles(archive), OTF2_SUCCESS);

    weft_clock_properties clock = {.ticks_per_second = 1000000000,
                                   .global_offset = 5000,
                                   .trace_length = 1234,
                                   .realtime_ns = UINT64_C(1700000000000000000)};
    assert_int_equal(weft_defs_write_otf2(reg, archive, &clock), WEFT_OK);
    assert_int_equal(OTF2_Archive_Close(archive), OTF2_SUCCESS);

    char anchor[300];
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", path);
    char err[512] = "";
    trace_model *t = NULL;
    if (trace_load(anchor, NULL, &t, err, sizeof(err)) != 0)
        fail_msg("trace_load(%s) failed: %s", anchor, err);
    assert_true(t->has_clock_properties);
    assert_int_equal(t->timer_resolution, 1000000000);
    assert_int_equal(t->global_offset, 5000);
    assert_int_equal(t->trace_length, 1234);
    return t;
}

static void remove_archive(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const trace_group *group_by_id(const trace_model *t, uint32_t id)
{
    for (size_t i = 0; i < t->group_count; i++) {
        if (t->groups[i].id == id)
            return &t->groups[i];
    }
    fail_msg("no group %u", id);
    return NULL;
}

static void assert_group(const trace_group *g, const char *name, OTF2_GroupType type,
                         OTF2_Paradigm paradigm, const uint64_t *members, uint32_t count)
{
    assert_string_equal(g->name, name);
    assert_int_equal(g->type, type);
    assert_int_equal(g->paradigm, paradigm);
    assert_int_equal(g->member_count, count);
    for (uint32_t i = 0; i < count; i++)
        assert_int_equal(g->members[i], members[i]);
}

/* Rank order, as the recorder's binomial tree produces it. */
static weft_registry *unify(uint32_t ranks)
{
    weft_registry *global = weft_registry_create();
    for (uint32_t r = 0; r < ranks; r++) {
        weft_registry *local = fixture_rank_registry(r, ranks);
        assert_non_null(local);
        void *buf;
        uint64_t len;
        assert_int_equal(weft_registry_pack(local, r, WEFT_PACK_LOCATIONS, &buf, &len), WEFT_OK);
        assert_int_equal(weft_registry_merge(global, buf, len, NULL), WEFT_OK);
        free(buf);
        weft_registry_destroy(local);
    }
    return global;
}

static void check_system_tree(const trace_model *t)
{
    assert_int_equal(t->system_tree_node_count, 3);
    const trace_system_tree_node *n = t->system_tree_nodes;
    assert_int_equal(n[0].id, 0);
    assert_string_equal(n[0].name, "Linux");
    assert_string_equal(n[0].class_name, "machine");
    assert_int_equal(n[0].parent, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (uint32_t i = 1; i < 3; i++) {
        char host[16];
        snprintf(host, sizeof(host), "node-%u", i - 1);
        assert_int_equal(n[i].id, i);
        assert_string_equal(n[i].name, host);
        assert_string_equal(n[i].class_name, "node");
        assert_int_equal(n[i].parent, 0);
    }
    assert_int_equal(t->location_group_count, 3);
    for (uint32_t r = 0; r < 3; r++) {
        char name[16];
        snprintf(name, sizeof(name), "MPI Rank %u", r);
        const trace_location_group *g = &t->location_groups[r];
        assert_int_equal(g->id, r);
        assert_string_equal(g->name, name);
        assert_int_equal(g->type, OTF2_LOCATION_GROUP_TYPE_PROCESS);
        assert_int_equal(g->system_tree_parent, r < 2 ? 1 : 2);
    }
}

/* Locations of the three ranks: 2 + 3 + 2 threads, in rank order. */
static const uint64_t all_locations[] = {
    0, UINT64_C(1) << 32,      1, (UINT64_C(1) << 32) | 1, (UINT64_C(2) << 32) | 1,
    2, (UINT64_C(1) << 32) | 2};

static void check_locations(const trace_model *t)
{
    assert_int_equal(t->location_count, 7);
    for (size_t i = 0; i < 7; i++) {
        const trace_location_stats *loc = trace_location_by_id(t, all_locations[i]);
        assert_non_null(loc);
        uint32_t rank = (uint32_t)(all_locations[i] & 0xffffffff);
        uint32_t thread = (uint32_t)(all_locations[i] >> 32);
        assert_int_equal(loc->group, rank);
        assert_int_equal(loc->type, OTF2_LOCATION_TYPE_CPU_THREAD);
        assert_int_equal(loc->defined_event_count, 100 * rank + thread);
        uint64_t value = 0;
        assert_non_null(
            trace_location_property(t, all_locations[i], "weft::chunks_flushed", &value));
        assert_int_equal(value, 10 * rank + thread);
    }
}

/* Group ids: 0 "OpenMP" list, 1 "MPI" list, then 2 + comm id. Comms:
 * 0 world, 1 self, 2 split 0, 3 team r0, 4 split 1, 5 team r1,
 * 6 nested r1, 7 team r2. */
static void check_groups_and_comms(const trace_model *t)
{
    assert_int_equal(t->group_count, 10);
    assert_group(group_by_id(t, 0), "OpenMP", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                 all_locations, 7);
    const uint64_t ranks[] = {0, 1, 2};
    assert_group(group_by_id(t, 1), "MPI", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, ranks,
                 3);
    assert_group(group_by_id(t, 2), "MPI_COMM_WORLD", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                 ranks, 3);
    assert_group(group_by_id(t, 3), "MPI_COMM_SELF", OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                 NULL, 0);
    const uint64_t even[] = {0, 2}, odd[] = {1};
    assert_group(group_by_id(t, 4), "split 0", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, even,
                 2);
    assert_group(group_by_id(t, 6), "split 1", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, odd,
                 1);
    const uint64_t team0[] = {0, 1}, team1[] = {2, 3, 4}, nested[] = {3}, team2[] = {5, 6};
    assert_group(group_by_id(t, 5), "Thread team 3", OTF2_GROUP_TYPE_COMM_GROUP,
                 OTF2_PARADIGM_OPENMP, team0, 2);
    assert_group(group_by_id(t, 7), "Thread team 3", OTF2_GROUP_TYPE_COMM_GROUP,
                 OTF2_PARADIGM_OPENMP, team1, 3);
    assert_group(group_by_id(t, 8), "Thread team 4", OTF2_GROUP_TYPE_COMM_GROUP,
                 OTF2_PARADIGM_OPENMP, nested, 1);
    assert_group(group_by_id(t, 9), "Thread team 3", OTF2_GROUP_TYPE_COMM_GROUP,
                 OTF2_PARADIGM_OPENMP, team2, 2);

    assert_int_equal(t->comm_count, 8);
    const OTF2_Paradigm paradigms[] = {
        OTF2_PARADIGM_MPI, OTF2_PARADIGM_MPI,    OTF2_PARADIGM_MPI,    OTF2_PARADIGM_OPENMP,
        OTF2_PARADIGM_MPI, OTF2_PARADIGM_OPENMP, OTF2_PARADIGM_OPENMP, OTF2_PARADIGM_OPENMP};
    for (uint32_t i = 0; i < 8; i++) {
        const trace_comm *c = &t->comms[i];
        assert_int_equal(c->id, i);
        assert_int_equal(c->group, 2 + i);
        assert_int_equal(c->paradigm, paradigms[i]);
        assert_string_equal(c->name, group_by_id(t, 2 + i)->name);
        assert_int_equal(c->parent, i == 6 ? 5 : OTF2_UNDEFINED_COMM);
    }
}

static void test_job_definitions(void **state)
{
    (void)state;
    weft_registry *global = unify(3);
    char dir[64];
    trace_model *t = write_and_load(global, dir, sizeof(dir));
    check_system_tree(t);
    check_locations(t);
    check_groups_and_comms(t);
    assert_int_equal(t->region_count, 3);
    assert_non_null(trace_region_by_name(t, "odd_only"));
    trace_free(t);
    remove_archive(dir);
    weft_registry_destroy(global);
}

/* No process table: one process, rank 0, this host, named "Process"; thread
 * teams only, so only the "OpenMP" list. */
static void test_single_process_definitions(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_location l0, l1;
    weft_comm team;
    weft_comm_desc d = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 0};
    assert_int_equal(weft_registry_location(reg, "Master thread", 0, &l0), WEFT_OK);
    assert_int_equal(weft_registry_location(reg, "OMP thread 1", 1, &l1), WEFT_OK);
    assert_int_equal(weft_registry_comm(reg, &d, &team), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(reg, team, 0, l0.id), WEFT_OK);
    assert_int_equal(weft_registry_comm_set_member(reg, team, 1, l1.id), WEFT_OK);

    char dir[64];
    trace_model *t = write_and_load(reg, dir, sizeof(dir));
    char host[256] = "localhost";
    if (gethostname(host, sizeof(host)) != 0)
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    assert_int_equal(t->system_tree_node_count, 2);
    assert_string_equal(t->system_tree_nodes[1].name, host);
    assert_int_equal(t->system_tree_nodes[1].parent, 0);
    assert_int_equal(t->location_group_count, 1);
    assert_int_equal(t->location_groups[0].id, 0);
    assert_string_equal(t->location_groups[0].name, "Process");
    assert_int_equal(t->location_groups[0].system_tree_parent, 1);
    assert_int_equal(t->group_count, 2);
    const uint64_t members[] = {0, UINT64_C(1) << 32};
    assert_group(group_by_id(t, 0), "OpenMP", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                 members, 2);
    const uint64_t indices[] = {0, 1};
    assert_group(group_by_id(t, 1), "Thread team 0", OTF2_GROUP_TYPE_COMM_GROUP,
                 OTF2_PARADIGM_OPENMP, indices, 2);
    assert_int_equal(t->comm_count, 1);
    assert_int_equal(t->comms[0].group, 1);
    assert_int_equal(t->comms[0].parent, OTF2_UNDEFINED_COMM);
    trace_free(t);
    remove_archive(dir);
    weft_registry_destroy(reg);
}

typedef struct location_ids {
    uint64_t ids[8];
    size_t count;
} location_ids;

static OTF2_CallbackCode collect_location(void *user_data, OTF2_LocationRef self,
                                          OTF2_StringRef name, OTF2_LocationType type,
                                          uint64_t events, OTF2_LocationGroupRef group)
{
    (void)name;
    (void)type;
    (void)events;
    (void)group;
    location_ids *seen = user_data;
    if (seen->count < 8)
        seen->ids[seen->count++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

/* Locations registered out of thread order (a thread that got a higher
 * number registered first) are defined in thread order: Scalasca's analyzer
 * replays the n-th location of a process as its thread n. */
static void test_locations_in_thread_order(void **state)
{
    (void)state;
    weft_registry *reg = weft_registry_create();
    weft_location l;
    assert_int_equal(weft_registry_location(reg, "Master thread", 0, &l), WEFT_OK);
    assert_int_equal(weft_registry_location(reg, "Thread 2", 2, &l), WEFT_OK);
    assert_int_equal(weft_registry_location(reg, "Thread 1", 1, &l), WEFT_OK);
    char dir[64];
    trace_free(write_and_load(reg, dir, sizeof(dir)));

    char anchor[300];
    snprintf(anchor, sizeof(anchor), "%s/trace/traces.otf2", dir);
    OTF2_Reader *reader = OTF2_Reader_Open(anchor);
    assert_non_null(reader);
    OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(reader);
    OTF2_GlobalDefReaderCallbacks *callbacks = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, collect_location);
    location_ids seen = {.count = 0};
    OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, callbacks, &seen);
    uint64_t read = 0;
    assert_int_equal(OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read), OTF2_SUCCESS);
    OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
    OTF2_Reader_Close(reader);
    assert_int_equal(seen.count, 3);
    assert_int_equal(seen.ids[0], 0);
    assert_int_equal(seen.ids[1], UINT64_C(1) << 32);
    assert_int_equal(seen.ids[2], UINT64_C(2) << 32);
    remove_archive(dir);
    weft_registry_destroy(reg);
}

/* MPI communicators only (a job whose ranks run no thread teams): the
 * "MPI" list is group 0 and no "OpenMP" list is written. */
static void test_mpi_only_definitions(void **state)
{
    (void)state;
    weft_registry *global = weft_registry_create();
    for (uint32_t r = 0; r < 2; r++) {
        weft_registry *local = weft_registry_create();
        weft_location l;
        weft_comm world;
        weft_comm_desc d = {.name = "MPI_COMM_WORLD",
                            .paradigm = WEFT_PARADIGM_MPI,
                            .parent = WEFT_COMM_INVALID,
                            .key = WEFT_COMM_KEY_MPI_WORLD};
        assert_int_equal(weft_registry_location(local, "Master thread", 0, &l), WEFT_OK);
        weft_registry_set_location_group(local, 1 - r); /* rank 1 merged first */
        assert_int_equal(weft_registry_process(local, 1 - r, "host", NULL), WEFT_OK);
        assert_int_equal(weft_registry_comm(local, &d, &world), WEFT_OK);
        assert_int_equal(weft_registry_comm_set_member(local, world, 0, 0), WEFT_OK);
        assert_int_equal(weft_registry_comm_set_member(local, world, 1, 1), WEFT_OK);
        void *buf;
        uint64_t len;
        assert_int_equal(weft_registry_pack(local, 1 - r, WEFT_PACK_LOCATIONS, &buf, &len),
                         WEFT_OK);
        assert_int_equal(weft_registry_merge(global, buf, len, NULL), WEFT_OK);
        free(buf);
        weft_registry_destroy(local);
    }
    char dir[64];
    trace_model *t = write_and_load(global, dir, sizeof(dir));
    assert_int_equal(t->system_tree_node_count, 2);
    assert_int_equal(t->location_group_count, 2);
    assert_int_equal(t->location_groups[0].id, 1);
    assert_string_equal(t->location_groups[0].name, "MPI Rank 1");
    assert_int_equal(t->group_count, 2);
    const uint64_t ranks[] = {0, 1};
    assert_group(group_by_id(t, 0), "MPI", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, ranks,
                 2);
    assert_group(group_by_id(t, 1), "MPI_COMM_WORLD", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                 ranks, 2);
    trace_free(t);
    remove_archive(dir);
    weft_registry_destroy(global);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_definitions),
        cmocka_unit_test(test_single_process_definitions),
        cmocka_unit_test(test_locations_in_thread_order),
        cmocka_unit_test(test_mpi_only_definitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
