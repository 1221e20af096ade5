/* A user region in a file of its own, for the file rules of the filter
 * test (lifecycle.c, mode "filtered"). */
#include <weft/user.h>

void lifecycle_gamma(int count);

void lifecycle_gamma(int count)
{
    for (int i = 0; i < count; i++) {
        WEFT_USER_REGION_BEGIN("gamma");
        WEFT_USER_REGION_END("gamma");
    }
}
/* SPDX-License-Identifier: BSD-3-Clause */
