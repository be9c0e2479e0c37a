/* The program the `iolens run` test runs (run_test.sh).
 *
 *   run_prog FILE STATUS [ARGS...]
 *
 * Writes 100 bytes to FILE with write(), prints its LD_PRELOAD, whether the
 * test's extra preloaded library (run_extra.c) is loaded, and each of ARGS,
 * one per line, then exits with STATUS, or, when STATUS is negative, dies of
 * signal -STATUS. */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char buf[100];
    if (argc < 3) {
        fprintf(stderr, "usage: run_prog FILE STATUS [ARGS...]\n");
        return 2;
    }
    memset(buf, 'x', sizeof(buf));
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || close(fd) != 0) {
        perror(argv[1]);
        return 2;
    }
    const char *preload = getenv("LD_PRELOAD");
    printf("LD_PRELOAD=%s\n", preload ? preload : "");
    printf("extra=%d\n", dlsym(RTLD_DEFAULT, "run_extra_marker") != NULL);
    for (int i = 3; i < argc; i++)
        printf("%s\n", argv[i]);
    fflush(stdout);
    int status = (int)strtol(argv[2], NULL, 10);
    if (status < 0)
        raise(-status);
    return status;
}
