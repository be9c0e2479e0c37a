/* rank0-io: rank 0 writes all the job's data (32 MiB, in 4 MiB requests)
 * to its own file; the other ranks write nothing. */
#include <mpi.h>

#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ins_check(argc > 1, "usage: ins_mpi_rank0 DIR");
    if (rank == 0) {
        char *buf = ins_buffer(4 * MIB);
        ins_path(path, sizeof(path), argv[1], "all.bin");
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        ins_check(fd >= 0, "open");
        for (int i = 0; i < 8; i++)
            ins_check(write(fd, buf, 4 * MIB) == 4 * MIB, "write");
        ins_check(close(fd) == 0, "close");
        free(buf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
