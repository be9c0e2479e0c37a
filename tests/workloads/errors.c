/* Calls that fail: opens of a missing file, of a path under a missing
 * directory, of a NULL path and of an over-long path, fopen of a missing
 * file; reads and writes on descriptor -1, on a never-opened descriptor and
 * on a closed one; a read on a write-only descriptor and a write on a
 * read-only one; a pread at a negative offset; a read on a directory
 * descriptor (the open of the directory succeeds). None of the failed calls
 * counts; the successful opens, writes and the directory open do. */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];
static char longpath[8192];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], missing[4096], subdir[4096];
    const char *volatile nullpath = NULL;
    int fd;

    wl_path(path, sizeof path, dir, "errors.dat");
    wl_path(missing, sizeof missing, dir, "no_such_file");
    wl_path(subdir, sizeof subdir, dir, "no_such_dir/file");
    wl_fill(buf, sizeof buf, 70);

    WL_CHECK(open(missing, O_RDONLY) == -1 && errno == ENOENT, "open missing");
    WL_CHECK(open(subdir, O_CREAT | O_WRONLY, 0644) == -1 && errno == ENOENT,
             "open under missing directory");
    WL_CHECK(open(nullpath, O_RDONLY) == -1 && errno == EFAULT, "open NULL");
    memset(longpath, 'x', sizeof longpath - 1);
    memcpy(longpath, dir, strlen(dir));
    longpath[strlen(dir)] = '/';
    WL_CHECK(open(longpath, O_RDONLY) == -1 && errno == ENAMETOOLONG, "open long path");
    WL_CHECK(fopen(missing, "r") == NULL && errno == ENOENT, "fopen missing");

    WL_CHECK(read(-1, buf, 10) == -1 && errno == EBADF, "read -1");
    WL_CHECK(write(-1, buf, 10) == -1 && errno == EBADF, "write -1");
    WL_CHECK(read(777, buf, 10) == -1 && errno == EBADF, "read never opened");

    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 10), 10, "write");
    WL_CHECK(read(fd, buf, 10) == -1 && errno == EBADF, "read write-only");
    WL_CHECK(pread(fd, buf, 10, -5) == -1, "pread negative offset");
    WL_CHECK(close(fd) == 0, "close");
    WL_CHECK(write(fd, buf, 10) == -1 && errno == EBADF, "write closed");
    WL_CHECK(close(fd) == -1 && errno == EBADF, "close closed");

    fd = open(path, O_RDONLY);
    WL_CHECK(fd >= 0, "open read-only");
    WL_CHECK(write(fd, buf, 10) == -1 && errno == EBADF, "write read-only");
    WL_CHECK(close(fd) == 0, "close");

    fd = open(dir, O_RDONLY | O_DIRECTORY);
    WL_CHECK(fd >= 0, "open directory");
    WL_CHECK(read(fd, buf, 10) == -1 && errno == EISDIR, "read directory");
    WL_CHECK(close(fd) == 0, "close directory");
    return 0;
}
