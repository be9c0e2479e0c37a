/* DXT_MPIIO's workload (dxt_test.sh): every rank opens DIR/dxt.dat
 * collectively and, with r its rank, writes 100 ints at byte r * 1000
 * (MPI_File_write_at), moves its individual pointer to byte 10000 + r * 1000
 * and writes 50 ints twice through it (MPI_File_write), then reads back its
 * first 100 ints (MPI_File_read_at). Prints "done" on rank 0 at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Stop the job if call did not succeed. */
static void ok(int ret, const char *call)
{
    if (ret != MPI_SUCCESS) {
        fprintf(stderr, "dxt_mpiio: %s failed\n", call);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    static int buf[100];
    char path[4096];
    int rank;
    MPI_File fh;
    MPI_Status st;

    if (argc != 2) {
        fprintf(stderr, "usage: dxt_mpiio DIR\n");
        return 2;
    }
    ok(MPI_Init(&argc, &argv), "MPI_Init");
    ok(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    for (int i = 0; i < 100; i++)
        buf[i] = rank * 100 + i;
    snprintf(path, sizeof path, "%s/dxt.dat", argv[1]);
    ok(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
       "MPI_File_open");
    ok(MPI_File_write_at(fh, (MPI_Offset)rank * 1000, buf, 100, MPI_INT, &st),
       "MPI_File_write_at");
    ok(MPI_File_seek(fh, 10000 + (MPI_Offset)rank * 1000, MPI_SEEK_SET), "MPI_File_seek");
    ok(MPI_File_write(fh, buf, 50, MPI_INT, &st), "MPI_File_write");
    ok(MPI_File_write(fh, buf + 50, 50, MPI_INT, &st), "MPI_File_write");
    ok(MPI_File_read_at(fh, (MPI_Offset)rank * 1000, buf, 100, MPI_INT, &st),
       "MPI_File_read_at");
    ok(MPI_File_close(&fh), "MPI_File_close");
    ok(MPI_Finalize(), "MPI_Finalize");
    if (rank == 0)
        printf("done\n");
    return 0;
}
