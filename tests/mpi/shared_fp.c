/* Shared file pointer, ordered and split collective MPI-IO on sfp.dat:
 * - MPI_File_write_shared of 1000 + 100 * rank bytes, ranks taking turns
 *   in rank order (a barrier after each turn), MPI_File_seek_shared to 0,
 *   then MPI_File_read_shared of 500 bytes, in turns;
 * - MPI_File_write_ordered of 4 KiB, MPI_File_seek_shared to 0,
 *   MPI_File_read_ordered of 1 KiB;
 * - split collectives: MPI_File_write_all_begin/end and
 *   MPI_File_read_all_begin/end of 8 KiB at 64 KiB + 8 KiB * rank (individual
 *   pointer), MPI_File_write_at_all_begin/end and read_at_all_begin/end of
 *   4 KiB at 128 KiB + 4 KiB * rank, MPI_File_write_ordered_begin/end of
 *   2 KiB, seek_shared to 0, MPI_File_read_ordered_begin/end of 2 KiB;
 * - MPI_File_iwrite_shared of 300 bytes + MPI_Wait, in turns, seek_shared
 *   to 0, MPI_File_iread_shared of 300 bytes + MPI_Wait, in turns. */
#include "mpiwl.h"

#define BIG 8192

static _Alignas(4096) unsigned char buf[BIG];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Status st;
    MPI_Request rq;
    MPI_Offset off;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);

    wl_path(path, sizeof path, dir, "sfp.dat");
    MW_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh), "MPI_File_open");

    for (int turn = 0; turn < MW_NPROCS; turn++) {
        if (turn == rank) {
            MW_OK(MPI_File_write_shared(fh, buf, 1000 + 100 * rank, MPI_BYTE, &st),
                  "write_shared");
            mw_count(&st, MPI_BYTE, 1000 + 100 * rank, "write_shared count");
        }
        mw_barrier();
    }
    MW_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), "seek_shared");
    for (int turn = 0; turn < MW_NPROCS; turn++) {
        if (turn == rank) {
            MW_OK(MPI_File_read_shared(fh, buf, 500, MPI_BYTE, &st), "read_shared");
            mw_count(&st, MPI_BYTE, 500, "read_shared count");
        }
        mw_barrier();
    }

    MW_OK(MPI_File_write_ordered(fh, buf, 4096, MPI_BYTE, &st), "write_ordered");
    mw_count(&st, MPI_BYTE, 4096, "write_ordered count");
    MW_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), "seek_shared");
    MW_OK(MPI_File_read_ordered(fh, buf, 1024, MPI_BYTE, &st), "read_ordered");
    mw_count(&st, MPI_BYTE, 1024, "read_ordered count");

    off = 65536 + (MPI_Offset)rank * BIG;
    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_write_all_begin(fh, buf, BIG, MPI_BYTE), "write_all_begin");
    MW_OK(MPI_File_write_all_end(fh, buf, &st), "write_all_end");
    MW_OK(MPI_File_seek(fh, off, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_read_all_begin(fh, buf, BIG, MPI_BYTE), "read_all_begin");
    MW_OK(MPI_File_read_all_end(fh, buf, &st), "read_all_end");

    off = 131072 + (MPI_Offset)rank * 4096;
    MW_OK(MPI_File_write_at_all_begin(fh, off, buf, 4096, MPI_BYTE), "write_at_all_begin");
    MW_OK(MPI_File_write_at_all_end(fh, buf, &st), "write_at_all_end");
    MW_OK(MPI_File_read_at_all_begin(fh, off, buf, 4096, MPI_BYTE), "read_at_all_begin");
    MW_OK(MPI_File_read_at_all_end(fh, buf, &st), "read_at_all_end");

    MW_OK(MPI_File_write_ordered_begin(fh, buf, 2048, MPI_BYTE), "write_ordered_begin");
    MW_OK(MPI_File_write_ordered_end(fh, buf, &st), "write_ordered_end");
    MW_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), "seek_shared");
    MW_OK(MPI_File_read_ordered_begin(fh, buf, 2048, MPI_BYTE), "read_ordered_begin");
    MW_OK(MPI_File_read_ordered_end(fh, buf, &st), "read_ordered_end");

    for (int turn = 0; turn < MW_NPROCS; turn++) {
        if (turn == rank) {
            MW_OK(MPI_File_iwrite_shared(fh, buf, 300, MPI_BYTE, &rq), "iwrite_shared");
            MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
        }
        mw_barrier();
    }
    MW_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), "seek_shared");
    for (int turn = 0; turn < MW_NPROCS; turn++) {
        if (turn == rank) {
            MW_OK(MPI_File_iread_shared(fh, buf, 300, MPI_BYTE, &rq), "iread_shared");
            MW_OK(MPI_Wait(&rq, &st), "MPI_Wait");
        }
        mw_barrier();
    }

    MW_OK(MPI_File_close(&fh), "MPI_File_close");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
