/* Branch shares and the memory code touches (P10): a flush every tenth
 * step, an else part, a constant condition, scalar variables, call frames,
 * qsort's comparisons, sizeof not evaluated. */
#include <stdio.h>
#include <stdlib.h>

#define VERBOSE 0

long arr[16];

void every_tenth(FILE *fp)
{
    for (int i = 0; i < 100; i++) {
        fputc('x', fp);
        if (i % 10 == 0)
            fflush(fp);
    }
}

void odd_even(FILE *fp)
{
    for (int i = 0; i < 8; i++) {
        if (i % 4 != 0)
            fputc('a', fp);
        else
            fputs("bb", fp);
    }
    if (VERBOSE)
        printf("never\n");
}

int sum10(void)
{
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += i;
    return s;
}

void callee(int a, double b)
{
    arr[a] = (long)b;
}

int cmp(const void *a, const void *b)
{
    return *(const long *)a < *(const long *)b;
}

void caller(void)
{
    callee(1, 2.0);
    qsort(arr, 16, sizeof(arr[0]), cmp);
}

int main(void)
{
    FILE *fp = fopen("out.txt", "w");
    every_tenth(fp);
    odd_even(fp);
    fclose(fp);
    caller();
    return sum10();
}
