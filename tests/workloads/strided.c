/* Strided access: 32 writes of 4 KiB every 16 KiB (lseek + write), 16 preads
 * of 4 KiB every 32 KiB, then 8 reads of 1000 bytes each followed by a
 * 3000-byte forward lseek(SEEK_CUR). */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int fd;

    wl_path(path, sizeof path, dir, "strided.dat");
    wl_fill(buf, sizeof buf, 3);

    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    for (int k = 0; k < 32; k++) {
        WL_EXPECT_N(lseek(fd, (off_t)k * 16384, SEEK_SET), (off_t)k * 16384, "lseek");
        WL_EXPECT_N(write(fd, buf, 4096), 4096, "write");
    }
    for (int k = 0; k < 16; k++)
        WL_EXPECT_N(pread(fd, buf, 4096, (off_t)k * 32768), 4096, "pread");
    WL_EXPECT_N(lseek(fd, 0, SEEK_SET), 0, "lseek to start");
    for (int k = 0; k < 8; k++) {
        WL_EXPECT_N(read(fd, buf, 1000), 1000, "read");
        WL_EXPECT_N(lseek(fd, 3000, SEEK_CUR), (off_t)(k + 1) * 4000, "lseek forward");
    }
    WL_CHECK(close(fd) == 0, "close");
    return 0;
}
