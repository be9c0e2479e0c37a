/* A strided file view: each rank sees every fourth block of 256 ints of
 * view.dat (MPI_Type_vector of 16 blocks, displacement 1 KiB * rank) and
 * writes two instances of it with MPI_File_write_all, seeks back and reads
 * them with two MPI_File_read_all. Then a second view (bytes, contiguous)
 * and one MPI_File_read_at_all of 4 KiB at 4 KiB * rank. */
#include "mpiwl.h"

#define BLOCKLEN 256          /* ints per block */
#define NBLOCKS 16            /* blocks per rank and filetype instance */

static int buf[BLOCKLEN * NBLOCKS];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype ftype;
    MPI_Offset disp;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);

    MW_OK(MPI_Type_vector(NBLOCKS, BLOCKLEN, BLOCKLEN * MW_NPROCS, MPI_INT, &ftype),
          "MPI_Type_vector");
    MW_OK(MPI_Type_commit(&ftype), "MPI_Type_commit");

    wl_path(path, sizeof path, dir, "view.dat");
    MW_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh), "MPI_File_open");
    disp = (MPI_Offset)rank * BLOCKLEN * (MPI_Offset)sizeof(int);
    MW_OK(MPI_File_set_view(fh, disp, MPI_INT, ftype, "native", MPI_INFO_NULL),
          "MPI_File_set_view");
    for (int i = 0; i < 2; i++) {
        MW_OK(MPI_File_write_all(fh, buf, BLOCKLEN * NBLOCKS, MPI_INT, &st), "write_all");
        mw_count(&st, MPI_INT, BLOCKLEN * NBLOCKS, "write_all count");
    }
    MW_OK(MPI_File_seek(fh, 0, MPI_SEEK_SET), "MPI_File_seek");
    for (int i = 0; i < 2; i++) {
        MW_OK(MPI_File_read_all(fh, buf, BLOCKLEN * NBLOCKS, MPI_INT, &st), "read_all");
        mw_count(&st, MPI_INT, BLOCKLEN * NBLOCKS, "read_all count");
    }
    MW_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
          "MPI_File_set_view bytes");
    MW_OK(MPI_File_read_at_all(fh, (MPI_Offset)rank * 4096, buf, 4096, MPI_BYTE, &st),
          "read_at_all");
    mw_count(&st, MPI_BYTE, 4096, "read_at_all count");
    MW_OK(MPI_File_close(&fh), "MPI_File_close");
    MW_OK(MPI_Type_free(&ftype), "MPI_Type_free");

    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
