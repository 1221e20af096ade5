// OpenMP in C++, instrumented by OPARI2 through weft compile;
// check_pomp_trace (kind "cxx") predicts every count: REPEATS = 3 parallel
// regions over a std::vector, a member function with a critical section.
#include <cstdio>
#include <omp.h>
#include <vector>

namespace {
class Accumulator {
  public:
    void add(long v)
    {
#pragma omp critical(accumulate)
        total_ += v;
    }
    long total() const { return total_; }

  private:
    long total_ = 0;
};
} // namespace

int main()
{
    const int repeats = 3;
    std::vector<long> values(32);
    Accumulator acc;
    for (int r = 0; r < repeats; r++) {
#pragma omp parallel shared(values, acc)
        {
#pragma omp for schedule(static)
            for (int i = 0; i < 32; i++)
                values[i] = i * (r + 1); // end: for
            acc.add(1);
#pragma omp single
            acc.add(values[31]); // end: single
        } // end: parallel
    }
    std::printf("%ld\n", acc.total());
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
