/* Allowed: the lowest tools folder includes the public weft headers. */
#include <stdio.h>
#include "weft/status.h"
