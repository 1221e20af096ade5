// Test program: the user API from C++, in a function, a loop and a lambda.
#include <cstdio>

#include <weft/user.h>

static int square(int x)
{
    WEFT_USER_REGION_BEGIN("square");
    int result = x * x;
    WEFT_USER_REGION_END("square");
    return result;
}

int main()
{
    WEFT_USER_REGION_BEGIN("cxx_main");
    int sum = 0;
    for (int i = 0; i < 25; i++)
        sum += square(i);
    auto twice = [](int v) {
        WEFT_USER_REGION_BEGIN("lambda");
        WEFT_USER_REGION_END("lambda");
        return 2 * v;
    };
    sum = twice(sum);
    std::printf("%d\n", sum);
    WEFT_USER_REGION_END("cxx_main");
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
