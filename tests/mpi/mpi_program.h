/* Helpers the MPI test programs share (mpi_program.c): checking results,
 * and writing the counts file the checker reads (see mpi_scenarios.h).
 * They call no MPI function except MPI_Abort on a failed check, so they
 * add nothing to the trace of a run that succeeds. */
#ifndef WEFT_TESTS_MPI_PROGRAM_H
#define WEFT_TESTS_MPI_PROGRAM_H

/* Stops the whole job (MPI_Abort) with "RANK: WHAT" on stderr unless ok. */
void mpi_program_require(int ok, int rank, const char *what);

/* Stops the job unless the world has an even number of ranks (every test
 * program pairs ranks). */
void mpi_program_require_even(int rank, int size);

/* Writes COUNTS_DIR/counts.RANK with one "NAME VALUE" line per entry;
 * does nothing when dir is NULL. Stops the job if the file cannot be
 * written. */
typedef struct mpi_count {
    const char *name;
    long value;
} mpi_count;
void mpi_program_write_counts(const char *dir, int rank, const mpi_count *counts, int n);

#endif
/* SPDX-License-Identifier: BSD-3-Clause */
