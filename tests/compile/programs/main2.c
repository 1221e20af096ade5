#include <stdio.h>

int add(int a, int b);

int main(void)
{
    printf("sum=%d\n", add(2, 3));
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
