/* h5_fpp DIR, 4 ranks, one HDF5 file per process: rank r creates
 * DIR/fpp.r.h5 with the default (POSIX) driver and writes a dataset of
 * 100 * (r + 1) doubles whole, then DIR/self.r.h5 through the MPI-IO driver
 * on MPI_COMM_SELF, writes and reads a dataset of 64 doubles; no name is
 * shared by the ranks. */
#include "h5mpi.h"

static double vals[400];

/* A one-dataset file at DIR/NAME.RANK.h5 with the access list fapl. */
static void one_file(const char *dir, const char *name, int rank, hid_t fapl, hsize_t n,
                     int read_back)
{
    char file[64], path[4096];
    snprintf(file, sizeof file, "%s.%d.h5", name, rank);
    wl_path(path, sizeof path, dir, file);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5_OK(f, "H5Fcreate");
    hid_t s = h5wl_space1(n);
    hid_t d = H5Dcreate2(f, "v", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5_OK(d, "H5Dcreate2");
    H5_OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals), "H5Dwrite");
    if (read_back)
        H5_OK(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals), "H5Dread");
    H5_OK(H5Dclose(d), "H5Dclose");
    H5_OK(H5Sclose(s), "H5Sclose");
    H5_OK(H5Fclose(f), "H5Fclose");
}

int main(int argc, char **argv)
{
    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    int rank = mw_rank();
    WL_CHECK(argc >= 2, "usage: h5_fpp DIR");
    one_file(argv[1], "fpp", rank, H5P_DEFAULT, 100 * (hsize_t)(rank + 1), 0);
    hid_t fapl = h5mpi_fapl(MPI_COMM_SELF);
    one_file(argv[1], "self", rank, fapl, 64, 1);
    H5_OK(H5Pclose(fapl), "H5Pclose");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
