/* The ways to open a file: open, open64, creat, creat64, openat (AT_FDCWD,
 * relative to a directory descriptor, and absolute, which ignores the
 * descriptor), a relative path after chdir, and paths that need cleaning
 * ("//", "/./", "/../"). Each file gets one write.
 *
 * Built with -DWL_ORACLE, the path with "/../" is given already cleaned
 * (Darshan 3.5 keeps ".." in record names); see deviations.md. */
#include <fcntl.h>
#include <sys/stat.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

static void one_write(int fd, const char *what)
{
    WL_CHECK(fd >= 0, what);
    WL_EXPECT_N(write(fd, buf, 10), 10, "write");
    WL_CHECK(close(fd) == 0, "close");
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], sub[4096];
    int dfd;

    wl_fill(buf, sizeof buf, 80);
    wl_path(sub, sizeof sub, dir, "sub");
    WL_CHECK(mkdir(sub, 0755) == 0, "mkdir");

    wl_path(path, sizeof path, dir, "o_open");
    one_write(open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600), "open");
    wl_path(path, sizeof path, dir, "o_open64");
    one_write(open64(path, O_CREAT | O_WRONLY | O_TRUNC, 0640), "open64");
    wl_path(path, sizeof path, dir, "o_creat");
    one_write(creat(path, 0644), "creat");
    wl_path(path, sizeof path, dir, "o_creat64");
    one_write(creat64(path, 0664), "creat64");
    wl_path(path, sizeof path, dir, "o_openat_cwd");
    one_write(openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, 0600), "openat AT_FDCWD");

    dfd = open(sub, O_RDONLY | O_DIRECTORY);
    WL_CHECK(dfd >= 0, "open directory");
    one_write(openat(dfd, "o_openat_rel", O_CREAT | O_WRONLY | O_TRUNC, 0600), "openat dirfd");
    wl_path(path, sizeof path, dir, "o_openat_abs");
    one_write(openat(dfd, path, O_CREAT | O_WRONLY | O_TRUNC, 0600), "openat absolute");
    WL_CHECK(close(dfd) == 0, "close directory");

    WL_CHECK(chdir(dir) == 0, "chdir");
    one_write(open("o_relative", O_CREAT | O_WRONLY | O_TRUNC, 0600), "open relative");
    one_write(open("./sub/o_dot_relative", O_CREAT | O_WRONLY | O_TRUNC, 0600), "open ./");

    wl_path(path, sizeof path, dir, "/o_double_slash");
    one_write(open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600), "open //");
    wl_path(path, sizeof path, dir, "./o_dot");
    one_write(open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600), "open /./");
#ifdef WL_ORACLE
    wl_path(path, sizeof path, dir, "o_dotdot");
#else
    wl_path(path, sizeof path, dir, "sub/../o_dotdot");
#endif
    one_write(open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600), "open /../");
    return 0;
}
