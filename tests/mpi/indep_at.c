/* One shared file with independent MPI-IO: all ranks open indep.dat
 * collectively (with an info object: one hint), each writes 8 blocks of
 * 4 KiB with MPI_File_write_at in round-robin order, reads them back with
 * MPI_File_read_at (as 1024 ints), writes 10 doubles through its individual
 * file pointer, syncs and closes. Then each rank opens indep.dat alone
 * (MPI_COMM_SELF, read only) and reads one block; and writes its own file
 * self.r through MPI_COMM_SELF. */
#include "mpiwl.h"

#define BLOCK 4096
#define COUNT 8

static _Alignas(4096) unsigned char buf[BLOCK];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Info info;
    MPI_Status st;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);

    wl_path(path, sizeof path, dir, "indep.dat");
    MW_OK(MPI_Info_create(&info), "MPI_Info_create");
    MW_OK(MPI_Info_set(info, "access_style", "write_once,random"), "MPI_Info_set");
    MW_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh),
          "MPI_File_open");
    MW_OK(MPI_Info_free(&info), "MPI_Info_free");
    for (int i = 0; i < COUNT; i++) {
        MPI_Offset off = (MPI_Offset)(i * MW_NPROCS + rank) * BLOCK;
        MW_OK(MPI_File_write_at(fh, off, buf, BLOCK, MPI_BYTE, &st), "MPI_File_write_at");
        mw_count(&st, MPI_BYTE, BLOCK, "write_at count");
    }
    for (int i = 0; i < COUNT; i++) {
        MPI_Offset off = (MPI_Offset)(i * MW_NPROCS + rank) * BLOCK;
        MW_OK(MPI_File_read_at(fh, off, buf, BLOCK / 4, MPI_INT, &st), "MPI_File_read_at");
        mw_count(&st, MPI_INT, BLOCK / 4, "read_at count");
    }
    MW_OK(MPI_File_seek(fh, (MPI_Offset)rank * 80, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_write(fh, buf, 10, MPI_DOUBLE, &st), "MPI_File_write");
    mw_count(&st, MPI_DOUBLE, 10, "write count");
    MW_OK(MPI_File_seek(fh, (MPI_Offset)rank * 80, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_read(fh, buf, 10, MPI_DOUBLE, &st), "MPI_File_read");
    mw_count(&st, MPI_DOUBLE, 10, "read count");
    MW_OK(MPI_File_sync(fh), "MPI_File_sync");
    MW_OK(MPI_File_close(&fh), "MPI_File_close");

    mw_barrier();
    MW_OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
          "MPI_File_open self");
    MW_OK(MPI_File_read_at(fh, (MPI_Offset)rank * BLOCK, buf, BLOCK, MPI_BYTE, &st),
          "MPI_File_read_at self");
    mw_count(&st, MPI_BYTE, BLOCK, "read_at self count");
    MW_OK(MPI_File_close(&fh), "MPI_File_close self");

    mw_rank_path(path, sizeof path, dir, "self", rank);
    MW_OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                        &fh), "MPI_File_open own");
    for (int i = 0; i < 3; i++) {
        MW_OK(MPI_File_write_at(fh, (MPI_Offset)i * 1000, buf, 1000, MPI_BYTE, &st),
              "MPI_File_write_at own");
        mw_count(&st, MPI_BYTE, 1000, "write_at own count");
    }
    MW_OK(MPI_File_close(&fh), "MPI_File_close own");

    mw_barrier();
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
