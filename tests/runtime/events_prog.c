/* A known workload for the live-events tests (rt_events.sh).
 *
 *   events_prog MODE DIR [N]
 *
 * known: DIR/a: open, 10 pwrite of 100 bytes at 100*i, 5 pread of 50 bytes
 *   at 200*i, fsync, close; DIR/s: fopen, 3 fwrite of 10 bytes with fflush
 *   after each, fclose; 4 threads, each 50 writes of 8 bytes to DIR/t<i>.
 * escape: one write to a file whose name holds '"', '\\', a tab and \001.
 * many: N one-byte writes to DIR/m, then: return (exit), _exit, exec of
 *   /bin/true, SIGSEGV (raised), or fork (N more in the child, on DIR/c,
 *   after which both exit), or forkwait (fork as fork does, once a line
 *   came on stdin). Prints "MODE done" when it gets to the end.
 * paced: N one-byte writes to DIR/m, 1 ms of sleep after every 10.
 * maps: one write to DIR/m, 0.3 s of sleep (the events thread starts), then
 *   /proc/self/maps copied to stdout. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir;

static int open_in(const char *name)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    int fd = open(p, O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (fd < 0) {
        perror(p);
        exit(1);
    }
    return fd;
}

static void *thread_writes(void *arg)
{
    char name[16];
    snprintf(name, sizeof(name), "t%d", (int)(long)arg);
    int fd = open_in(name);
    for (int i = 0; i < 50; i++)
        if (write(fd, "12345678", 8) != 8)
            exit(1);
    close(fd);
    return NULL;
}

static void known(void)
{
    char b[100] = {0}, p[4096];
    int fd = open_in("a");
    for (int i = 0; i < 10; i++)
        if (pwrite(fd, b, 100, 100 * i) != 100)
            exit(1);
    for (int i = 0; i < 5; i++)
        if (pread(fd, b, 50, 200 * i) != 50)
            exit(1);
    fsync(fd);
    close(fd);
    snprintf(p, sizeof(p), "%s/s", dir);
    FILE *f = fopen(p, "w");
    for (int i = 0; i < 3; i++) {
        fwrite("0123456789", 1, 10, f);
        fflush(f);
    }
    fclose(f);
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, thread_writes, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
}

static void writes(const char *name, long n)
{
    int fd = open_in(name);
    for (long i = 0; i < n; i++)
        if (write(fd, "x", 1) != 1)
            exit(1);
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *mode = argv[1];
    dir = argv[2];
    long n = argc > 3 ? strtol(argv[3], NULL, 10) : 0;
    if (!strcmp(mode, "known")) {
        known();
    } else if (!strcmp(mode, "escape")) {
        int fd = open_in("q\"b\\s\tt\001x");
        if (write(fd, "x", 1) != 1)
            return 1;
        close(fd);
    } else if (!strcmp(mode, "maps")) {
        writes("m", 1);
        struct timespec t = {0, 300000000};
        nanosleep(&t, NULL);
        char b[65536];
        int fd = open("/proc/self/maps", O_RDONLY);
        ssize_t got;
        while (fd >= 0 && (got = read(fd, b, sizeof(b))) > 0)
            if (write(1, b, (size_t)got) != got)
                return 1;
        return 0;
    } else if (!strcmp(mode, "paced")) {
        int fd = open_in("m");
        struct timespec ms = {0, 1000000};
        for (long i = 0; i < n; i++) {
            if (write(fd, "x", 1) != 1)
                return 1;
            if (i % 10 == 9)
                nanosleep(&ms, NULL);
        }
        close(fd);
    } else if (!strncmp(mode, "many", 4)) {
        writes("m", n);
        const char *how = mode + 4;
        printf("%s done\n", mode);
        fflush(stdout);
        if (!strcmp(how, "_exit"))
            _exit(0);
        if (!strcmp(how, "exec"))
            execl("/bin/true", "true", (char *)NULL);
        if (!strcmp(how, "signal"))
            raise(SIGSEGV);
        if (!strcmp(how, "forkwait")) {
            char line[16];
            if (!fgets(line, sizeof(line), stdin))
                return 1;
        }
        if (!strncmp(how, "fork", 4)) {
            pid_t c = fork();
            if (c == 0) {
                writes("c", n);
                exit(0);
            }
            int st;
            waitpid(c, &st, 0);
            return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
        }
        return 0;
    } else {
        return 2;
    }
    printf("%s done\n", mode);
    return 0;
}
