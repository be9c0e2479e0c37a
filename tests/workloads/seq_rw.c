/* Sequential write then read: 16 writes of 64 KiB, then 16 reads of 64 KiB
 * and one read at end of file (returns 0). */
#include <fcntl.h>

#include "wl.h"

#define BLOCK 65536
#define COUNT 16

static _Alignas(4096) unsigned char buf[BLOCK];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int fd;

    wl_path(path, sizeof path, dir, "seq.dat");
    wl_fill(buf, sizeof buf, 1);

    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open for write");
    for (int i = 0; i < COUNT; i++)
        WL_EXPECT_N(write(fd, buf, BLOCK), BLOCK, "write");
    WL_CHECK(close(fd) == 0, "close");

    fd = open(path, O_RDONLY);
    WL_CHECK(fd >= 0, "open for read");
    for (int i = 0; i < COUNT; i++)
        WL_EXPECT_N(read(fd, buf, BLOCK), BLOCK, "read");
    WL_EXPECT_N(read(fd, buf, BLOCK), 0, "read at end of file");
    WL_CHECK(close(fd) == 0, "close");
    return 0;
}
