/* Instrumented from a directory whose name holds ':' and from one whose
 * path makes the CTC string longer than 1000 bytes (see README.md). */
int main(void)
{
    int x = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        x++;
    }
    return x == 0;
}
