// A loop construct over a range-based for with an unbraced body: OPARI2
// reading it unpreprocessed takes the next statement into the construct.
#include <cstdio>
#include <vector>

int main()
{
    std::vector<int> v(10, 1);
    long s = 0, calls = 0;
#pragma omp parallel for reduction(+ : s)
    for (int &x : v) s += x;
    calls += 1;
    std::printf("%ld %ld\n", s, calls);
    return 0;
}
// SPDX-License-Identifier: BSD-3-Clause
