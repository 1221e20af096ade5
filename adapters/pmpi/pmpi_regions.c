/* SPDX-License-Identifier: BSD-3-Clause */
/* Registering the regions of the MPI functions, on their first call; see
 * pmpi_regions.h. The names and file follow Score-P ("MPI_Send", file
 * "MPI", lines 0, paradigm MPI): Scalasca classifies MPI regions by exactly
 * these (docs/dev/OTF2-CONVENTIONS.md, section 4). */
#include "pmpi_regions.h"

#include <stdbool.h>

#include "weft/log.h"

weft_region weft__pmpi_region_slow(unsigned function)
{
    static atomic_bool reported;
    const weft_pmpi_function *f = &weft__pmpi_functions[function];
    weft_region_desc desc = {.name = f->name,
                             .canonical_name = f->name,
                             .file = "MPI",
                             .begin_line = 0,
                             .end_line = 0,
                             .role = f->role,
                             .paradigm = WEFT_PARADIGM_MPI};
    weft_registry *reg = weft_defs_global();
    weft_region region = WEFT_REGION_INVALID;
    if (!reg || weft_registry_region(reg, &desc, &region) != WEFT_OK) {
        if (!atomic_exchange_explicit(&reported, true, memory_order_relaxed))
            weft_log_error("cannot register the region of %s; its calls are not recorded", f->name);
        return WEFT_REGION_INVALID;
    }
    /* Release: a thread that reads the slot with acquire (weft__pmpi_region)
     * sees the registry's definition of the region complete. */
    atomic_store_explicit(&weft__pmpi_region_slots[function], region.id + 1, memory_order_release);
    return region;
}
