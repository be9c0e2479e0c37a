/* rename: a file renamed twice in a chain, a rename over an existing file,
 * a rename of a file this program never opened (made with link()), a failed
 * rename, and renameat and renameat2.
 *
 * Built with -DWL_ORACLE, renameat and renameat2 (which Darshan 3.5 does not
 * intercept) are replaced by rename; see deviations.md. */
#include <fcntl.h>
#include <stdio.h>

#include "wl.h"

#ifdef WL_ORACLE
#define WL_RENAMEAT(o, n) rename(o, n)
#define WL_RENAMEAT2(o, n) rename(o, n)
#else
#define WL_RENAMEAT(o, n) renameat(AT_FDCWD, o, AT_FDCWD, n)
#define WL_RENAMEAT2(o, n) renameat2(AT_FDCWD, o, AT_FDCWD, n, RENAME_NOREPLACE)
#endif

static _Alignas(4096) unsigned char buf[4096];

static void make_file(const char *path, size_t n)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, n), n, "write");
    WL_CHECK(close(fd) == 0, "close");
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char src[4096], mid[4096], dst[4096], at1[4096], at2[4096];
    char over_a[4096], over_b[4096], lnk[4096], lnk2[4096], none[4096];
    int fd;

    wl_path(src, sizeof src, dir, "r_src");
    wl_path(mid, sizeof mid, dir, "r_mid");
    wl_path(dst, sizeof dst, dir, "r_dst");
    wl_path(at1, sizeof at1, dir, "r_at1");
    wl_path(at2, sizeof at2, dir, "r_at2");
    wl_path(over_a, sizeof over_a, dir, "r_over_a");
    wl_path(over_b, sizeof over_b, dir, "r_over_b");
    wl_path(lnk, sizeof lnk, dir, "r_link");
    wl_path(lnk2, sizeof lnk2, dir, "r_link2");
    wl_path(none, sizeof none, dir, "r_none");
    wl_fill(buf, sizeof buf, 10);

    /* chain: src -> mid -> dst, read in between */
    make_file(src, 100);
    WL_CHECK(rename(src, mid) == 0, "rename src mid");
    fd = open(mid, O_RDONLY);
    WL_CHECK(fd >= 0, "open mid");
    WL_EXPECT_N(read(fd, buf, 100), 100, "read mid");
    WL_CHECK(close(fd) == 0, "close");
    WL_CHECK(rename(mid, dst) == 0, "rename mid dst");

    /* over an existing file */
    make_file(over_a, 10);
    make_file(over_b, 20);
    WL_CHECK(rename(over_a, over_b) == 0, "rename over");

    /* a file never opened here */
    WL_CHECK(link(dst, lnk) == 0, "link");
    WL_CHECK(rename(lnk, lnk2) == 0, "rename link");

    /* a failed rename */
    WL_CHECK(rename(none, at1) == -1 && errno == ENOENT, "failed rename");

    /* renameat and renameat2 */
    WL_CHECK(WL_RENAMEAT(dst, at1) == 0, "renameat");
    WL_CHECK(WL_RENAMEAT2(at1, at2) == 0, "renameat2");
    return 0;
}
