// Unbraced bodies of loop constructs OPARI2 2.0.7 misreads: it ends a
// loop by the two `;` of its header and the statement after it. A
// range-based `for` took the two statements after it into the construct
// (every thread ran them: `calls` came out 22, silently); a lambda called
// at once, `try` and a macro's `} while (0)` did not compile. weft compile
// braces such bodies first (compile_cstmt.c).
#include <cstdio>
#include <stdexcept>
#include <vector>

#define SCALE(y, a, n)                                                                             \
    do {                                                                                           \
        _Pragma("omp parallel for num_threads(2)") for (int i_ = 0; i_ < (n); ++i_)(y)[i_] *= (a); \
    } while (0)

int main()
{
    std::vector<int> v(100, 1);
    long s = 0, calls = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int &x : v) s += x;
    calls += 1;
    calls += 10;
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 100; ++i) [&](int k) { v[k] += k; v[k] *= 2; }(i);
    int bad = 0, good = 0;
#pragma omp parallel for reduction(+ : bad, good) num_threads(2)
    for (int i = 0; i < 20; ++i)
        try { if (i % 5 == 0) throw std::runtime_error("x"); good++; } catch (const std::exception &) { bad++; }
    SCALE(v, 3, 100);
    long t = 0;
    for (int x : v) t += x;
    std::printf("s=%ld calls=%ld t=%ld bad=%d good=%d\n", s, calls, t, bad, good);
    return 0;
}
// SPDX-License-Identifier: BSD-3-Clause
