/* Three forbidden includes and one allowed one (check_layers' own test). */
#include "../pomp/pomp_internal.h"
#include <otf2/otf2.h>
#include <mpi.h>
#include "weft/recorder.h"
