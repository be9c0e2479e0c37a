/* A workload that lasts a few seconds, for iolens serve's test: ROUNDS
 * rounds, PAUSE_MS apart, each writing 4 KiB to DIR/data.0 and 1 KiB to
 * DIR/data.1 and reading 2 KiB back from DIR/data.0, then one write to a file
 * whose name needs escaping in HTML and JSON.
 *
 *   paced_writer DIR ROUNDS PAUSE_MS */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int open_in(const char *dir, const char *name)
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

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: paced_writer DIR ROUNDS PAUSE_MS\n");
        return 2;
    }
    int rounds = (int)strtol(argv[2], NULL, 10);
    long pause_ms = strtol(argv[3], NULL, 10);
    static char buf[4096];
    memset(buf, 'x', sizeof(buf));
    int a = open_in(argv[1], "data.0"), b = open_in(argv[1], "data.1");
    for (int i = 0; i < rounds; i++) {
        if (pwrite(a, buf, 4096, (off_t)i * 4096) != 4096 ||
            pwrite(b, buf, 1024, (off_t)i * 1024) != 1024 ||
            pread(a, buf, 2048, (off_t)i * 4096) != 2048) {
            perror("I/O");
            return 1;
        }
        if (i + 1 < rounds)
            nanosleep(&(struct timespec){pause_ms / 1000, (pause_ms % 1000) * 1000000L}, NULL);
    }
    close(a);
    close(b);
    int e = open_in(argv[1], "esc <b>\"q'&.dat");
    if (write(e, buf, 10) != 10) {
        perror("write");
        return 1;
    }
    close(e);
    return 0;
}
