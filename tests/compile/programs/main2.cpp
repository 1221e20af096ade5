#include <iostream>

int add(int a, int b);

int main()
{
    std::cout << "sum=" << add(2, 3) << std::endl;
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
