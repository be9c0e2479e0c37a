/* One access in every bucket of the access-size histogram, written then read
 * back with the same sizes, plus a zero-byte write and a zero-byte read. */
#include <fcntl.h>

#include "wl.h"

static const size_t sizes[] = {
    50,                 /* 0-100 */
    500,                /* 100-1K */
    5000,               /* 1K-10K */
    50000,              /* 10K-100K */
    500000,             /* 100K-1M */
    2 * 1024 * 1024,    /* 1M-4M */
    6 * 1024 * 1024,    /* 4M-10M */
    12 * 1024 * 1024,   /* 10M-100M */
};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAXSIZE (12 * 1024 * 1024)

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    unsigned char *buf;
    int fd;

    wl_path(path, sizeof path, dir, "sizes.dat");
    buf = aligned_alloc(4096, MAXSIZE);
    WL_CHECK(buf != NULL, "aligned_alloc");
    wl_fill(buf, MAXSIZE, 2);

    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open for write");
    for (size_t i = 0; i < NSIZES; i++)
        WL_EXPECT_N(write(fd, buf, sizes[i]), sizes[i], "write");
    WL_EXPECT_N(write(fd, buf, 0), 0, "zero-byte write");
    WL_CHECK(close(fd) == 0, "close");

    fd = open(path, O_RDONLY);
    WL_CHECK(fd >= 0, "open for read");
    for (size_t i = 0; i < NSIZES; i++)
        WL_EXPECT_N(read(fd, buf, sizes[i]), sizes[i], "read");
    WL_EXPECT_N(read(fd, buf, 0), 0, "zero-byte read");
    WL_CHECK(close(fd) == 0, "close");
    free(buf);
    return 0;
}
