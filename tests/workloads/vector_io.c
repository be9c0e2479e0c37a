/* Positional and vector I/O: writev, pwritev, pwritev2 (at an offset and at
 * the current offset, -1), pwrite, pwrite64, then readv, preadv, preadv2
 * (both ways), pread, pread64; one pwritev from a misaligned buffer.
 *
 * Built with -DWL_ORACLE, the two calls with offset -1 (the current file
 * offset, which Darshan 3.5 takes literally) are given the real offset
 * instead; see deviations.md. */
#include <fcntl.h>
#include <sys/uio.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[8192];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    struct iovec iov[3];
    int fd;

    wl_path(path, sizeof path, dir, "vector.dat");
    wl_fill(buf, sizeof buf, 13);

    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");

    iov[0] = (struct iovec){ buf, 100 };
    iov[1] = (struct iovec){ buf + 512, 200 };
    iov[2] = (struct iovec){ buf + 1024, 300 };
    WL_EXPECT_N(writev(fd, iov, 3), 600, "writev");
    iov[0] = (struct iovec){ buf, 512 };
    iov[1] = (struct iovec){ buf + 512, 512 };
    WL_EXPECT_N(pwritev(fd, iov, 2, 4096), 1024, "pwritev");
    iov[0] = (struct iovec){ buf, 1000 };
    WL_EXPECT_N(pwritev2(fd, iov, 1, 8192, 0), 1000, "pwritev2");
    iov[0] = (struct iovec){ buf, 100 };
#ifdef WL_ORACLE
    WL_EXPECT_N(pwritev2(fd, iov, 1, 600, 0), 100, "pwritev2 at current offset");
    WL_CHECK(lseek(fd, 0, SEEK_CUR) == 600, "oracle offset");
#else
    WL_EXPECT_N(pwritev2(fd, iov, 1, -1, 0), 100, "pwritev2 at current offset");
    WL_CHECK(lseek(fd, 0, SEEK_CUR) == 700, "offset after pwritev2(-1)");
#endif
    WL_EXPECT_N(pwrite(fd, buf, 64, 20000), 64, "pwrite");
    WL_EXPECT_N(pwrite64(fd, buf, 64, 30000), 64, "pwrite64");
    iov[0] = (struct iovec){ buf + 1, 10 };
    WL_EXPECT_N(pwritev(fd, iov, 1, 40000), 10, "pwritev misaligned");

    WL_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    iov[0] = (struct iovec){ buf, 100 };
    iov[1] = (struct iovec){ buf + 512, 200 };
    iov[2] = (struct iovec){ buf + 1024, 300 };
    WL_EXPECT_N(readv(fd, iov, 3), 600, "readv");
    iov[0] = (struct iovec){ buf, 512 };
    iov[1] = (struct iovec){ buf + 512, 512 };
    WL_EXPECT_N(preadv(fd, iov, 2, 4096), 1024, "preadv");
    iov[0] = (struct iovec){ buf, 1000 };
    WL_EXPECT_N(preadv2(fd, iov, 1, 8192, 0), 1000, "preadv2");
    iov[0] = (struct iovec){ buf, 100 };
#ifdef WL_ORACLE
    WL_EXPECT_N(preadv2(fd, iov, 1, 600, 0), 100, "preadv2 at current offset");
#else
    WL_EXPECT_N(preadv2(fd, iov, 1, -1, 0), 100, "preadv2 at current offset");
#endif
    WL_EXPECT_N(pread(fd, buf, 64, 20000), 64, "pread");
    WL_EXPECT_N(pread64(fd, buf, 64, 30000), 64, "pread64");
    WL_CHECK(close(fd) == 0, "close");
    return 0;
}
