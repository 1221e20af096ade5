int add(int a, int b);

int add(int a, int b)
{
    return a + b;
}
/* SPDX-License-Identifier: BSD-3-Clause */
