/* dup, dup2, dup3, fcntl(F_DUPFD), fcntl(F_DUPFD_CLOEXEC) and fileno.
 * Writes through every duplicate share one file offset. dup2 onto a
 * descriptor that is open on another file closes that file first; once the
 * duplicate is closed, a pipe reuses its number and the bytes through the
 * pipe belong to no file.
 *
 * Built with -DWL_ORACLE, the pipe is not used; see deviations.md. */
#include <fcntl.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char a[4096], b[4096], c[4096];
    int fd, d1, d2, d3, d4, d5, fb;
    FILE *f;

    wl_path(a, sizeof a, dir, "dup_a.dat");
    wl_path(b, sizeof b, dir, "dup_b.dat");
    wl_path(c, sizeof c, dir, "dup_c.dat");
    wl_fill(buf, sizeof buf, 8);

    fd = open(a, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 100), 100, "write");
    d1 = dup(fd);
    WL_CHECK(d1 >= 0, "dup");
    WL_EXPECT_N(write(d1, buf, 100), 100, "write dup");
    d2 = dup2(fd, 10);
    WL_CHECK(d2 == 10, "dup2");
    WL_EXPECT_N(write(d2, buf, 100), 100, "write dup2");
    d3 = dup3(fd, 11, O_CLOEXEC);
    WL_CHECK(d3 == 11, "dup3");
    WL_EXPECT_N(write(d3, buf, 100), 100, "write dup3");
    d4 = fcntl(fd, F_DUPFD, 20);
    WL_CHECK(d4 >= 20, "fcntl F_DUPFD");
    WL_EXPECT_N(write(d4, buf, 100), 100, "write F_DUPFD");
    d5 = fcntl(fd, F_DUPFD_CLOEXEC, 30);
    WL_CHECK(d5 >= 30, "fcntl F_DUPFD_CLOEXEC");
    WL_EXPECT_N(write(d5, buf, 100), 100, "write F_DUPFD_CLOEXEC");
    WL_CHECK(close(d1) == 0 && close(d2) == 0 && close(d3) == 0, "close dups");
    WL_CHECK(close(d4) == 0 && close(d5) == 0, "close dups");
    WL_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    WL_EXPECT_N(read(fd, buf, 600), 600, "read");

    /* dup2 onto a descriptor open on another file */
    fb = open(b, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fb >= 0, "open b");
    WL_EXPECT_N(write(fb, buf, 50), 50, "write b");
    WL_CHECK(dup2(fd, fb) == fb, "dup2 onto b");
    WL_EXPECT_N(write(fb, buf, 10), 10, "write a through b's number");
    WL_CHECK(close(fb) == 0, "close");
#ifndef WL_ORACLE
    static _Alignas(8) const char pipe_bytes[] = "pipe";
    int pfd[2];
    WL_CHECK(pipe(pfd) == 0, "pipe");
    WL_CHECK(pfd[0] == fb, "pipe reuses the descriptor number");
    WL_EXPECT_N(write(pfd[1], pipe_bytes, 4), 4, "write to pipe");
    WL_EXPECT_N(read(pfd[0], buf, 4), 4, "read from pipe");
    WL_CHECK(close(pfd[0]) == 0 && close(pfd[1]) == 0, "close pipe");
#endif
    WL_CHECK(close(fd) == 0, "close");

    /* fileno, twice, on a stream */
    f = fopen(c, "w");
    WL_CHECK(f != NULL, "fopen");
    WL_EXPECT_N(fwrite(buf, 1, 20, f), 20, "fwrite");
    WL_CHECK(fileno(f) >= 0 && fileno(f) >= 0, "fileno");
    WL_CHECK(fclose(f) == 0, "fclose");
    return 0;
}
