/* Communicators; see pmpi_internal.h. (Placeholder.) */
#include "pmpi_internal.h"

void weft__pmpi_comms_init(void)
{
}
