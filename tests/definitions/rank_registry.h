/* Test fixture: the local definition registry of one rank of a simulated
 * MPI job, as the recorder and its adapters would fill it. Shared by the
 * unification and OTF2 writer tests. */
#ifndef WEFT_TESTS_DEFINITIONS_RANK_REGISTRY_H
#define WEFT_TESTS_DEFINITIONS_RANK_REGISTRY_H

#include <stdint.h>

#include "weft/definitions.h"

/* Rank r of a job of `size` ranks has fixture_thread_count(r) locations
 * (threads 0, 1, ...; thread 0 registered before the rank is known), runs on
 * host "node-<r / 2>" and registers, in this order:
 *   - on odd ranks a region "odd_only", then regions "main" and "compute"
 *     (file "solver.c", lines 10-20) on every rank;
 *   - MPI_COMM_WORLD (members 0 ... size-1), MPI_COMM_SELF (no members),
 *     "split <r % 2>" (key fixture_split_key(r % 2), members: the world
 *     ranks of that colour in order);
 *   - a thread team (OPENMP, no parent, key 0, generated name) whose member
 *     at position t is the location of thread t;
 *   - on rank 1 only, a nested team (parent: that team, key 5) with the
 *     location of thread 1 at position 0;
 *   - per location the property "weft::chunks_flushed" = 10 r + t and the
 *     event count 100 r + t.
 * Returns NULL when something failed. */
weft_registry *fixture_rank_registry(uint32_t rank, uint32_t size);

uint32_t fixture_thread_count(uint32_t rank);
uint64_t fixture_split_key(uint32_t color);

#endif /* WEFT_TESTS_DEFINITIONS_RANK_REGISTRY_H */
/* SPDX-License-Identifier: BSD-3-Clause */
