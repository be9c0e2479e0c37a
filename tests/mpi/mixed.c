/* Files opened by all ranks and by some, over POSIX, STDIO and MPI-IO:
 * - all_uneven.dat: every rank opens it (O_CREAT, 0644), pwrites
 *   1000 * (rank + 1) bytes at its own offset, fsyncs, closes: one shared
 *   POSIX record whose ranks moved different amounts;
 * - all_equal.dat: every rank pwrites 2 KiB at 2 KiB * rank, then (after a
 *   barrier) preads 2 KiB of its right neighbour: shared, equal amounts;
 * - even.dat: only ranks 0 and 2 (write 3000 bytes each); notroot.dat:
 *   ranks 1, 2 and 3 (write 100 bytes each); root.dat: rank 0 alone; all of
 *   these stay per-rank records;
 * - mixmod.dat: every rank writes 64 bytes at 64 * rank through POSIX, then
 *   ranks 0 and 1 read it with fopen/fread: the POSIX record is shared, the
 *   STDIO records are not;
 * - stdio.txt: rank 0 writes 4 lines with fopen/fprintf, then every rank
 *   opens it with fopen, seeks to 10 * rank, freads 10 bytes and fgets the
 *   rest of the line: a shared STDIO record (rank 0 opened it twice);
 * - sub.0.dat and sub.1.dat: opened collectively by the even and by the odd
 *   ranks (MPI_Comm_split), each rank MPI_File_write_at_all of 1 KiB: MPI-IO
 *   records that are collective opens but not shared by the job. */
#include <fcntl.h>

#include "mpiwl.h"

static _Alignas(4096) unsigned char buf[8192];

static void write_file(const char *dir, const char *name, size_t n, off_t off)
{
    char path[4096];
    int fd;

    wl_path(path, sizeof path, dir, name);
    fd = open(path, O_CREAT | O_WRONLY, 0644);
    WL_CHECK(fd >= 0, name);
    WL_EXPECT_N(pwrite(fd, buf, n, off), n, "pwrite");
    WL_CHECK(close(fd) == 0, "close");
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], line[128];
    int rank, fd;
    FILE *f;
    MPI_Comm sub;
    MPI_File fh;
    MPI_Status st;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);

    wl_path(path, sizeof path, dir, "all_uneven.dat");
    fd = open(path, O_CREAT | O_RDWR, 0644);
    WL_CHECK(fd >= 0, "open all_uneven");
    WL_EXPECT_N(pwrite(fd, buf, 1000 * (size_t)(rank + 1), 1000 * (off_t)(rank * (rank + 1) / 2)),
                1000 * (rank + 1), "pwrite all_uneven");
    WL_CHECK(fsync(fd) == 0, "fsync");
    WL_CHECK(close(fd) == 0, "close");

    wl_path(path, sizeof path, dir, "all_equal.dat");
    fd = open(path, O_CREAT | O_RDWR, 0644);
    WL_CHECK(fd >= 0, "open all_equal");
    WL_EXPECT_N(pwrite(fd, buf, 2048, 2048 * (off_t)rank), 2048, "pwrite all_equal");
    mw_barrier();
    WL_EXPECT_N(pread(fd, buf, 2048, 2048 * (off_t)((rank + 1) % MW_NPROCS)), 2048,
                "pread all_equal");
    WL_CHECK(close(fd) == 0, "close");

    if (rank % 2 == 0)
        write_file(dir, "even.dat", 3000, 3000 * (off_t)(rank / 2));
    if (rank != 0)
        write_file(dir, "notroot.dat", 100, 100 * (off_t)rank);
    if (rank == 0)
        write_file(dir, "root.dat", 5000, 0);

    write_file(dir, "mixmod.dat", 64, 64 * (off_t)rank);
    mw_barrier();
    if (rank < 2) {
        wl_path(path, sizeof path, dir, "mixmod.dat");
        f = fopen(path, "r");
        WL_CHECK(f != NULL, "fopen mixmod");
        WL_EXPECT_N(fread(buf, 1, 256, f), 256, "fread mixmod");
        WL_CHECK(fclose(f) == 0, "fclose");
    }

    wl_path(path, sizeof path, dir, "stdio.txt");
    if (rank == 0) {
        f = fopen(path, "w");
        WL_CHECK(f != NULL, "fopen stdio w");
        for (int i = 0; i < 4; i++)
            WL_CHECK(fprintf(f, "line %d of the shared stdio file\n", i) > 0, "fprintf");
        WL_CHECK(fclose(f) == 0, "fclose");
    }
    mw_barrier();
    f = fopen(path, "r");
    WL_CHECK(f != NULL, "fopen stdio r");
    WL_CHECK(fseek(f, 10 * (long)rank, SEEK_SET) == 0, "fseek");
    WL_EXPECT_N(fread(buf, 1, 10, f), 10, "fread stdio");
    WL_CHECK(fgets(line, sizeof line, f) != NULL, "fgets");
    WL_CHECK(fclose(f) == 0, "fclose");

    MW_OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub), "MPI_Comm_split");
    WL_CHECK(snprintf(path, sizeof path, "%s/sub.%d.dat", dir, rank % 2) < (int)sizeof path,
             "path");
    MW_OK(MPI_File_open(sub, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
          "MPI_File_open sub");
    MW_OK(MPI_File_write_at_all(fh, (MPI_Offset)(rank / 2) * 1024, buf, 1024, MPI_BYTE, &st),
          "write_at_all sub");
    mw_count(&st, MPI_BYTE, 1024, "write_at_all sub count");
    MW_OK(MPI_File_close(&fh), "MPI_File_close sub");
    MW_OK(MPI_Comm_free(&sub), "MPI_Comm_free");

    mw_barrier();
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
