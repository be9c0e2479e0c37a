/* Nonblocking MPI-IO (the job starts with MPI_Init_thread): on nb.dat,
 * MPI_File_iwrite_at of 32 KiB + MPI_Wait; MPI_File_iwrite of 2 KiB at the
 * individual file pointer + MPI_Wait; four 512-byte MPI_File_iwrite_at
 * completed together by MPI_Waitall; MPI_File_iread_at of 32 KiB and
 * MPI_File_iread of 512 ints, each + MPI_Wait; then the nonblocking
 * collectives MPI_File_iwrite_at_all, MPI_File_iread_at_all,
 * MPI_File_iwrite_all and MPI_File_iread_all of 4 KiB, each + MPI_Wait. */
#include "mpiwl.h"

#define BIG 32768

static _Alignas(4096) unsigned char buf[BIG];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank, provided;
    MPI_File fh;
    MPI_Status st, sts[4];
    MPI_Request rq, rqs[4];
    MPI_Offset off;

    MW_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);

    wl_path(path, sizeof path, dir, "nb.dat");
    MW_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh), "MPI_File_open");

    MW_OK(MPI_File_iwrite_at(fh, (MPI_Offset)rank * BIG, buf, BIG, MPI_BYTE, &rq), "iwrite_at");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    mw_count(&st, MPI_BYTE, BIG, "iwrite_at count");

    off = 131072 + (MPI_Offset)rank * 2048;
    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_iwrite(fh, buf, 2048, MPI_BYTE, &rq), "iwrite");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    mw_count(&st, MPI_BYTE, 2048, "iwrite count");

    for (int i = 0; i < 4; i++)
        MW_OK(MPI_File_iwrite_at(fh, 200000 + (MPI_Offset)(i * MW_NPROCS + rank) * 512,
                                 buf + i * 512, 512, MPI_BYTE, &rqs[i]), "iwrite_at small");
    MW_OK(MPI_Waitall(4, rqs, sts), "MPI_Waitall");

    MW_OK(MPI_File_iread_at(fh, (MPI_Offset)rank * BIG, buf, BIG, MPI_BYTE, &rq), "iread_at");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    mw_count(&st, MPI_BYTE, BIG, "iread_at count");

    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_iread(fh, buf, 512, MPI_INT, &rq), "iread");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    mw_count(&st, MPI_INT, 512, "iread count");

    off = 300000 + (MPI_Offset)rank * 4096;
    MW_OK(MPI_File_iwrite_at_all(fh, off, buf, 4096, MPI_BYTE, &rq), "iwrite_at_all");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    MW_OK(MPI_File_iread_at_all(fh, off, buf, 4096, MPI_BYTE, &rq), "iread_at_all");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    mw_count(&st, MPI_BYTE, 4096, "iread_at_all count");

    off = 400000 + (MPI_Offset)rank * 4096;
    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_iwrite_all(fh, buf, 4096, MPI_BYTE, &rq), "iwrite_all");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_iread_all(fh, buf, 4096, MPI_BYTE, &rq), "iread_all");
    MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
    mw_count(&st, MPI_BYTE, 4096, "iread_all count");

    MW_OK(MPI_File_close(&fh), "MPI_File_close");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
