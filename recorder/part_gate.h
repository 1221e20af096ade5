/* SPDX-License-Identifier: BSD-3-Clause */
/* The ranks of an MPI job that end together (MPI_Abort on one rank, a
 * signal to the launcher) each write their part of the trace; those that
 * share a node then wait for each other before they die.
 *
 * Why: Open MPI's mpirun (4.1) ends the other ranks with SIGTERM and then
 * sends SIGKILL to every rank of the node still alive as soon as one of
 * them has ended (its wait of odls_base_sigkill_timeout is cut short), so
 * the first rank to finish writing its part cut off the others still
 * writing: a whole rank's part was missing in 1 to 4 of 15 runs of three
 * ranks whose third called MPI_Abort. A rank that has written its part
 * leaves a mark, DIR/journal/HOST.RANK.written; a rank ended by a signal
 * waits, after writing its own part, until every rank of its node has left
 * one (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE) or a deadline passes. Without
 * that variable (another launcher) it does not wait. */
#ifndef WEFT_RECORDER_PART_GATE_H
#define WEFT_RECORDER_PART_GATE_H

#include <stdint.h>

/* This process (RANK) has written its part into the experiment DIR. */
void weft__part_written(const char *dir, uint32_t rank);

/* Waits until every rank of this node has written its part into DIR, or
 * until CLOCK_MONOTONIC reaches DEADLINE_NS. */
void weft__parts_wait(const char *dir, uint64_t deadline_ns);

#endif /* WEFT_RECORDER_PART_GATE_H */
