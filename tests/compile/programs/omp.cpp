#include <iostream>

#include <omp.h>

int main()
{
    int count = 0, threads = 0;
#pragma omp parallel
    {
#pragma omp critical
        {
            count++;
            threads = omp_get_num_threads();
        }
    }
    std::cout << "threads=" << threads << " count=" << count << std::endl;
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
