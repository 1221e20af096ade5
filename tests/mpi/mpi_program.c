/* Helpers of the MPI test programs; see mpi_program.h. */
#include "mpi_program.h"

#include <stdio.h>

#include <mpi.h>

void mpi_program_require(int ok, int rank, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "rank %d: %s\n", rank, what);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

void mpi_program_require_even(int rank, int size)
{
    mpi_program_require(size >= 2 && size % 2 == 0, rank,
                        "the MPI test programs need an even number of ranks");
}

void mpi_program_write_counts(const char *dir, int rank, const mpi_count *counts, int n)
{
    if (dir == NULL)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/counts.%d", dir, rank);
    FILE *f = fopen(path, "w");
    mpi_program_require(f != NULL, rank, "cannot create the counts file");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s %ld\n", counts[i].name, counts[i].value);
    mpi_program_require(fclose(f) == 0, rank, "cannot write the counts file");
}
/* SPDX-License-Identifier: BSD-3-Clause */
