/* For runtime_test.sh (mode killed), not a workload: every rank writes 1000
 * bytes to DIR/killed.r after MPI_Init and then dies of SIGKILL, so no rank
 * reaches MPI_Finalize and no runtime can write a log. Each rank's records
 * must stay in its record file for `iolens recover`. */
#include <fcntl.h>
#include <signal.h>

#include "mpiwl.h"

static unsigned char buf[1000];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    mw_rank_path(path, sizeof path, dir, "killed", mw_rank());
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, sizeof buf), (long)sizeof buf, "write");
    WL_CHECK(close(fd) == 0, "close");
    MW_OK(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    raise(SIGKILL);
    return 0;
}
