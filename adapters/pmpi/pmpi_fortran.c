/* SPDX-License-Identifier: BSD-3-Clause */
/* What the Fortran wrappers need beyond the hooks: Fortran's MPI_IN_PLACE
 * and status arguments; see pmpi_hooks.h.
 *
 * Fortran passes MPI_IN_PLACE as the address of a common block member: in
 * Open MPI the block mpi_fortran_in_place_ (gfortran's name for
 * /mpi_fortran_in_place/), in MPICH the member whose address MPICH keeps in
 * MPIR_F_MPI_IN_PLACE once MPI is initialised. Both are looked up at run
 * time, so libweft-mpi links against either; with neither, only the
 * in-place byte rule is lost. MPI_F_STATUS_IGNORE is the C name of
 * Fortran's MPI_STATUS_IGNORE (MPI-3 section 17.2.5). */
#include "pmpi_hooks.h"

#include <dlfcn.h>
#include <stdatomic.h>

/* The count of MPI_Fint a Fortran status has must cover a C status. */
_Static_assert(WEFT_PMPI_F_STATUS_SIZE * sizeof(MPI_Fint) >= sizeof(MPI_Status),
               "MPI_STATUS_SIZE does not cover an MPI_Status");

/* Fortran's MPI_IN_PLACE address; found on the first call (inside MPI, so
 * MPICH has set its pointer). NULL when neither MPI's symbol exists. */
static const void *fortran_in_place(void)
{
    static _Atomic(const void *) address;
    static atomic_bool looked_up;
    if (atomic_load_explicit(&looked_up, memory_order_acquire))
        return atomic_load_explicit(&address, memory_order_relaxed);
    const void *found = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_"); /* Open MPI */
    if (!found) {
        void *const *mpich = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
        found = mpich ? *mpich : NULL;
    }
    atomic_store_explicit(&address, found, memory_order_relaxed);
    atomic_store_explicit(&looked_up, found != NULL, memory_order_release);
    return found;
}

const void *weft__pmpi_f_buffer(const void *buffer)
{
    const void *in_place = fortran_in_place();
    if (in_place && buffer == in_place)
        return MPI_IN_PLACE;
    return buffer;
}

MPI_Fint *weft__pmpi_f_status_arg(MPI_Fint *status, MPI_Fint *local)
{
    return status == MPI_F_STATUS_IGNORE ? local : status;
}

const MPI_Status *weft__pmpi_f_status_read(int ret, const MPI_Fint *f_status, MPI_Status *c_status)
{
    if (ret != MPI_SUCCESS || PMPI_Status_f2c(f_status, c_status) != MPI_SUCCESS)
        return NULL;
    return c_status;
}
