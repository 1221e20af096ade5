int one(void);

int one(void)
{
    return 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
