/* The stat family on a file this program opened and on paths it never
 * opened: stat, lstat, fstat, fstatat (by AT_FDCWD and by a directory
 * descriptor), statx; stat through a symbolic link and a hard link; lstat
 * of the symbolic link itself, stat of a directory and of a missing path
 * (neither is a regular file, neither counts).
 *
 * Built with -DWL_ORACLE, stat, lstat and fstat call glibc's old __xstat,
 * __lxstat and __fxstat entry points, which Darshan 3.5 intercepts, and
 * fstatat and statx are left out (their counts are added by hand); see
 * deviations.md. */
#include <fcntl.h>
#include <sys/stat.h>

#include "wl.h"

#ifdef WL_ORACLE
extern int __xstat(int, const char *, struct stat *);
extern int __lxstat(int, const char *, struct stat *);
extern int __fxstat(int, int, struct stat *);
__asm__(".symver __xstat,__xstat@GLIBC_2.2.5");
__asm__(".symver __lxstat,__lxstat@GLIBC_2.2.5");
__asm__(".symver __fxstat,__fxstat@GLIBC_2.2.5");
#define WL_STAT(p, s) __xstat(1, p, s)
#define WL_LSTAT(p, s) __lxstat(1, p, s)
#define WL_FSTAT(fd, s) __fxstat(1, fd, s)
#else
#define WL_STAT(p, s) stat(p, s)
#define WL_LSTAT(p, s) lstat(p, s)
#define WL_FSTAT(fd, s) fstat(fd, s)
#endif

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], hard[4096], sym[4096], missing[4096];
    struct stat st;
    int fd, dfd;

    wl_path(path, sizeof path, dir, "stat.dat");
    wl_path(hard, sizeof hard, dir, "stat_hard");
    wl_path(sym, sizeof sym, dir, "stat_sym");
    wl_path(missing, sizeof missing, dir, "stat_missing");
    wl_fill(buf, sizeof buf, 12);

    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 100), 100, "write");

    /* stat.dat: 2 stat + lstat + fstat + 2 fstatat + statx = 7 */
    WL_CHECK(WL_STAT(path, &st) == 0 && st.st_size == 100, "stat");
    WL_CHECK(WL_STAT(path, &st) == 0, "stat");
    WL_CHECK(WL_LSTAT(path, &st) == 0, "lstat");
    WL_CHECK(WL_FSTAT(fd, &st) == 0, "fstat");
#ifndef WL_ORACLE
    dfd = open(dir, O_RDONLY | O_DIRECTORY);
    WL_CHECK(dfd >= 0, "open directory");
    WL_CHECK(fstatat(AT_FDCWD, path, &st, 0) == 0, "fstatat AT_FDCWD");
    WL_CHECK(fstatat(dfd, "stat.dat", &st, 0) == 0, "fstatat dirfd");
    struct statx stx;
    WL_CHECK(statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx) == 0, "statx");
    WL_CHECK(close(dfd) == 0, "close directory");
#else
    dfd = open(dir, O_RDONLY | O_DIRECTORY);
    WL_CHECK(dfd >= 0, "open directory");
    WL_CHECK(close(dfd) == 0, "close directory");
#endif
    WL_CHECK(close(fd) == 0, "close");

    /* paths never opened: a hard link (regular file) and a symbolic link */
    WL_CHECK(link(path, hard) == 0, "link");
    WL_CHECK(symlink("stat.dat", sym) == 0, "symlink");
    WL_CHECK(WL_STAT(hard, &st) == 0, "stat hard link");
    WL_CHECK(WL_STAT(sym, &st) == 0 && S_ISREG(st.st_mode), "stat through symlink");
    WL_CHECK(WL_LSTAT(sym, &st) == 0 && S_ISLNK(st.st_mode), "lstat symlink");

    /* neither counts: a directory and a missing path */
    WL_CHECK(WL_STAT(dir, &st) == 0 && S_ISDIR(st.st_mode), "stat directory");
    WL_CHECK(WL_STAT(missing, &st) == -1 && errno == ENOENT, "stat missing");
    return 0;
}
