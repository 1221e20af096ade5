int add(int a, int b);

int add(int a, int b)
{
    return a + b;
}
