#include <iostream>

#include "greeting.h"

int main()
{
    std::cout << GREETING << std::endl;
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
