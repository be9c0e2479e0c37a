/* h5_indep DIR, 4 ranks, parallel HDF5 with independent transfers: every
 * rank creates DIR/indep.h5 through the MPI-IO driver (collective), with a
 * 32 x 64 dataset of doubles /data (8 rows per rank) and /ranks (4 ints);
 * writes its rows twice with the default transfer list and once with an
 * explicitly independent one, reads them back, writes elements 0 to r of
 * /ranks as a point selection (rank r: r + 1 ints); flushes the file; closes; reopens it read-only and
 * reads all of /data (H5S_ALL). */
#include "h5mpi.h"

static double rows[H5MPI_ROWS * H5MPI_COLS];
static double all[4 * H5MPI_ROWS * H5MPI_COLS];

int main(int argc, char **argv)
{
    char path[4096];
    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    int rank = mw_rank();
    WL_CHECK(argc >= 2, "usage: h5_indep DIR");
    wl_path(path, sizeof path, argv[1], "indep.h5");
    for (int i = 0; i < H5MPI_ROWS * H5MPI_COLS; i++)
        rows[i] = rank * 1000 + i;

    hid_t fapl = h5mpi_fapl(MPI_COMM_WORLD);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5_OK(f, "H5Fcreate");
    hsize_t dims[2] = {4 * H5MPI_ROWS, H5MPI_COLS};
    hid_t space = H5Screate_simple(2, dims, NULL);
    H5_OK(space, "H5Screate_simple");
    hid_t d = H5Dcreate2(f, "data", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    H5_OK(d, "H5Dcreate2");
    hid_t ranks_space = h5wl_space1(4);
    hid_t dr = H5Dcreate2(f, "ranks", H5T_NATIVE_INT, ranks_space, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    H5_OK(dr, "H5Dcreate2 ranks");

    hid_t fs = h5mpi_my_rows(d, rank);
    hid_t ms = h5wl_space1(H5MPI_ROWS * H5MPI_COLS);
    H5_OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, rows), "H5Dwrite");
    H5_OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, rows), "H5Dwrite");
    hid_t dxpl = h5mpi_dxpl(H5FD_MPIO_INDEPENDENT);
    H5_OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, dxpl, rows), "H5Dwrite indep");
    H5_OK(H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, dxpl, rows), "H5Dread");

    hsize_t mine[4] = {0, 1, 2, 3};
    int val[4] = {rank, rank, rank, rank};
    hid_t rs = H5Dget_space(dr);
    H5_OK(rs, "H5Dget_space");
    H5_OK(H5Sselect_elements(rs, H5S_SELECT_SET, (size_t)rank + 1, mine), "H5Sselect_elements");
    hid_t one = h5wl_space1((hsize_t)rank + 1);
    H5_OK(H5Dwrite(dr, H5T_NATIVE_INT, one, rs, H5P_DEFAULT, val), "H5Dwrite points");
    H5_OK(H5Fflush(f, H5F_SCOPE_GLOBAL), "H5Fflush");

    H5_OK(H5Sclose(one), "H5Sclose");
    H5_OK(H5Sclose(rs), "H5Sclose");
    H5_OK(H5Sclose(ms), "H5Sclose");
    H5_OK(H5Sclose(fs), "H5Sclose");
    H5_OK(H5Sclose(ranks_space), "H5Sclose");
    H5_OK(H5Sclose(space), "H5Sclose");
    H5_OK(H5Dclose(dr), "H5Dclose");
    H5_OK(H5Dclose(d), "H5Dclose");
    H5_OK(H5Fclose(f), "H5Fclose");

    f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5_OK(f, "H5Fopen");
    d = H5Dopen2(f, "data", H5P_DEFAULT);
    H5_OK(d, "H5Dopen2");
    H5_OK(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, all), "H5Dread all");
    H5_OK(H5Dclose(d), "H5Dclose");
    H5_OK(H5Fclose(f), "H5Fclose");
    H5_OK(H5Pclose(dxpl), "H5Pclose");
    H5_OK(H5Pclose(fapl), "H5Pclose");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
