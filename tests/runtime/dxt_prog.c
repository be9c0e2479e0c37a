/* The workload of the DXT tests (rt_dxt.sh), run under LD_PRELOAD=libiolens.so.
 *
 *   dxt_prog MODE DIR
 *
 * seq      DIR/a.dat: write 100 (at 0), write 200 (at 100), pwrite 50 at 1000,
 *          lseek to 0, read 100 (at 0), pread 30 at 1000, writev of 10 + 20
 *          (at 100); then DIR/b.dat: pwrite 4096 at 8192, write 10 (at 0),
 *          pread 4096 at 8192. Segments, in order: a.dat writes (0,100)
 *          (100,200) (1000,50) (100,30), reads (0,100) (1000,30); b.dat
 *          writes (8192,4096) (0,10), reads (8192,4096).
 * threads  16 threads, all starting at once; thread k, 5000 times, writes
 *          64 bytes to its own file DIR/tK.dat (its i-th at 64 * i) and 64
 *          bytes to DIR/shared.dat at 64 * (16 * i + k) (pwrite).
 * many     1000 writes of 8 bytes to DIR/m.dat.
 * trig     for the triggers: DIR/s.dat, 10 writes of 100 bytes (small; at 0,
 *          100, ...: 9 not file-aligned); DIR/l.dat, 4 writes of 64 KiB at
 *          multiples of 64 KiB (large, aligned); DIR/u.dat, 4 writes of 64 KiB
 *          at 1 + multiples of 64 KiB (large, not aligned).
 * stdio    DIR/s.txt opened "w+": fwrite 100 (at 0), fwrite 50 (at 100), fseek
 *          to 20, fread 30 (at 20), fseek 0 from the current position,
 *          fprintf of 6 bytes (at 50), rewind, fread 10 (at 0). X_STDIO
 *          segments, in order: writes (0,100) (100,50) (50,6), reads (20,30)
 *          (0,10).
 * forms    DIR/f.dat: the accesses FORMS lists (pwrite, or pread of what is
 *          there), each at the edge of what one word of the trace holds
 *          (src/common/recfile.h): empty accesses, jumps just inside and
 *          just outside the offset and length fields, a pause longer than
 *          the start gap field. Prints each as "write|read OFFSET LENGTH".
 * kill     seq, then SIGKILL to itself (the record file stays behind).
 * Prints "MODE done" at the end. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define NTHREADS 16
#define NWRITES 5000

static const char *dir;
static pthread_barrier_t start;

static void die(const char *what)
{
    fprintf(stderr, "dxt_prog: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* Open DIR/name for reading and writing, created empty. */
static int open_in_dir(const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0)
        die(path);
    return fd;
}

/* Check that a call moved exactly n bytes. */
static void moved(ssize_t got, size_t n, const char *what)
{
    if (got != (ssize_t)n)
        die(what);
}

static void seq(void)
{
    static char buf[8192];
    char x[10], y[20];
    struct iovec iov[2] = {{x, sizeof(x)}, {y, sizeof(y)}};

    memset(buf, 'd', sizeof(buf));
    int fd = open_in_dir("a.dat");
    moved(write(fd, buf, 100), 100, "write");
    moved(write(fd, buf, 200), 200, "write");
    moved(pwrite(fd, buf, 50, 1000), 50, "pwrite");
    if (lseek(fd, 0, SEEK_SET) != 0)
        die("lseek");
    moved(read(fd, buf, 100), 100, "read");
    moved(pread(fd, buf, 30, 1000), 30, "pread");
    moved(writev(fd, iov, 2), 30, "writev");
    close(fd);

    fd = open_in_dir("b.dat");
    moved(pwrite(fd, buf, 4096, 8192), 4096, "pwrite");
    moved(write(fd, buf, 10), 10, "write");
    moved(pread(fd, buf, 4096, 8192), 4096, "pread");
    close(fd);
}

static int shared_fd;

static void *writer(void *arg)
{
    char name[32], buf[64];
    long k = (long)arg;
    memset(buf, 't', sizeof(buf));
    snprintf(name, sizeof(name), "t%ld.dat", k);
    int fd = open_in_dir(name);
    pthread_barrier_wait(&start);
    for (int i = 0; i < NWRITES; i++) {
        moved(write(fd, buf, sizeof(buf)), sizeof(buf), "write");
        off_t at = (off_t)sizeof(buf) * (NTHREADS * (off_t)i + k);
        moved(pwrite(shared_fd, buf, sizeof(buf), at), sizeof(buf), "pwrite");
    }
    close(fd);
    return NULL;
}

static void threads(void)
{
    pthread_t t[NTHREADS];
    shared_fd = open_in_dir("shared.dat");
    pthread_barrier_init(&start, NULL, NTHREADS);
    for (long i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, writer, (void *)i) != 0)
            die("pthread_create");
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    close(shared_fd);
}

