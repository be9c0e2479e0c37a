/* I/O on both sides of MPI_Init, for RANK_EXCLUDE (runtime_test.sh
 * rankexcl): before MPI_Init each process writes pre.PID (its rank is not
 * known yet); after it, rank r writes post.r and every rank writes 100 bytes
 * of its own at r * 100 in all.dat, a file every rank opens (a shared record
 * when every rank records it). */
#include <fcntl.h>

#include "mpiwl.h"

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], buf[100];
    int rank, fd;

    mw_rank_path(path, sizeof path, dir, "pre", (int)getpid());
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open pre");
    WL_EXPECT_N(write(fd, "pre", 3), 3, "write pre");
    WL_CHECK(close(fd) == 0, "close pre");

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);

    mw_rank_path(path, sizeof path, dir, "post", rank);
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open post");
    WL_EXPECT_N(write(fd, buf, sizeof buf), (ssize_t)sizeof buf, "write post");
    WL_CHECK(close(fd) == 0, "close post");

    wl_path(path, sizeof path, dir, "all.dat");
    fd = open(path, O_CREAT | O_WRONLY, 0644);
    WL_CHECK(fd >= 0, "open all.dat");
    WL_EXPECT_N(pwrite(fd, buf, sizeof buf, (off_t)rank * 100), (ssize_t)sizeof buf, "pwrite");
    WL_CHECK(close(fd) == 0, "close all.dat");

    mw_barrier();
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
