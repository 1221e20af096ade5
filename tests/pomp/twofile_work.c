/* The second file of the two-file program: a loop and a critical section
 * inside the caller's parallel region (orphaned constructs). */
static long shared_counter;

long twofile_work(int repeat)
{
    long local = 0;
#pragma omp for schedule(static)
    for (int i = 0; i < 16; i++)
        local += i * repeat; /* end: for */
#pragma omp critical
    shared_counter++;
    return local;
}
/* SPDX-License-Identifier: BSD-3-Clause */
