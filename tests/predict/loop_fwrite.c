/* A loop of constant count around fwrite, a nested loop, an unknown bound. */
#include <stdio.h>
#include <stdlib.h>

#define CHUNK 4096
#define NCHUNKS 100

void write_chunks(FILE *fp, const char *buf)
{
    for (int i = 0; i < NCHUNKS; i++)
        fwrite(buf, 1, CHUNK, fp);
}

void write_grid(FILE *fp, const double *row, int ncols)
{
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 20; j++)
            fwrite(row, sizeof(double), 8, fp);
    fflush(fp);
}

long read_all(FILE *fp, char *buf, size_t n)
{
    long total = 0;
    size_t got;
    while ((got = fread(buf, 1, n, fp)) > 0)
        total += (long)got;
    return total;
}

double compute(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * a[i];
    return s;
}

int main(int argc, char **argv)
{
    static char buf[CHUNK];
    double row[8] = {0};
    FILE *fp = fopen("out.bin", "wb");
    if (!fp)
        return 1;
    write_chunks(fp, buf);
    write_grid(fp, row, 8);
    fclose(fp);
    fp = fopen("out.bin", "rb");
    read_all(fp, buf, sizeof buf);
    fclose(fp);
    printf("%f\n", compute(row, argc));
    return 0;
}
