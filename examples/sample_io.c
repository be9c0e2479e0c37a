/* A small program with a typical I/O pattern, for `make demo` to run under the
 * runtime: it writes a data file in 1 MiB blocks, reads it back in 4 KiB
 * pieces at a stride, appends to a text log through stdio, and stats a file. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *what)
{
    perror(what);
    return 1;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char data[4096], text[4096];
    static char block[1 << 20];
    struct stat sb;

    snprintf(data, sizeof(data), "%s/sample.dat", dir);
    snprintf(text, sizeof(text), "%s/sample.txt", dir);
    memset(block, 'x', sizeof(block));

    int fd = open(data, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        return fail(data);
    for (int i = 0; i < 16; i++)
        if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
            return fail("write");
    fsync(fd);
    close(fd);

    fd = open(data, O_RDONLY);
    if (fd < 0)
        return fail(data);
    for (off_t off = 0; off < 16 << 20; off += 64 << 10)
        if (pread(fd, block, 4096, off) != 4096)
            return fail("pread");
    close(fd);

    FILE *f = fopen(text, "w");
    if (!f)
        return fail(text);
    for (int i = 0; i < 100; i++)
        fprintf(f, "step %d: %d bytes\n", i, 4096 * i);
    fclose(f);
    if (stat(data, &sb) != 0)
        return fail("stat");
    return 0;
}
