/* Clean MPI job: 4 ranks write one shared file collectively, 4 x 4 MiB each
 * at their own offsets, and read it back the same way. */
#include <mpi.h>

#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ins_check(argc > 1, "usage: ins_mpi_clean DIR");
    char *buf = ins_buffer(4 * MIB);
    ins_path(path, sizeof(path), argv[1], "shared.bin");
    ins_check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh) == MPI_SUCCESS, "MPI_File_open");
    for (int i = 0; i < 4; i++) {
        MPI_Offset at = ((MPI_Offset)i * 4 + rank) * 4 * MIB;
        ins_check(MPI_File_write_at_all(fh, at, buf, 4 * MIB, MPI_BYTE, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS, "MPI_File_write_at_all");
    }
    for (int i = 0; i < 4; i++) {
        MPI_Offset at = ((MPI_Offset)i * 4 + rank) * 4 * MIB;
        ins_check(MPI_File_read_at_all(fh, at, buf, 4 * MIB, MPI_BYTE, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS, "MPI_File_read_at_all");
    }
    ins_check(MPI_File_close(&fh) == MPI_SUCCESS, "MPI_File_close");
    free(buf);
    MPI_Finalize();
    return 0;
}
