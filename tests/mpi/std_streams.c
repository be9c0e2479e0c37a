/* The standard streams in an MPI job: rank 0 writes 3 lines to stdout with
 * fputs and 20 bytes to stderr with fwrite; every rank then flushes stdout,
 * which is all ranks 1-3 do. Each rank has made a STDIO call, so each knows
 * the three standard streams, as Darshan's STDIO module makes their records
 * when it starts: <STDOUT> and <STDERR> are shared records (every rank's
 * open and flushes, rank 0's bytes), and <STDIN>, which moved no byte, is
 * left out after the reduction. */
#include <stdio.h>

#include "mpiwl.h"

int main(int argc, char **argv)
{
    (void)wl_dir(argc, argv);
    int rank;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    MW_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    if (rank == 0) {
        for (int i = 0; i < 3; i++)
            WL_CHECK(fputs("std_streams line\n", stdout) >= 0, "fputs");
        WL_EXPECT_N(fwrite("std_streams stderr\n", 1, 20, stderr), 20, "fwrite stderr");
    }
    WL_CHECK(fflush(stdout) == 0, "fflush");
    MW_OK(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
