/* SPDX-License-Identifier: BSD-3-Clause */
/* The region of every wrapped MPI function ("MPI_Send", file "MPI", role
 * from mpi_functions.spec), registered the first time the function is
 * called and then read with one load per call.
 *
 * The table of functions and the slots holding their regions are generated
 * (mpi_wrappers.c); the C and the Fortran wrapper of a function share one
 * slot, so both record the same region. */
#ifndef WEFT_PMPI_REGIONS_H
#define WEFT_PMPI_REGIONS_H

#include <stdatomic.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/definitions.h"
#include "weft/recorder.h"


/* One wrapped function: its name (the region's name and canonical name)
 * and the region's role. */
typedef struct weft_pmpi_function {
    const char *name;
    weft_region_role role;
} weft_pmpi_function;

/* Indexed by WEFT_PMPI_<name> (mpi_wrappers.h); generated. */
extern const weft_pmpi_function weft__pmpi_functions[];

/* The region handle of each function plus one; 0 until registered. Written
 * by weft__pmpi_region_slow (release store), read by weft__pmpi_region
 * (acquire load). Zero-initialised; generated. */
extern _Atomic uint32_t weft__pmpi_region_slots[];

/* Registers the region of `function` and publishes it in its slot. Returns
 * WEFT_REGION_INVALID (and reports once) when the registry cannot take it;
 * the next call tries again. Thread-safe: racing first calls get the same
 * region from the registry. */
weft_region weft__pmpi_region_slow(unsigned function);

/* The region of `function`. Hot path: one acquire load (a plain load on
 * x86). */
static inline weft_region weft__pmpi_region(unsigned function)
{
    /* Acquire: pairs with the release store in weft__pmpi_region_slow. */
    uint32_t slot = atomic_load_explicit(&weft__pmpi_region_slots[function], memory_order_acquire);
    if (WEFT_UNLIKELY(slot == 0))
        return weft__pmpi_region_slow(function);
    return (weft_region){slot - 1};
}

/* Enter and leave; a region that could not be registered records nothing
 * (both halves see the same handle, so pairs stay balanced). */
static inline void weft__pmpi_enter(weft_region region)
{
    if (WEFT_LIKELY(region.id != WEFT_INVALID_ID))
        weft_enter(region);
}

static inline void weft__pmpi_leave(weft_region region)
{
    if (WEFT_LIKELY(region.id != WEFT_INVALID_ID))
        weft_leave(region);
}

#endif /* WEFT_PMPI_REGIONS_H */
