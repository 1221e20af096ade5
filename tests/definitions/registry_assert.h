/* Test support: cmocka assertions over whole definition registries. Shared
 * by the unification tests here and the job's unification tests in
 * tests/recorder. */
#ifndef WEFT_TESTS_DEFINITIONS_REGISTRY_ASSERT_H
#define WEFT_TESTS_DEFINITIONS_REGISTRY_ASSERT_H

#include <stdint.h>

#include "weft/definitions.h"
#include "weft/unify.h"

/* Fails the running test unless a and b hold the same definitions under the
 * same ids: strings, regions, communicators with their members, processes,
 * locations, properties, metric members and classes. */
void registry_assert_same(const weft_registry *a, const weft_registry *b);

/* Fails the running test unless the maps of rank `rank` (from unifying its
 * registry `local` into `global`) lead each of its strings, regions,
 * communicators and metric classes to an equal global definition, its
 * thread teams to teams whose members are locations of its own (group
 * `rank`), and, for rank 0 (merged first), are the identity. */
void registry_assert_maps(const weft_registry *global, const weft_registry *local, uint32_t rank,
                          const weft_id_maps *maps);

#endif /* WEFT_TESTS_DEFINITIONS_REGISTRY_ASSERT_H */
/* SPDX-License-Identifier: BSD-3-Clause */
