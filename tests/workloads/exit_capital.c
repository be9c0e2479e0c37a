/* I/O, then _Exit(0) with the file and the stream still open.
 *
 * The I/O: a file written with three 1000-byte writes and read back with one
 * 1000-byte read, left open; a stream written with fprintf and fflush, left
 * open.
 *
 * Built with -DWL_ORACLE, it calls _exit(0) instead (Darshan 3.5 intercepts
 * _exit but not _Exit, and writes no log); see deviations.md. */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    FILE *f;
    int fd;

    wl_fill(buf, sizeof buf, 40);
    wl_path(path, sizeof path, dir, "exit_capital.dat");
    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    for (int i = 0; i < 3; i++)
        WL_EXPECT_N(write(fd, buf, 1000), 1000, "write");
    WL_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    WL_EXPECT_N(read(fd, buf, 1000), 1000, "read");
    wl_path(path, sizeof path, dir, "exit_capital.txt");
    f = fopen(path, "w");
    WL_CHECK(f != NULL, "fopen");
    WL_EXPECT_N(fprintf(f, "%s %d\n", "ending", 42), 10, "fprintf");
    WL_CHECK(fflush(f) == 0, "fflush");

#ifdef WL_ORACLE
    _exit(0);
#else
    _Exit(0);
#endif
}
