/* Stencil with periodic output: a 2-D heat equation, the grid written out
 * every few sweeps and a summary line each sweep: the total heat (the
 * quantity the scheme conserves, the usual check) and the peak. */
#include <stdio.h>

#define N 512
#define NSWEEPS 60
#define OUTPUT_EVERY 15

double grid[N][N], next[N][N];

void init_grid(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            grid[i][j] = (i == N / 2 && j == N / 2) ? 1000.0 : 0.0;
}

void sweep(void)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            next[i][j] = 0.25 * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            grid[i][j] = next[i][j];
}

void dump_grid(int step)
{
    char name[64];
    snprintf(name, sizeof name, "grid%03d.dat", step);
    FILE *fp = fopen(name, "wb");
    for (int i = 0; i < N; i++)
        fwrite(grid[i], sizeof(double), N, fp);
    fclose(fp);
}

void write_summary(FILE *fp, int step)
{
    double total = 0, peak = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            total += grid[i][j];
            if (grid[i][j] > peak)
                peak = grid[i][j];
        }
    fprintf(fp, "%d %g %g\n", step, total, peak);
}

int main(void)
{
    FILE *summary = fopen("summary.txt", "w");
    init_grid();
    for (int s = 0; s < NSWEEPS; s++) {
        sweep();
        write_summary(summary, s);
        if (s % OUTPUT_EVERY == 0)
            dump_grid(s);
    }
    fclose(summary);
    printf("stencil: centre %g\n", grid[N / 2][N / 2]);
    return 0;
}
