/* rank-imbalance: 4 ranks share one file; rank 0 writes 12 MiB, the others
 * 2 MiB each (independent writes of 2 MiB at their own offsets). */
#include <mpi.h>

#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ins_check(argc > 1, "usage: ins_mpi_imbalance DIR");
    char *buf = ins_buffer(2 * MIB);
    ins_path(path, sizeof(path), argv[1], "uneven.bin");
    ins_check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &fh) == MPI_SUCCESS, "MPI_File_open");
    /* Rank 0 owns blocks 0-5, rank r > 0 block 5 + r. */
    int first = rank == 0 ? 0 : 5 + rank, count = rank == 0 ? 6 : 1;
    for (int i = first; i < first + count; i++)
        ins_check(MPI_File_write_at(fh, (MPI_Offset)i * 2 * MIB, buf, 2 * MIB, MPI_BYTE,
                                    MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_File_write_at");
    ins_check(MPI_File_close(&fh) == MPI_SUCCESS, "MPI_File_close");
    free(buf);
    MPI_Finalize();
    return 0;
}
