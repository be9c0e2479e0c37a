/* Four threads writing one shared file through one descriptor: each thread
 * pwrites 16 blocks of 4 KiB, block k of thread t at offset (4k+t)*4096.
 * The threads take turns in a fixed order (t = 0, 1, 2, 3, 0, ...), so the
 * sequence of calls, and with it every counter, is the same on every run;
 * the calls still come from four threads. Then the main thread seeks to 0
 * and reads the file back in 16 reads of 16 KiB. */
#include <fcntl.h>
#include <pthread.h>

#include "wl.h"

#define NTHREADS 4
#define BLOCKS 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn;
static int shared_fd;
static _Alignas(4096) unsigned char bufs[NTHREADS][4096];
static _Alignas(4096) unsigned char rbuf[16384];

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int k = 0; k < BLOCKS; k++) {
        int me = k * NTHREADS + t;
        WL_CHECK(pthread_mutex_lock(&lock) == 0, "lock");
        while (turn != me)
            WL_CHECK(pthread_cond_wait(&cond, &lock) == 0, "wait");
        WL_EXPECT_N(pwrite(shared_fd, bufs[t], 4096, (off_t)me * 4096), 4096, "pwrite");
        turn++;
        WL_CHECK(pthread_cond_broadcast(&cond) == 0, "broadcast");
        WL_CHECK(pthread_mutex_unlock(&lock) == 0, "unlock");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    pthread_t tid[NTHREADS];

    wl_path(path, sizeof path, dir, "shared.dat");
    for (int t = 0; t < NTHREADS; t++)
        wl_fill(bufs[t], sizeof bufs[t], 20 + (unsigned)t);
    shared_fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(shared_fd >= 0, "open");
    for (int t = 0; t < NTHREADS; t++)
        WL_CHECK(pthread_create(&tid[t], NULL, worker, (void *)(intptr_t)t) == 0,
                 "pthread_create");
    for (int t = 0; t < NTHREADS; t++)
        WL_CHECK(pthread_join(tid[t], NULL) == 0, "pthread_join");
    WL_CHECK(lseek(shared_fd, 0, SEEK_SET) == 0, "lseek");
    for (int i = 0; i < 16; i++)
        WL_EXPECT_N(read(shared_fd, rbuf, sizeof rbuf), sizeof rbuf, "read");
    WL_CHECK(close(shared_fd) == 0, "close");
    return 0;
}
