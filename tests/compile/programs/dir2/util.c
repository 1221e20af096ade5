int two(void);

int two(void)
{
    return 2;
}
