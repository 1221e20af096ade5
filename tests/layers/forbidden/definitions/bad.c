/* The lowest layer includes the recorder's header: forbidden. */
#include "weft/status.h"
#include "weft/recorder.h"
