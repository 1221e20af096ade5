/* MPI test program "families": one or a few calls of each family of MPI
 * functions that records its region only (environment, datatypes, info,
 * attributes and names, errors, topology queries, neighbourhood
 * collectives, reduction operations, memory), so that the trace shows each
 * as its region with its role (mpi_expect_families.c). Results are checked.
 *
 *   mpirun -np N mpi_families     (N even) */
#include <mpi.h>
#include <string.h>

#include "mpi_program.h"

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require_even(rank, size);

    /* environment */
    int version, subversion, provided, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_version(&version, &subversion);
    MPI_Get_processor_name(name, &len);
    MPI_Query_thread(&provided);
    mpi_program_require(version >= 3 && len > 0, rank, "environment");
    void *memory = NULL;
    MPI_Alloc_mem(64, MPI_INFO_NULL, &memory);
    MPI_Free_mem(memory);

    /* datatypes */
    MPI_Datatype pair;
    int type_size = 0;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_size(pair, &type_size);
    MPI_Type_free(&pair);
    mpi_program_require(type_size == 8, rank, "MPI_Type_size");

    /* info */
    MPI_Info info;
    int keys = 0;
    MPI_Info_create(&info);
    MPI_Info_set(info, "weft", "yes");
    MPI_Info_get_nkeys(info, &keys);
    MPI_Info_free(&info);
    mpi_program_require(keys == 1, rank, "MPI_Info_get_nkeys");

    /* attributes and names */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    char comm_name[MPI_MAX_OBJECT_NAME];
    MPI_Comm_set_name(dup, "weft test");
    MPI_Comm_get_name(dup, comm_name, &len);
    mpi_program_require(strcmp(comm_name, "weft test") == 0, rank, "MPI_Comm_get_name");
    int keyval, value = 42, *got = NULL, flag = 0;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(dup, keyval, &value);
    MPI_Comm_get_attr(dup, keyval, &got, &flag);
    mpi_program_require(flag && *got == 42, rank, "MPI_Comm_get_attr");
    MPI_Comm_delete_attr(dup, keyval);
    MPI_Comm_free_keyval(&keyval);

    /* errors */
    char message[MPI_MAX_ERROR_STRING];
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Error_string(MPI_ERR_COMM, message, &len);
    mpi_program_require(len > 0, rank, "MPI_Error_string");

    /* topology queries and neighbourhood collectives on a ring */
    int dims[1] = {0}, periods[1] = {1}, coords[1];
    MPI_Dims_create(size, 1, dims);
    MPI_Comm ring;
    MPI_Cart_create(dup, 1, dims, periods, 0, &ring);
    MPI_Cart_coords(ring, rank, 1, coords);
    mpi_program_require(coords[0] == rank, rank, "MPI_Cart_coords");
    int mine = rank, neighbours[2] = {-1, -1};
    MPI_Neighbor_allgather(&mine, 1, MPI_INT, neighbours, 1, MPI_INT, ring);
    mpi_program_require(neighbours[0] == (rank + size - 1) % size &&
                            neighbours[1] == (rank + 1) % size,
                        rank, "MPI_Neighbor_allgather");
    MPI_Request request;
    int out[2] = {rank, rank}, in[2] = {-1, -1};
    MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    mpi_program_require(in[1] == (rank + 1) % size, rank, "MPI_Ineighbor_alltoall");

    /* reduction operations */
    MPI_Op op;
    int a[2] = {1, 2}, b[2] = {10, 20};
    MPI_Op_create(add_ints, 1, &op);
    MPI_Reduce_local(a, b, 2, MPI_INT, op);
    MPI_Op_free(&op);
    mpi_program_require(b[0] == 11 && b[1] == 22, rank, "MPI_Reduce_local");

    MPI_Comm_free(&ring);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
