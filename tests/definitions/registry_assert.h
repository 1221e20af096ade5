/* Test support: cmocka assertions over whole definition registries. Shared
 * by the unification tests here and the job's unification tests in
 * tests/recorder. */
#ifndef WEFT_TESTS_DEFINITIONS_REGISTRY_ASSERT_H
#define WEFT_TESTS_DEFINITIONS_REGISTRY_ASSERT_H

#include "weft/definitions.h"

/* Fails the running test unless a and b hold the same definitions under the
 * same ids: strings, regions, communicators with their members, processes,
 * locations, properties, metric members and classes. */
void registry_assert_same(const weft_registry *a, const weft_registry *b);

#endif /* WEFT_TESTS_DEFINITIONS_REGISTRY_ASSERT_H */
