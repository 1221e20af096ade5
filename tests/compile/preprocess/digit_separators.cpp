// C++14 digit separators: OPARI2 2.0.7 crashed on them (it takes the quote
// for a character literal); weft compile leaves them out of numbers first.
#include <cstdio>

int main()
{
    const long n = 1'000;
    const char quote = '\'';
    long s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (long i = 0; i < n; ++i) {
        s += i % 0x1'0;
    }
    std::printf("%ld %c\n", s, quote);
    return 0;
}
// SPDX-License-Identifier: BSD-3-Clause
