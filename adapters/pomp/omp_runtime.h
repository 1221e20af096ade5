/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP runtime as the POMP2 adapter reaches it: whichever runtime the
 * application links (GCC's libgomp, LLVM's libomp, ...), found at run time.
 *
 * libweft links no OpenMP runtime and includes no omp.h: the runtime's
 * functions are weak references resolved against the application's runtime
 * when the program loads, so one libweft serves GCC and Clang builds alike
 * (Score-P needs one installation per runtime). Lock objects are passed
 * through as opaque pointers. Without a runtime (a program that never
 * linked one), the wrappers answer as a one-thread program would. */
#ifndef WEFT_ADAPTERS_POMP_OMP_RUNTIME_H
#define WEFT_ADAPTERS_POMP_OMP_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Team queries. */
int weft__omp_thread_num(void);
int weft__omp_max_threads(void);
int weft__omp_level(void);
int weft__omp_ancestor_thread_num(int level);
int weft__omp_team_size(int level);

/* Lock routines: `lock` is the application's omp_lock_t / omp_nest_lock_t.
 * The Fortran forms call the runtime's Fortran entry points (omp_set_lock_
 * ...), which take the Fortran lock variable. */
typedef enum omp_lock_call {
    OMP_INIT_LOCK,
    OMP_DESTROY_LOCK,
    OMP_SET_LOCK,
    OMP_UNSET_LOCK,
    OMP_TEST_LOCK,
    OMP_INIT_NEST_LOCK,
    OMP_DESTROY_NEST_LOCK,
    OMP_SET_NEST_LOCK,
    OMP_UNSET_NEST_LOCK,
    OMP_TEST_NEST_LOCK,
    OMP_LOCK_CALL_COUNT
} omp_lock_call;

/* Calls the runtime's lock routine; returns its result for the test forms
 * (0 otherwise, and 0 when the runtime lacks the routine: reported once). */
int weft__omp_lock_call(omp_lock_call call, void *lock, bool fortran);

/* The routine's name, "omp_set_lock" ... */
const char *weft__omp_lock_call_name(omp_lock_call call);

/* For a lock passed by value (the merged POMP proposal's lock events): a
 * key that stands for the lock as an address would, when the value
 * identifies the lock, or false when the runtime keeps the lock's state in
 * it (GCC's libgomp). Keys lie in the kernel's half of the address space,
 * so they never equal the address of an object of the program. */
bool weft__omp_lock_value_key(const void *value, size_t size, uintptr_t *key);

#endif /* WEFT_ADAPTERS_POMP_OMP_RUNTIME_H */
