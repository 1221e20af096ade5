#include <iostream>

int main()
{
    std::cout << "hello from weft compile" << std::endl;
    return 0;
}
