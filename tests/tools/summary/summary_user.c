/* Test program for `weft summary` (check_summary.py, scenario "user"): user
 * regions with known visits around sleeps of known length. nanosleep sleeps
 * at least as long as asked, so each region's inclusive time has a lower
 * bound; the run's wall time, measured by the test, is the upper bound.
 *
 *   work                 1 visit, holds all of the below
 *     sleep_long         3 visits, 40 ms asleep each
 *     pair               2 visits, each holding
 *       sleep_short      2 visits (4 in all), 15 ms asleep each
 *     recurse            4 visits, nested in itself; 5 ms asleep innermost
 *
 * Keep check_summary.py's USER_* constants in step with this file. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <time.h>

#include <weft/user.h>

static void sleep_ms(long ms)
{
    struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        continue;
}

static void recurse(int depth)
{
    WEFT_USER_REGION_BEGIN("recurse");
    if (depth > 1)
        recurse(depth - 1);
    else
        sleep_ms(5);
    WEFT_USER_REGION_END("recurse");
}

int main(void)
{
    WEFT_USER_REGION_BEGIN("work");
    for (int i = 0; i < 3; i++) {
        WEFT_USER_REGION_BEGIN("sleep_long");
        sleep_ms(40);
        WEFT_USER_REGION_END("sleep_long");
    }
    for (int i = 0; i < 2; i++) {
        WEFT_USER_REGION_BEGIN("pair");
        for (int j = 0; j < 2; j++) {
            WEFT_USER_REGION_BEGIN("sleep_short");
            sleep_ms(15);
            WEFT_USER_REGION_END("sleep_short");
        }
        WEFT_USER_REGION_END("pair");
    }
    recurse(4);
    WEFT_USER_REGION_END("work");
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
