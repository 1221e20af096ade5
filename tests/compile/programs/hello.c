#include <stdio.h>

int main(void)
{
    puts("hello from weft compile");
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
