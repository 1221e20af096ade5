/* SPDX-License-Identifier: BSD-3-Clause */
/* Weak references to the application's OpenMP runtime; see omp_runtime.h. */
#include "omp_runtime.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "weft/log.h"

/* Declared here, not taken from omp.h: the adapter must not depend on one
 * runtime's header, and only pointers to locks cross this boundary. */
extern int omp_get_thread_num(void) __attribute__((weak));
extern int omp_get_max_threads(void) __attribute__((weak));
extern int omp_get_level(void) __attribute__((weak));
extern int omp_get_ancestor_thread_num(int level) __attribute__((weak));
extern int omp_get_team_size(int level) __attribute__((weak));
/* One of the kmp_* extensions LLVM's libomp (and Intel's runtime, its
 * origin) export and GCC's libgomp does not: tells the runtimes apart. */
extern int kmp_get_blocktime(void) __attribute__((weak));

#define LOCK_ROUTINES(X)                                                                           \
    X(OMP_INIT_LOCK, omp_init_lock, void)                                                          \
    X(OMP_DESTROY_LOCK, omp_destroy_lock, void)                                                    \
    X(OMP_SET_LOCK, omp_set_lock, void)                                                            \
    X(OMP_UNSET_LOCK, omp_unset_lock, void)                                                        \
    X(OMP_TEST_LOCK, omp_test_lock, int)                                                           \
    X(OMP_INIT_NEST_LOCK, omp_init_nest_lock, void)                                                \
    X(OMP_DESTROY_NEST_LOCK, omp_destroy_nest_lock, void)                                          \
    X(OMP_SET_NEST_LOCK, omp_set_nest_lock, void)                                                  \
    X(OMP_UNSET_NEST_LOCK, omp_unset_nest_lock, void)                                              \
    X(OMP_TEST_NEST_LOCK, omp_test_nest_lock, int)

/* C and Fortran entry points of every lock routine, all weak. */
#define DECLARE(call, name, result)                                                                \
    extern result name(void *lock) __attribute__((weak));                                          \
    extern result name##_(void *lock) __attribute__((weak));
LOCK_ROUTINES(DECLARE)
#undef DECLARE

int weft__omp_thread_num(void)
{
    return omp_get_thread_num ? omp_get_thread_num() : 0;
}

int weft__omp_max_threads(void)
{
    return omp_get_max_threads ? omp_get_max_threads() : 1;
}

int weft__omp_level(void)
{
    return omp_get_level ? omp_get_level() : 0;
}

int weft__omp_ancestor_thread_num(int level)
{
    return omp_get_ancestor_thread_num ? omp_get_ancestor_thread_num(level) : 0;
}

int weft__omp_team_size(int level)
{
    return omp_get_team_size ? omp_get_team_size(level) : 1;
}

const char *weft__omp_lock_call_name(omp_lock_call call)
{
#define NAME(call, name, result) #name,
    static const char *const names[] = {LOCK_ROUTINES(NAME)};
#undef NAME
    return call < OMP_LOCK_CALL_COUNT ? names[call] : "omp_unknown_lock_routine";
}

static void missing(omp_lock_call call, bool fortran)
{
    static _Atomic int reported;
    if (!reported++)
        weft_log_error("the program called %s%s, but no OpenMP runtime provides it; the lock "
                       "is not taken",
                       weft__omp_lock_call_name(call), fortran ? "_" : "");
}

int weft__omp_lock_call(omp_lock_call call, void *lock, bool fortran)
{
    switch (call) {
#define CALL_VOID(name)                                                                            \
    do {                                                                                           \
        void (*fn)(void *) = fortran ? name##_ : name;                                             \
        if (!fn)                                                                                   \
            break;                                                                                 \
        fn(lock);                                                                                  \
        return 0;                                                                                  \
    } while (0)
#define CALL_INT(name)                                                                             \
    do {                                                                                           \
        int (*fn)(void *) = fortran ? name##_ : name;                                              \
        if (!fn)                                                                                   \
            break;                                                                                 \
        return fn(lock);                                                                           \
    } while (0)
    case OMP_INIT_LOCK:
        CALL_VOID(omp_init_lock);
        break;
    case OMP_DESTROY_LOCK:
        CALL_VOID(omp_destroy_lock);
        break;
    case OMP_SET_LOCK:
        CALL_VOID(omp_set_lock);
        break;
    case OMP_UNSET_LOCK:
        CALL_VOID(omp_unset_lock);
        break;
    case OMP_TEST_LOCK:
        CALL_INT(omp_test_lock);
        break;
    case OMP_INIT_NEST_LOCK:
        CALL_VOID(omp_init_nest_lock);
        break;
    case OMP_DESTROY_NEST_LOCK:
        CALL_VOID(omp_destroy_nest_lock);
        break;
    case OMP_SET_NEST_LOCK:
        CALL_VOID(omp_set_nest_lock);
        break;
    case OMP_UNSET_NEST_LOCK:
        CALL_VOID(omp_unset_nest_lock);
        break;
    case OMP_TEST_NEST_LOCK:
        CALL_INT(omp_test_nest_lock);
        break;
    default:
        break;
#undef CALL_VOID
#undef CALL_INT
    }
    missing(call, fortran);
    return 0;
}

/* libomp's omp_lock_t and omp_nest_lock_t are one pointer-sized word. For
 * its default (indirect) locks the word is the lock's index in the
 * runtime's lock table shifted left by one: even, and the same while the
 * lock lives (LLVM 14: 0, 2, 4 for three locks, unchanged by set and unset).
 * Its direct locks (KMP_LOCK_KIND=tas, futex, ...) keep their state there
 * instead, tagged odd. libgomp always keeps the state (4 bytes; 16 for a
 * nest lock): never an identity. */
bool weft__omp_lock_value_key(const void *value, size_t size, uintptr_t *key)
{
    uintptr_t word;
    if (!kmp_get_blocktime || size != sizeof(word))
        return false;
    memcpy(&word, value, sizeof(word));
    if (word & 1)
        return false;
    *key = word ^ ((uintptr_t)1 << (sizeof(word) * CHAR_BIT - 1));
    return true;
}
