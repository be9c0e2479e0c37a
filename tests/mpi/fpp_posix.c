/* File per process over POSIX and STDIO: rank r creates fpp.r, writes
 * 4*(r+1) blocks of 16 KiB, seeks back, reads them and once more at end of
 * file, pwrites 100 bytes at 1000, fsyncs and closes; then writes fpp.r.txt
 * with fprintf and reads it back with fgets. No file is shared. */
#include <fcntl.h>

#include "mpiwl.h"

#define BLOCK 16384

static _Alignas(4096) unsigned char buf[BLOCK];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], line[128];
    int rank, fd, nblocks;
    FILE *f;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    nblocks = 4 * (rank + 1);
    wl_fill(buf, sizeof buf, (unsigned)rank);

    mw_rank_path(path, sizeof path, dir, "fpp", rank);
    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    for (int i = 0; i < nblocks; i++)
        WL_EXPECT_N(write(fd, buf, BLOCK), BLOCK, "write");
    WL_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    for (int i = 0; i < nblocks; i++)
        WL_EXPECT_N(read(fd, buf, BLOCK), BLOCK, "read");
    WL_EXPECT_N(read(fd, buf, BLOCK), 0, "read at end of file");
    WL_EXPECT_N(pwrite(fd, buf, 100, 1000), 100, "pwrite");
    WL_CHECK(fsync(fd) == 0, "fsync");
    WL_CHECK(close(fd) == 0, "close");

    mw_rank_path(path, sizeof path, dir, "fpp.txt", rank);
    f = fopen(path, "w+");
    WL_CHECK(f != NULL, "fopen");
    for (int i = 0; i <= rank; i++)
        WL_CHECK(fprintf(f, "rank %d line %d\n", rank, i) > 0, "fprintf");
    WL_CHECK(fseek(f, 0, SEEK_SET) == 0, "fseek");
    WL_CHECK(fgets(line, sizeof line, f) != NULL, "fgets");
    WL_CHECK(fclose(f) == 0, "fclose");

    mw_barrier();
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
