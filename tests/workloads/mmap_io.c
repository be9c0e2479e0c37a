/* mmap of a file: a shared read-write mapping that is changed and msync'ed,
 * a private read-only mapping at an offset, a mapping that outlives the
 * descriptor it came from, and an anonymous mapping (not a file). */
#include <fcntl.h>
#include <sys/mman.h>

#include "wl.h"

#define LEN 65536

static _Alignas(4096) unsigned char buf[LEN];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    unsigned char *p;
    int fd;

    wl_path(path, sizeof path, dir, "mmap.dat");
    wl_fill(buf, sizeof buf, 9);

    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, LEN), LEN, "write");

    p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    WL_CHECK(p != MAP_FAILED, "mmap shared");
    memset(p + 100, 'M', 1000);
    WL_CHECK(msync(p, LEN, MS_SYNC) == 0, "msync");
    WL_CHECK(munmap(p, LEN) == 0, "munmap");

    p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 8192);
    WL_CHECK(p != MAP_FAILED, "mmap private");
    WL_CHECK(p[0] == buf[8192], "mapped bytes");
    WL_CHECK(munmap(p, 4096) == 0, "munmap");
    WL_CHECK(close(fd) == 0, "close");

    fd = open(path, O_RDONLY);
    WL_CHECK(fd >= 0, "open read-only");
    p = mmap(NULL, LEN, PROT_READ, MAP_SHARED, fd, 0);
    WL_CHECK(p != MAP_FAILED, "mmap read-only");
    WL_CHECK(close(fd) == 0, "close");
    WL_CHECK(p[100] == 'M', "mapping outlives its descriptor");
    WL_CHECK(munmap(p, LEN) == 0, "munmap");

    p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    WL_CHECK(p != MAP_FAILED, "mmap anonymous");
    WL_CHECK(munmap(p, LEN) == 0, "munmap");
    return 0;
}
