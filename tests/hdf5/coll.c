/* h5_coll DIR, 4 ranks, parallel HDF5 with collective transfers
 * (H5FD_MPIO_COLLECTIVE): DIR/coll.h5 through the MPI-IO driver, a
 * contiguous 32 x 64 dataset of doubles /data and a chunked one /chunked
 * (chunks of 8 x 16); each rank writes its 8 rows of both collectively,
 * twice for /data; reads them back collectively; the file is flushed;
 * closed; reopened read-only and /chunked read whole collectively with
 * H5S_ALL. */
#include "h5mpi.h"

static double rows[H5MPI_ROWS * H5MPI_COLS];
static double all[4 * H5MPI_ROWS * H5MPI_COLS];

int main(int argc, char **argv)
{
    char path[4096];
    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    int rank = mw_rank();
    WL_CHECK(argc >= 2, "usage: h5_coll DIR");
    wl_path(path, sizeof path, argv[1], "coll.h5");
    for (int i = 0; i < H5MPI_ROWS * H5MPI_COLS; i++)
        rows[i] = rank * 1000 + i;

    hid_t fapl = h5mpi_fapl(MPI_COMM_WORLD);
    hid_t dxpl = h5mpi_dxpl(H5FD_MPIO_COLLECTIVE);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5_OK(f, "H5Fcreate");
    hsize_t dims[2] = {4 * H5MPI_ROWS, H5MPI_COLS}, chunk[2] = {8, 16};
    hid_t space = H5Screate_simple(2, dims, NULL);
    H5_OK(space, "H5Screate_simple");
    hid_t d = H5Dcreate2(f, "data", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    H5_OK(d, "H5Dcreate2");
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5_OK(dcpl, "H5Pcreate");
    H5_OK(H5Pset_chunk(dcpl, 2, chunk), "H5Pset_chunk");
    hid_t dc = H5Dcreate2(f, "chunked", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl,
                          H5P_DEFAULT);
    H5_OK(dc, "H5Dcreate2 chunked");

    hid_t fs = h5mpi_my_rows(d, rank);
    hid_t ms = h5wl_space1(H5MPI_ROWS * H5MPI_COLS);
    H5_OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, dxpl, rows), "H5Dwrite");
    H5_OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, dxpl, rows), "H5Dwrite");
    H5_OK(H5Dwrite(dc, H5T_NATIVE_DOUBLE, ms, fs, dxpl, rows), "H5Dwrite chunked");
    H5_OK(H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, dxpl, rows), "H5Dread");
    H5_OK(H5Dread(dc, H5T_NATIVE_DOUBLE, ms, fs, dxpl, rows), "H5Dread chunked");
    H5_OK(H5Fflush(d, H5F_SCOPE_GLOBAL), "H5Fflush");

    H5_OK(H5Sclose(ms), "H5Sclose");
    H5_OK(H5Sclose(fs), "H5Sclose");
    H5_OK(H5Sclose(space), "H5Sclose");
    H5_OK(H5Pclose(dcpl), "H5Pclose");
    H5_OK(H5Dclose(dc), "H5Dclose");
    H5_OK(H5Dclose(d), "H5Dclose");
    H5_OK(H5Fclose(f), "H5Fclose");

    f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5_OK(f, "H5Fopen");
    dc = H5Dopen2(f, "chunked", H5P_DEFAULT);
    H5_OK(dc, "H5Dopen2");
    H5_OK(H5Dread(dc, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, all), "H5Dread all");
    H5_OK(H5Dclose(dc), "H5Dclose");
    H5_OK(H5Fclose(f), "H5Fclose");
    H5_OK(H5Pclose(dxpl), "H5Pclose");
    H5_OK(H5Pclose(fapl), "H5Pclose");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
