/* Collective MPI-IO with explicit offsets and the individual file pointer:
 * coll.dat gets 4 rounds of MPI_File_write_at_all (64 KiB a rank, round
 * robin) and 4 rounds of MPI_File_read_at_all (16384 ints), then one
 * MPI_File_write_all and one MPI_File_read_all at 1 MiB + 8 KiB * rank;
 * coll_uneven.dat gets one MPI_File_write_at_all of 1000 * (rank + 1) bytes
 * per rank, packed, so that the ranks move different amounts. */
#include "mpiwl.h"

#define BLOCK 65536

static _Alignas(4096) unsigned char buf[BLOCK];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Status st;
    MPI_Offset off;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);

    wl_path(path, sizeof path, dir, "coll.dat");
    MW_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh), "MPI_File_open");
    for (int i = 0; i < 4; i++) {
        off = (MPI_Offset)(i * MW_NPROCS + rank) * BLOCK;
        MW_OK(MPI_File_write_at_all(fh, off, buf, BLOCK, MPI_BYTE, &st), "write_at_all");
        mw_count(&st, MPI_BYTE, BLOCK, "write_at_all count");
    }
    for (int i = 0; i < 4; i++) {
        off = (MPI_Offset)(i * MW_NPROCS + rank) * BLOCK;
        MW_OK(MPI_File_read_at_all(fh, off, buf, BLOCK / 4, MPI_INT, &st), "read_at_all");
        mw_count(&st, MPI_INT, BLOCK / 4, "read_at_all count");
    }
    off = 1048576 + (MPI_Offset)rank * 8192;
    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_write_all(fh, buf, 8192, MPI_CHAR, &st), "write_all");
    mw_count(&st, MPI_CHAR, 8192, "write_all count");
    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_read_all(fh, buf, 1024, MPI_DOUBLE, &st), "read_all");
    mw_count(&st, MPI_DOUBLE, 1024, "read_all count");
    MW_OK(MPI_File_close(&fh), "MPI_File_close");

    wl_path(path, sizeof path, dir, "coll_uneven.dat");
    MW_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                        MPI_INFO_NULL, &fh), "MPI_File_open uneven");
    off = 1000 * (MPI_Offset)(rank * (rank + 1) / 2);
    MW_OK(MPI_File_write_at_all(fh, off, buf, 1000 * (rank + 1), MPI_BYTE, &st),
          "write_at_all uneven");
    mw_count(&st, MPI_BYTE, 1000 * (rank + 1), "write_at_all uneven count");
    MW_OK(MPI_File_close(&fh), "MPI_File_close uneven");

    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
