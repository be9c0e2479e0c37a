/* Four threads at once, each creating its own file and writing 64 blocks of
 * 4 KiB with write(2), then reading them back with 16 reads of 16 KiB. */
#include <fcntl.h>
#include <pthread.h>

#include "wl.h"

#define NTHREADS 4

struct job {
    char path[4096];
    unsigned char *buf;
};

static void *worker(void *arg)
{
    struct job *job = arg;
    int fd = open(job->path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    for (int i = 0; i < 64; i++)
        WL_EXPECT_N(write(fd, job->buf, 4096), 4096, "write");
    WL_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    for (int i = 0; i < 16; i++)
        WL_EXPECT_N(read(fd, job->buf, 16384), 16384, "read");
    WL_CHECK(close(fd) == 0, "close");
    return NULL;
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    pthread_t tid[NTHREADS];
    struct job jobs[NTHREADS];

    for (int t = 0; t < NTHREADS; t++) {
        char name[32];
        snprintf(name, sizeof name, "thread%d.dat", t);
        wl_path(jobs[t].path, sizeof jobs[t].path, dir, name);
        jobs[t].buf = aligned_alloc(4096, 16384);
        WL_CHECK(jobs[t].buf != NULL, "aligned_alloc");
        wl_fill(jobs[t].buf, 16384, 14 + (unsigned)t);
    }
    for (int t = 0; t < NTHREADS; t++)
        WL_CHECK(pthread_create(&tid[t], NULL, worker, &jobs[t]) == 0, "pthread_create");
    for (int t = 0; t < NTHREADS; t++)
        WL_CHECK(pthread_join(tid[t], NULL) == 0, "pthread_join");
    for (int t = 0; t < NTHREADS; t++)
        free(jobs[t].buf);
    return 0;
}
