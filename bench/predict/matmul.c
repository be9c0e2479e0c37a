/* Compute-heavy kernel with its result saved: two matrices multiplied,
 * the product saved once, read back and transposed. */
#include <stdio.h>

#define N 220

double a[N][N], b[N][N], c[N][N], t[N][N];

void init_matrices(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (i + j) % 10;
            b[i][j] = (i * j) % 7;
        }
}

void multiply(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

void save_matrix(void)
{
    FILE *fp = fopen("product.dat", "wb");
    fwrite(c, sizeof(double), N * N, fp);
    fclose(fp);
}

void save_scaled_rows(double scale)
{
    FILE *fp = fopen("scaled.dat", "wb");
    double row[N];
    for (int i = 0; i < N; i++) {
        for (int r = 0; r < 20; r++)
            for (int j = 0; j < N; j++)
                row[j] = c[i][j] * scale + r;
        fwrite(row, sizeof(double), N, fp);
    }
    fclose(fp);
}

void load_matrix(void)
{
    FILE *fp = fopen("product.dat", "rb");
    fread(t, sizeof(double), N * N, fp);
    fclose(fp);
}

double transpose_trace(void)
{
    double tr = 0;
    for (int r = 0; r < 10; r++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < i; j++) {
                double x = t[i][j];
                t[i][j] = t[j][i];
                t[j][i] = x;
            }
    for (int i = 0; i < N; i++)
        tr += t[i][i];
    return tr;
}

int main(void)
{
    init_matrices();
    multiply();
    save_matrix();
    save_scaled_rows(0.5);
    load_matrix();
    printf("matmul: trace %g\n", transpose_trace());
    return 0;
}
