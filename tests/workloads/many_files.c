/* Many small files: 200 files f000..f199, each created and written with
 * 100+i bytes, then each opened again and read with one 4 KiB read. */
#include <fcntl.h>

#include "wl.h"

#define NFILES 200

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], name[16];
    int fd;

    wl_fill(buf, sizeof buf, 5);
    for (int i = 0; i < NFILES; i++) {
        snprintf(name, sizeof name, "f%03d", i);
        wl_path(path, sizeof path, dir, name);
        fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
        WL_CHECK(fd >= 0, "open for write");
        WL_EXPECT_N(write(fd, buf, 100 + (size_t)i), 100 + i, "write");
        WL_CHECK(close(fd) == 0, "close");
    }
    for (int i = 0; i < NFILES; i++) {
        snprintf(name, sizeof name, "f%03d", i);
        wl_path(path, sizeof path, dir, name);
        fd = open(path, O_RDONLY);
        WL_CHECK(fd >= 0, "open for read");
        WL_EXPECT_N(read(fd, buf, sizeof buf), 100 + i, "read");
        WL_CHECK(close(fd) == 0, "close");
    }
    return 0;
}
