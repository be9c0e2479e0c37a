/* Text processing: a text written word by word, read back character by
 * character to count word lengths, the counts sorted and reported. */
#include <stdio.h>
#include <stdlib.h>

#define NWORDS 150000
#define MAXLEN 32

long counts[MAXLEN];
long ranked[MAXLEN];

void write_text(void)
{
    static const char *const words[] = {"alpha", "be", "gamma", "delta", "io", "storage"};
    FILE *fp = fopen("text.txt", "w");
    for (int i = 0; i < NWORDS; i++) {
        fputs(words[i % 6], fp);
        fputc(i % 12 == 11 ? '\n' : ' ', fp);
    }
    fclose(fp);
}

void count_words(void)
{
    FILE *fp = fopen("text.txt", "r");
    int c, len = 0;
    while ((c = fgetc(fp)) != EOF) {
        if (c == ' ' || c == '\n') {
            counts[len < MAXLEN ? len : MAXLEN - 1]++;
            len = 0;
        } else {
            len++;
        }
    }
    fclose(fp);
}

int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

void rank_counts(void)
{
    for (int rep = 0; rep < 20000; rep++) {
        for (int i = 0; i < MAXLEN; i++)
            ranked[i] = counts[i] + (rep & 1);
        qsort(ranked, MAXLEN, sizeof(long), cmp_long);
    }
}

void report(void)
{
    FILE *fp = fopen("report.txt", "w");
    for (int i = 0; i < MAXLEN; i++)
        fprintf(fp, "%d %ld\n", i, counts[i]);
    fclose(fp);
}

int main(void)
{
    write_text();
    count_words();
    rank_counts();
    report();
    printf("wordcount: top %ld\n", ranked[0]);
    return 0;
}
