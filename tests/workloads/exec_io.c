/* exec: does I/O (POSIX and STDIO), then replaces itself with
 * `/proc/self/exe DIR --after-exec`, which does more I/O and exits. Two
 * logs: the image before exec and the image after.
 *
 * Built with -DWL_ORACLE, the first stage exits normally instead of calling
 * exec (Darshan 3.5 writes no log for an image replaced by exec); see
 * deviations.md. */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    FILE *f;
    int fd;

    wl_fill(buf, sizeof buf, 31);
    if (wl_mode(argc, argv, "--after-exec")) {
        wl_path(path, sizeof path, dir, "exec_post.dat");
        fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        WL_CHECK(fd >= 0, "open");
        WL_EXPECT_N(write(fd, buf, 300), 300, "write");
        WL_CHECK(close(fd) == 0, "close");
        return 0;
    }

    wl_path(path, sizeof path, dir, "exec_pre.dat");
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 200), 200, "write");
    WL_CHECK(close(fd) == 0, "close");
    wl_path(path, sizeof path, dir, "exec_pre.txt");
    f = fopen(path, "w");
    WL_CHECK(f != NULL, "fopen");
    WL_EXPECT_N(fprintf(f, "%s\n", "before exec"), 12, "fprintf");
    WL_CHECK(fclose(f) == 0, "fclose");
#ifndef WL_ORACLE
    execl("/proc/self/exe", "wl_exec_io", dir, "--after-exec", (char *)NULL);
    wl_die("execl");
#endif
    return 0;
}
