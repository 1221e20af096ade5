#include <iostream>

int main()
{
    std::cout << "hello from weft compile" << std::endl;
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
