int two(void);

int two(void)
{
    return 2;
}
/* SPDX-License-Identifier: BSD-3-Clause */
