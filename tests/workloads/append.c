/* O_APPEND: a 1000-byte file gets three 100-byte writes through an O_APPEND
 * descriptor; then an O_RDWR|O_APPEND descriptor reads 10 bytes at offset 0
 * and writes 10 (which land at the end of file, 1300); then a stream opened
 * with "a" writes 50 + 11 bytes at 1310.
 *
 * Built with -DWL_ORACLE, the O_APPEND writes are pwrites at the offsets
 * where the kernel puts them; see deviations.md. */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    FILE *f;
    int fd;

    wl_path(path, sizeof path, dir, "append.dat");
    wl_fill(buf, sizeof buf, 11);

    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 1000), 1000, "write");
    WL_CHECK(close(fd) == 0, "close");

#ifdef WL_ORACLE
    fd = open(path, O_WRONLY);
    WL_CHECK(fd >= 0, "open");
    for (int i = 0; i < 3; i++)
        WL_EXPECT_N(pwrite(fd, buf, 100, 1000 + 100 * i), 100, "append write");
#else
    fd = open(path, O_WRONLY | O_APPEND);
    WL_CHECK(fd >= 0, "open O_APPEND");
    for (int i = 0; i < 3; i++)
        WL_EXPECT_N(write(fd, buf, 100), 100, "append write");
#endif
    WL_CHECK(close(fd) == 0, "close");

#ifdef WL_ORACLE
    fd = open(path, O_RDWR);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(read(fd, buf, 10), 10, "read");
    WL_EXPECT_N(pwrite(fd, buf, 10, 1300), 10, "append write");
#else
    fd = open(path, O_RDWR | O_APPEND);
    WL_CHECK(fd >= 0, "open O_RDWR|O_APPEND");
    WL_EXPECT_N(read(fd, buf, 10), 10, "read");
    WL_EXPECT_N(write(fd, buf, 10), 10, "append write");
#endif
    WL_CHECK(close(fd) == 0, "close");

    /* the stream's offsets are corrected by hand, see deviations.md */
    f = fopen(path, "a");
    WL_CHECK(f != NULL, "fopen a");
    WL_EXPECT_N(fwrite(buf, 1, 50, f), 50, "fwrite");
    WL_EXPECT_N(fprintf(f, "%s\n", "appended!!"), 11, "fprintf");
    WL_CHECK(fclose(f) == 0, "fclose");
    return 0;
}
