int twice(int v)
{
    return 2 * v
}
/* SPDX-License-Identifier: BSD-3-Clause */
