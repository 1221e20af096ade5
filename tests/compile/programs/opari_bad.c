/* OPARI2 rejects this: a worksharing loop with no loop after it. */
int main(void)
{
#pragma omp for
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
