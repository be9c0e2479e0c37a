/* fsync and fdatasync: on a descriptor open for writing (after writes and
 * twice in a row), on a read-only descriptor, and on a bad and a closed
 * descriptor (both fail and do not count). */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int fd;

    wl_path(path, sizeof path, dir, "sync.dat");
    wl_fill(buf, sizeof buf, 60);

    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 4096), 4096, "write");
    WL_CHECK(fsync(fd) == 0, "fsync");
    WL_EXPECT_N(write(fd, buf, 4096), 4096, "write");
    WL_CHECK(fdatasync(fd) == 0, "fdatasync");
    WL_CHECK(fsync(fd) == 0, "fsync");
    WL_CHECK(fdatasync(fd) == 0, "fdatasync");
    WL_CHECK(close(fd) == 0, "close");

    fd = open(path, O_RDONLY);
    WL_CHECK(fd >= 0, "open read-only");
    WL_CHECK(fsync(fd) == 0, "fsync read-only");
    WL_CHECK(close(fd) == 0, "close");

    WL_CHECK(fsync(-1) == -1 && errno == EBADF, "fsync bad descriptor");
    WL_CHECK(fdatasync(fd) == -1 && errno == EBADF, "fdatasync closed descriptor");
    return 0;
}
