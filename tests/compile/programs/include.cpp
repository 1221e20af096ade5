#include <iostream>

#include "greeting.h"

int main()
{
    std::cout << GREETING << std::endl;
    return 0;
}
