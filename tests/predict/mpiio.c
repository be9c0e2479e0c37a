/* MPI-IO: a collective write at explicit offsets in a loop of symbolic
 * count, and independent reads at offsets from rand(). */
#include <mpi.h>
#include <stdlib.h>

#define NVALUES 1024

void write_steps(MPI_File fh, const double *values, int rank, int nsteps)
{
    for (int s = 0; s < nsteps; s++) {
        MPI_Offset off = ((MPI_Offset)s * 4 + rank) * NVALUES * sizeof(double);
        MPI_File_write_at_all(fh, off, values, NVALUES, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    MPI_File_sync(fh);
}

void read_samples(MPI_File fh, double *values)
{
    for (int k = 0; k < 16; k++) {
        MPI_Offset off = (MPI_Offset)(rand() % 64) * NVALUES * sizeof(double);
        MPI_File_read_at(fh, off, values, NVALUES, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    static double values[NVALUES];
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, "mpiio.out", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    write_steps(fh, values, rank, argc);
    read_samples(fh, values);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
