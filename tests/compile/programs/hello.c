#include <stdio.h>

int main(void)
{
    puts("hello from weft compile");
    return 0;
}
