/* An untied task: OPARI2 makes it tied unless weft compile --keep-untied.
 * `untied` is the last clause on purpose: OPARI2 2.0.7, removing it from
 * "untied shared(x)", also removes the 's' of "shared" (see docs/COMMANDS.md). */
int main(void)
{
    int x = 0;
#pragma omp parallel
#pragma omp single
#pragma omp task shared(x) untied
    x = 1;
    return x - 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
