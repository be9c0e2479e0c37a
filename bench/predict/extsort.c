/* External sort: records written to a file, sorted in runs that fit in
 * memory, the runs merged record by record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NRECORDS 400000
#define RUN_RECORDS 50000
#define NRUNS (NRECORDS / RUN_RECORDS)

long keys[RUN_RECORDS];

void make_input(void)
{
    FILE *fp = fopen("input.dat", "wb");
    long chunk[1024];
    unsigned long x = 12345;
    for (int i = 0; i < NRECORDS / 1024; i++) {
        for (int j = 0; j < 1024; j++) {
            x = x * 6364136223846793005ul + 1442695040888963407ul;
            chunk[j] = (long)(x >> 17);
        }
        fwrite(chunk, sizeof(long), 1024, fp);
    }
    fclose(fp);
}

int compare_keys(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

void sort_runs(void)
{
    FILE *in = fopen("input.dat", "rb");
    char name[64];
    for (int r = 0; r < NRUNS; r++) {
        fread(keys, sizeof(long), RUN_RECORDS, in);
        qsort(keys, RUN_RECORDS, sizeof(long), compare_keys);
        snprintf(name, sizeof name, "run%d.dat", r);
        FILE *out = fopen(name, "wb");
        fwrite(keys, sizeof(long), RUN_RECORDS, out);
        fclose(out);
    }
    fclose(in);
}

void merge_runs(void)
{
    FILE *runs[NRUNS], *out = fopen("sorted.dat", "wb");
    long head[NRUNS];
    int live[NRUNS];
    char name[64];
    for (int r = 0; r < NRUNS; r++) {
        snprintf(name, sizeof name, "run%d.dat", r);
        runs[r] = fopen(name, "rb");
        live[r] = fread(&head[r], sizeof(long), 1, runs[r]) == 1;
    }
    for (long n = 0; n < NRECORDS; n++) {
        int best = -1;
        for (int r = 0; r < NRUNS; r++)
            if (live[r] && (best < 0 || head[r] < head[best]))
                best = r;
        fwrite(&head[best], sizeof(long), 1, out);
        live[best] = fread(&head[best], sizeof(long), 1, runs[best]) == 1;
    }
    for (int r = 0; r < NRUNS; r++)
        fclose(runs[r]);
    fclose(out);
}

long check_sorted(void)
{
    FILE *fp = fopen("sorted.dat", "rb");
    long prev = -1, bad = 0, v;
    for (long n = 0; n < NRECORDS; n++) {
        fread(&v, sizeof(long), 1, fp);
        bad += v < prev;
        prev = v;
    }
    fclose(fp);
    return bad;
}

int main(void)
{
    make_input();
    sort_runs();
    merge_runs();
    long bad = check_sorted();
    printf("extsort: %ld out of order\n", bad);
    return bad != 0;
}
