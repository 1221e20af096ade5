/* Clock offsets against rank 0; see pmpi_internal.h. (Placeholder: filled
 * in by the clock synchronisation change.) */
#include "pmpi_internal.h"

void weft__pmpi_clock_sync(MPI_Comm comm)
{
    (void)comm;
}

void weft__pmpi_clock_checkpoint(void)
{
}
