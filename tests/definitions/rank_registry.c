/* The fixture of rank_registry.h. */
#include "rank_registry.h"

#include <stdbool.h>
#include <stdio.h>

uint32_t fixture_thread_count(uint32_t rank)
{
    return 2 + rank % 2;
}

uint64_t fixture_split_key(uint32_t color)
{
    return UINT64_C(0x5eed000000000000) + color;
}

static bool add_region(weft_registry *reg, const char *name, const char *file)
{
    weft_region_desc d = {.name = name,
                          .file = file,
                          .begin_line = file ? 10 : 0,
                          .end_line = file ? 20 : 0,
                          .role = WEFT_REGION_ROLE_FUNCTION,
                          .paradigm = WEFT_PARADIGM_USER};
    weft_region r;
    return weft_registry_region(reg, &d, &r) == WEFT_OK;
}

static bool add_mpi_comms(weft_registry *reg, uint32_t rank, uint32_t size)
{
    weft_comm world, self, split;
    weft_comm_desc d = {.name = "MPI_COMM_WORLD",
                        .paradigm = WEFT_PARADIGM_MPI,
                        .parent = WEFT_COMM_INVALID,
                        .key = WEFT_COMM_KEY_MPI_WORLD};
    bool ok = weft_registry_comm(reg, &d, &world) == WEFT_OK;
    for (uint32_t r = 0; r < size && ok; r++)
        ok = weft_registry_comm_set_member(reg, world, r, r) == WEFT_OK;
    d.name = "MPI_COMM_SELF";
    d.key = WEFT_COMM_KEY_MPI_SELF;
    ok = ok && weft_registry_comm(reg, &d, &self) == WEFT_OK;
    char name[32];
    snprintf(name, sizeof(name), "split %u", rank % 2);
    d.name = name;
    d.key = fixture_split_key(rank % 2);
    ok = ok && weft_registry_comm(reg, &d, &split) == WEFT_OK;
    uint32_t position = 0;
    for (uint32_t r = rank % 2; r < size && ok; r += 2)
        ok = weft_registry_comm_set_member(reg, split, position++, r) == WEFT_OK;
    return ok;
}

static bool add_teams(weft_registry *reg, uint32_t rank, const weft_location *threads,
                      uint32_t thread_count)
{
    weft_comm team, nested;
    weft_comm_desc d = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 0};
    bool ok = weft_registry_comm(reg, &d, &team) == WEFT_OK;
    for (uint32_t t = 0; t < thread_count && ok; t++)
        ok = weft_registry_comm_set_member(reg, team, t, threads[t].id) == WEFT_OK;
    if (ok && rank == 1) {
        d.parent = team;
        d.key = 5;
        ok = weft_registry_comm(reg, &d, &nested) == WEFT_OK &&
             weft_registry_comm_set_member(reg, nested, 0, threads[1].id) == WEFT_OK;
    }
    return ok;
}

/* Odd ranks first define a class of their own, so their ids differ. */
static bool add_metrics(weft_registry *reg, uint32_t rank)
{
    static const weft_metric_member_desc members[] = {
        {"ru_utime", "User CPU time", "s", WEFT_METRIC_SOURCE_RUSAGE,
         WEFT_METRIC_MODE_ACCUMULATED_START, -6},
        {"ru_stime", NULL, "s", WEFT_METRIC_SOURCE_RUSAGE, WEFT_METRIC_MODE_ACCUMULATED_START, -6},
    };
    weft_metric metric;
    bool ok = true;
    if (rank % 2)
        ok = weft_registry_metric_class(reg, &members[1], 1, &metric) == WEFT_OK;
    return ok && weft_registry_metric_class(reg, members, 2, &metric) == WEFT_OK;
}

weft_registry *fixture_rank_registry(uint32_t rank, uint32_t size)
{
    weft_registry *reg = weft_registry_create();
    if (!reg)
        return NULL;
    weft_location threads[8];
    uint32_t count = fixture_thread_count(rank);
    bool ok = weft_registry_location(reg, "Master thread", 0, &threads[0]) == WEFT_OK;
    weft_registry_set_location_group(reg, rank);
    char host[32];
    snprintf(host, sizeof(host), "node-%u", rank / 2);
    ok = ok && weft_registry_process(reg, rank, host, NULL) == WEFT_OK;
    if (ok && rank % 2)
        ok = add_region(reg, "odd_only", NULL);
    ok = ok && add_region(reg, "main", NULL) && add_region(reg, "compute", "solver.c");
    ok = ok && add_mpi_comms(reg, rank, size) && add_metrics(reg, rank);
    for (uint32_t t = 1; t < count && ok; t++) {
        char name[32];
        snprintf(name, sizeof(name), "OMP thread %u", t);
        ok = weft_registry_location(reg, name, t, &threads[t]) == WEFT_OK;
    }
    ok = ok && add_teams(reg, rank, threads, count);
    for (uint32_t t = 0; t < count && ok; t++) {
        weft_registry_location_set_events(reg, threads[t], 100 * rank + t);
        ok = weft_registry_location_property(reg, threads[t], "weft::chunks_flushed",
                                             10 * rank + t) == WEFT_OK;
    }
    if (!ok) {
        weft_registry_destroy(reg);
        return NULL;
    }
    return reg;
}
/* SPDX-License-Identifier: BSD-3-Clause */
