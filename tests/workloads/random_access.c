/* Random access with a fixed seed: a 1 MiB file written in one call, then 200
 * preads and pwrites of 512 B to 8 KiB at 512-byte-aligned offsets drawn
 * from a fixed-seed LCG. */
#include <fcntl.h>

#include "wl.h"

#define FILESIZE (1024 * 1024)

static _Alignas(4096) unsigned char buf[FILESIZE];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    uint64_t rng = 12345;
    int fd;

    wl_path(path, sizeof path, dir, "random.dat");
    wl_fill(buf, sizeof buf, 4);

    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, FILESIZE), FILESIZE, "write");
    for (int i = 0; i < 200; i++) {
        int is_write = (int)(wl_rand(&rng) % 2);
        size_t size = 512 * (1 + (size_t)(wl_rand(&rng) % 16));
        off_t off = (off_t)512 * (off_t)(wl_rand(&rng) % ((FILESIZE - 8192) / 512));
        if (is_write)
            WL_EXPECT_N(pwrite(fd, buf, size, off), size, "pwrite");
        else
            WL_EXPECT_N(pread(fd, buf, size, off), size, "pread");
    }
    WL_CHECK(close(fd) == 0, "close");
    return 0;
}
