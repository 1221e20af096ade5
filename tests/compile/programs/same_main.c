#include <stdio.h>

int one(void);
int two(void);

int main(void)
{
    printf("one+two=%d\n", one() + two());
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
