#include <stdio.h>

#include "greeting.h"

int main(void)
{
    puts(GREETING);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
