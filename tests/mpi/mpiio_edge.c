/* MPI-IO counting in corners the other workloads do not reach. Each rank:
 * opens DIR/edge.dat on MPI_COMM_WORLD; sets a view with hints (MPIIO_VIEWS and MPIIO_HINTS);
 * writes 0 items (an access of size 0), 5 items of a 24-byte contiguous
 * type at the individual pointer, and 4 KiB at 4 KiB * rank; calls
 * set_size, preallocate, seek and get_info, which are not counted; reads
 * its 4 KiB back twice; closes. Then it opens the relative name
 * "edge.RANK" (the directory it runs in is DIR) on MPI_COMM_SELF, reopens
 * it once more before closing the first handle (two handles, one record),
 * writes through both and closes both. */
#include "mpiwl.h"

#define BLOCK 4096

static char buf[BLOCK];

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], name[64];
    int rank;
    MPI_File fh, fh2;
    MPI_Status st;
    MPI_Info info, got;
    MPI_Datatype three;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    wl_fill(buf, sizeof buf, (unsigned)rank);
    MW_OK(MPI_Type_contiguous(3, MPI_DOUBLE, &three), "MPI_Type_contiguous");
    MW_OK(MPI_Type_commit(&three), "MPI_Type_commit");
    MW_OK(MPI_Info_create(&info), "MPI_Info_create");
    MW_OK(MPI_Info_set(info, "access_style", "write_once"), "MPI_Info_set");

    wl_path(path, sizeof path, dir, "edge.dat");
    MW_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh), "MPI_File_open edge.dat");
    MW_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", info), "MPI_File_set_view");
    MW_OK(MPI_File_write_at(fh, 0, buf, 0, MPI_BYTE, &st), "write_at of 0 items");
    MW_OK(MPI_File_write(fh, buf, 5, three, &st), "write of 5 x 24 bytes");
    MW_OK(MPI_File_write_at(fh, (MPI_Offset)BLOCK * rank, buf, BLOCK, MPI_BYTE, &st),
          "write_at");
    MW_OK(MPI_File_set_size(fh, (MPI_Offset)BLOCK * MW_NPROCS), "MPI_File_set_size");
    MW_OK(MPI_File_preallocate(fh, (MPI_Offset)BLOCK * MW_NPROCS), "MPI_File_preallocate");
    MW_OK(MPI_File_seek(fh, 0, MPI_SEEK_SET), "MPI_File_seek");
    MW_OK(MPI_File_get_info(fh, &got), "MPI_File_get_info");
    MW_OK(MPI_Info_free(&got), "MPI_Info_free");
    for (int i = 0; i < 2; i++)
        MW_OK(MPI_File_read_at(fh, (MPI_Offset)BLOCK * rank, buf, BLOCK, MPI_BYTE, &st),
              "read_at");
    MW_OK(MPI_File_close(&fh), "MPI_File_close edge.dat");

    int n = snprintf(name, sizeof name, "edge.%d", rank);
    if (n < 0 || (size_t)n >= sizeof name)
        wl_die("name too long");
    MW_OK(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh),
          "MPI_File_open edge.RANK");
    MW_OK(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh2),
          "MPI_File_open edge.RANK again");
    MW_OK(MPI_File_write_at(fh, 0, buf, 100, MPI_BYTE, &st), "write_at first handle");
    MW_OK(MPI_File_write_at(fh2, 100, buf, 200, MPI_BYTE, &st), "write_at second handle");
    MW_OK(MPI_File_close(&fh), "MPI_File_close first handle");
    MW_OK(MPI_File_write_at(fh2, 300, buf, 300, MPI_BYTE, &st), "write_at after first close");
    MW_OK(MPI_File_close(&fh2), "MPI_File_close second handle");

    MW_OK(MPI_Info_free(&info), "MPI_Info_free");
    MW_OK(MPI_Type_free(&three), "MPI_Type_free");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
