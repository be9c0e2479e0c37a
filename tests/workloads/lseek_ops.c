/* lseek patterns: SEEK_SET, SEEK_CUR, SEEK_END (with a short read at the
 * end), a seek past end of file and a write there, a query (offset 0,
 * SEEK_CUR), lseek64, three failing seeks (negative offset, bad whence, bad
 * descriptor), and a pwrite/pread followed by write/read, which must use
 * the descriptor's own offset (pwrite and pread do not move it).
 *
 * Built with -DWL_ORACLE, the write and the read after pwrite/pread are
 * pwrite/pread at the real offset (Darshan 3.5 moves its offset on pwrite
 * and pread); see deviations.md. */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[8192];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int fd;

    wl_path(path, sizeof path, dir, "lseek.dat");
    wl_fill(buf, sizeof buf, 50);

    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 8192), 8192, "write");
    WL_EXPECT_N(lseek(fd, 0, SEEK_SET), 0, "SEEK_SET");
    WL_EXPECT_N(read(fd, buf, 100), 100, "read");
    WL_EXPECT_N(lseek(fd, 100, SEEK_CUR), 200, "SEEK_CUR");
    WL_EXPECT_N(read(fd, buf, 100), 100, "read");
    WL_EXPECT_N(lseek(fd, -50, SEEK_END), 8142, "SEEK_END");
    WL_EXPECT_N(read(fd, buf, 100), 50, "short read at end");
    WL_EXPECT_N(lseek(fd, 10000, SEEK_SET), 10000, "past end");
    WL_EXPECT_N(write(fd, buf, 10), 10, "write past end");
    WL_EXPECT_N(lseek(fd, 0, SEEK_CUR), 10010, "query");
    WL_EXPECT_N(lseek64(fd, 4096, SEEK_SET), 4096, "lseek64");
    WL_EXPECT_N(read(fd, buf, 4096), 4096, "read");
    WL_CHECK(lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL, "negative offset");
    WL_CHECK(lseek(fd, 0, 99) == -1 && errno == EINVAL, "bad whence");
    WL_CHECK(lseek(-1, 0, SEEK_SET) == -1 && errno == EBADF, "bad descriptor");

    /* positional calls leave the offset alone: the write lands at 8192 and
     * the read at 8202 */
    WL_EXPECT_N(pwrite(fd, buf, 100, 20000), 100, "pwrite");
#ifdef WL_ORACLE
    WL_EXPECT_N(pwrite(fd, buf, 10, 8192), 10, "write after pwrite");
#else
    WL_EXPECT_N(write(fd, buf, 10), 10, "write after pwrite");
#endif
    WL_EXPECT_N(pread(fd, buf, 100, 0), 100, "pread");
#ifdef WL_ORACLE
    WL_EXPECT_N(pread(fd, buf, 10, 8202), 10, "read after pread");
#else
    WL_EXPECT_N(read(fd, buf, 10), 10, "read after pread");
#endif
    WL_CHECK(close(fd) == 0, "close");
    return 0;
}
