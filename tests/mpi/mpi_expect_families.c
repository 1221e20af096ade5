/* Expectations of the families scenario (mpi_families.c): every call of
 * each rank, each entered exactly as often as the program calls it, and
 * each function's region with the role the spec gives its family
 * (FUNCTION; the neighbourhood collectives COLL_OTHER). */
#include "mpi_check.h"

#include <stdio.h>

static const struct {
    const char *name;
    uint64_t calls;
    OTF2_RegionRole role;
} calls[] = {
    {"MPI_Init", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Get_version", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Get_processor_name", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Query_thread", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Alloc_mem", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Free_mem", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Type_contiguous", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Type_commit", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Type_size", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Type_free", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Info_create", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Info_set", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Info_get_nkeys", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Info_free", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_dup", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_set_name", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_get_name", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_create_keyval", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_set_attr", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_get_attr", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_delete_attr", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_free_keyval", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_set_errhandler", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Error_string", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Dims_create", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Cart_create", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Cart_coords", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Neighbor_allgather", 1, OTF2_REGION_ROLE_COLL_OTHER},
    {"MPI_Ineighbor_alltoall", 1, OTF2_REGION_ROLE_COLL_OTHER},
    {"MPI_Wait", 1, OTF2_REGION_ROLE_POINT2POINT},
    {"MPI_Op_create", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Reduce_local", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Op_free", 1, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_free", 2, OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Finalize", 1, OTF2_REGION_ROLE_FUNCTION},
};

static void expect_families(const mpi_ctx *ctx, uint32_t rank, uint32_t thread,
                            mpi_expected_calls *x)
{
    (void)ctx, (void)rank, (void)thread;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        mpi_expect(x, calls[i].name, calls[i].calls);
}

static void check_families(mpi_ctx *ctx)
{
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        const trace_region *r = trace_region_by_name(ctx->t, calls[i].name);
        if (r != NULL)
            MPI_CHECK_EQ(r->role, calls[i].role, "role of %s", calls[i].name);
    }
}

const mpi_scenario mpi_scenario_families = {"families", 1, 2, expect_families, check_families};
/* SPDX-License-Identifier: BSD-3-Clause */
