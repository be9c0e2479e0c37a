/* Writes for the report's DXT timeline test and benchmark: THREADS threads
 * each write WRITES blocks of 64 bytes to their own part of FILE with
 * pwrite, so that a DXT trace of it has one lane per thread.
 * usage: dxt_writers FILE THREADS WRITES */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fd;
static long writes;

static void *writer(void *arg)
{
    long t = (long)arg;
    char block[64] = {0};
    for (long i = 0; i < writes; i++)
        if (pwrite(fd, block, sizeof(block), (t * writes + i) * (off_t)sizeof(block)) < 0)
            return (void *)1;
    return NULL;
}

int main(int argc, char **argv)
{
    long threads = argc == 4 ? strtol(argv[2], NULL, 10) : 0;
    writes = argc == 4 ? strtol(argv[3], NULL, 10) : 0;
    if (threads < 1 || threads > 64 || writes < 1) {
        fprintf(stderr, "usage: dxt_writers FILE THREADS(1-64) WRITES\n");
        return 2;
    }
    pthread_t tid[64];
    if ((fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
        perror(argv[1]);
        return 1;
    }
    for (long t = 0; t < threads; t++)
        if (pthread_create(&tid[t], NULL, writer, (void *)t) != 0)
            return 1;
    int failed = 0;
    for (long t = 0; t < threads; t++) {
        void *r;
        pthread_join(tid[t], &r);
        failed |= r != NULL;
    }
    return close(fd) != 0 || failed;
}
