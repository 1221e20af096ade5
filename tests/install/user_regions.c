/* The README's user-region example as a whole program: built against an
 * installed weft by run_installed.sh, through pkg-config and through weft
 * compile. */
#include <stdio.h>

#include <weft/user.h>

int main(void)
{
    double sum = 0;
    for (int step = 0; step < 3; step++) {
        WEFT_USER_REGION_BEGIN("solve");
        for (int i = 1; i <= 1000; i++)
            sum += 1.0 / i;
        WEFT_USER_REGION_END("solve");
    }
    printf("sum %.3f\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