static void many(void)
{
    int fd = open_in_dir("m.dat");
    for (int i = 0; i < 1000; i++)
        moved(write(fd, "12345678", 8), 8, "write");
    close(fd);
}

/* 1,000,000 one-byte writes to DIR/million.dat: what the default DXT memory
 * must hold whole. */
static void million(void)
{
    int fd = open_in_dir("million.dat");
    for (int i = 0; i < 1000000; i++)
        moved(write(fd, "x", 1), 1, "write");
    close(fd);
}

/* n writes of size bytes at first, first + size, ... to DIR/name. */
static void writes(const char *name, int n, size_t size, off_t first)
{
    static char buf[65536];
    int fd = open_in_dir(name);
    for (int i = 0; i < n; i++)
        moved(pwrite(fd, buf, size, first + (off_t)size * i), size, "pwrite");
    close(fd);
}

static void trig(void)
{
    writes("s.dat", 10, 100, 0);
    writes("l.dat", 4, 65536, 0);
    writes("u.dat", 4, 65536, 1);
}

static void stdio_rw(void)
{
    char path[4096], buf[100] = {0};
    snprintf(path, sizeof(path), "%s/s.txt", dir);
    FILE *f = fopen(path, "w+");
    if (!f)
        die("fopen");
    if (fwrite(buf, 1, 100, f) != 100 || fwrite(buf, 1, 50, f) != 50)
        die("fwrite");
    if (fseek(f, 20, SEEK_SET) != 0 || fread(buf, 1, 30, f) != 30)
        die("fread at 20");
    if (fseek(f, 0, SEEK_CUR) != 0 || fprintf(f, "%d\n", 12345) != 6)
        die("fprintf");
    rewind(f);
    if (fread(buf, 1, 10, f) != 10)
        die("fread at 0");
    if (fclose(f) != 0)
        die("fclose");
}

/* The accesses of forms: kind (1 write, 0 read), offset, length, and a
 * pause before it in microseconds. */
static const struct access {
    int write;
    off_t offset;
    size_t length;
    unsigned pause_us;
} forms_list[] = {
    {1, 0, 0, 0},                       /* empty, */
    {1, 0, 0, 0},                       /* and again at once: all differences 0 */
    {1, 100, 1, 0},                     /* offset 100 past the end */
    {1, 101 + 262143, 1, 0},            /* the largest forward jump in one word */
    {1, 101 + 262143 + 1 + 262144, 1, 0}, /* one past it */
    {1, 1000, (1u << 20) - 1, 0},       /* the longest length in one word */
    {1, 1000, 1u << 20, 0},             /* one more */
    {1, (off_t)1 << 40, 7, 0},          /* far out */
    {1, ((off_t)1 << 40) + 7 - 262144, 3, 0}, /* the largest backward jump in one word */
    {1, ((off_t)1 << 40) + 3 - 262144 - 262145, 3, 0}, /* one more */
    {1, 4096, 64, 5000},                /* after 5 ms: a gap one word cannot hold */
    {1, 4160, 64, 0},
    {0, 0, 100, 0},
    {0, (off_t)1 << 40, 7, 0},
    {0, 100, 0, 0},
    {0, 100, 4096, 3000},
};

static void forms(void)
{
    static char buf[1u << 20];
    int fd = open_in_dir("f.dat");
    for (size_t i = 0; i < sizeof(forms_list) / sizeof(forms_list[0]); i++) {
        const struct access *a = &forms_list[i];
        if (a->pause_us)
            usleep(a->pause_us);
        ssize_t got = a->write ? pwrite(fd, buf, a->length, a->offset)
                               : pread(fd, buf, a->length, a->offset);
        moved(got, a->length, a->write ? "pwrite" : "pread");
        printf("%s %lld %zu\n", a->write ? "write" : "read", (long long)a->offset, a->length);
    }
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: dxt_prog seq|threads|many|million|trig|stdio|forms|kill DIR\n");
        return 2;
    }
    dir = argv[2];
    if (!strcmp(argv[1], "seq"))
        seq();
    else if (!strcmp(argv[1], "threads"))
        threads();
    else if (!strcmp(argv[1], "many"))
        many();
    else if (!strcmp(argv[1], "million"))
        million();
    else if (!strcmp(argv[1], "trig"))
        trig();
    else if (!strcmp(argv[1], "stdio"))
        stdio_rw();
    else if (!strcmp(argv[1], "forms"))
        forms();
    else if (!strcmp(argv[1], "kill")) {
        seq();
        raise(SIGKILL);
    }
    else
        return 2;
    printf("%s done\n", argv[1]);
    return 0;
}
