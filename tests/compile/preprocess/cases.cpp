// The preprocessor cases of issue 19 in C++: a construct's block chosen by
// #ifdef, a worksharing loop whose header #if chooses, an unbraced
// construct before `else`, and a construct from _Pragma in a macro.
#include <cstdio>
#include <vector>

#define LOOP_FOR _Pragma("omp for")

template <typename T> static T total(const std::vector<T> &v)
{
    T sum = 0;
#pragma omp parallel reduction(+ : sum)
#ifdef WEFT_TEST_ALTERNATIVE
    {
        sum = 0;
    }
#else
    {
        LOOP_FOR
        for (std::size_t i = 0; i < v.size(); i++)
            sum += v[i];
    }
#endif
    return sum;
}

static int scale(std::vector<int> &v, bool parallel)
{
    if (parallel)
#pragma omp parallel for
#if 1
        for (std::size_t i = 0; i < v.size(); i++)
#else
        for (std::size_t i = v.size(); i-- > 0;)
#endif
            v[i] *= 3;
    else
        v[0] = -1;
    return v[v.size() - 1];
}

int main()
{
    std::vector<int> v(50, 2);
    int last = scale(v, true);
    std::printf("total=%d last=%d\n", total(v), last);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
