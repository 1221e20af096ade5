/* What the Fortran wrappers need beyond the hooks: Fortran's MPI_IN_PLACE
 * and status arguments; see pmpi_hooks.h.
 *
 * Fortran passes MPI_IN_PLACE as the address of a common block of Open
 * MPI's (mpi_fortran_in_place_, gfortran's name for /mpi_fortran_in_place/);
 * it is declared weak here, so a library without it (another MPI) only
 * loses the in-place byte rule. MPI_F_STATUS_IGNORE is the C name of
 * Fortran's MPI_STATUS_IGNORE (MPI-3 section 17.2.5). */
#include "pmpi_hooks.h"

/* The count of MPI_Fint a Fortran status has must cover a C status. */
_Static_assert(WEFT_PMPI_F_STATUS_SIZE * sizeof(MPI_Fint) >= sizeof(MPI_Status),
               "MPI_STATUS_SIZE does not cover an MPI_Status");

extern int mpi_fortran_in_place_ __attribute__((weak));

const void *weft__pmpi_f_buffer(const void *buffer)
{
    if (&mpi_fortran_in_place_ != NULL && buffer == (const void *)&mpi_fortran_in_place_)
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
