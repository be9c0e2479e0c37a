/* Leaves a record file behind for fuzz/run.sh's seeds: run under
 * libiolens.so with IOLENS_MMAP_DIR set, it writes a file through POSIX and
 * one through STDIO, then kills itself, as a process the OOM killer ends
 * would, so that its records stay in the record file. With "exit", it exits
 * normally instead (its live events, with IOLENS_EVENTS, are then all out).
 *
 *   recfile_seed DIR [exit] */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char path[4096];
    if (argc < 2)
        return 2;
    snprintf(path, sizeof(path), "%s/posix.dat", argv[1]);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "hello", 5) != 5 || pwrite(fd, "world", 5, 4096) != 5)
        return 1;
    struct stat st;
    if (fstat(fd, &st) != 0)
        return 1;
    snprintf(path, sizeof(path), "%s/stdio.txt", argv[1]);
    FILE *f = fopen(path, "w");
    if (!f || fputs("a line\n", f) < 0 || fflush(f) != 0)
        return 1;
    if (argc > 2 && !strcmp(argv[2], "exit"))
        return fclose(f) != 0;
    kill(getpid(), SIGKILL);
    return 1;
}
