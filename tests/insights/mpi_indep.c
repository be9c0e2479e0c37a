/* no-collective-io: 4 ranks read their quarter of a shared (sparse) file
 * with 275 independent reads of 512 KiB each: 1,100 MPI-IO reads, none
 * collective. */
#include <mpi.h>

#include "ins.h"

#define PER_RANK 275
#define BLOCK (512 * 1024)

int main(int argc, char **argv)
{
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ins_check(argc > 1, "usage: ins_mpi_indep DIR");
    char *buf = ins_buffer(BLOCK);
    ins_path(path, sizeof(path), argv[1], "input.bin");
    ins_check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh) == MPI_SUCCESS, "MPI_File_open");
    ins_check(MPI_File_set_size(fh, (MPI_Offset)4 * PER_RANK * BLOCK) == MPI_SUCCESS,
              "MPI_File_set_size");
    for (int i = 0; i < PER_RANK; i++) {
        MPI_Offset at = ((MPI_Offset)rank * PER_RANK + i) * BLOCK;
        ins_check(MPI_File_read_at(fh, at, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS, "MPI_File_read_at");
    }
    ins_check(MPI_File_close(&fh) == MPI_SUCCESS, "MPI_File_close");
    free(buf);
    MPI_Finalize();
    return 0;
}
