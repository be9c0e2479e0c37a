/* What the MPI workloads of tests/hdf5/ share: ../mpi/mpiwl.h's checks and
 * rank, and the parallel HDF5 calls of the shared file's layout. */
#ifndef IOLENS_H5MPI_H
#define IOLENS_H5MPI_H

#include "h5wl.h"
#include "mpiwl.h"

#define H5MPI_ROWS 8   /* rows of the shared dataset per rank */
#define H5MPI_COLS 64

/* A file access list with the MPI-IO driver on comm. */
static inline hid_t h5mpi_fapl(MPI_Comm comm)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5_OK(fapl, "H5Pcreate fapl");
    H5_OK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
    return fapl;
}

/* A transfer list asking for mode (independent or collective) MPI-IO. */
static inline hid_t h5mpi_dxpl(H5FD_mpio_xfer_t mode)
{
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5_OK(dxpl, "H5Pcreate dxpl");
    H5_OK(H5Pset_dxpl_mpio(dxpl, mode), "H5Pset_dxpl_mpio");
    return dxpl;
}

/* The file space of dataset d with this rank's rows selected. */
static inline hid_t h5mpi_my_rows(hid_t d, int rank)
{
    hsize_t start[2] = {(hsize_t)rank * H5MPI_ROWS, 0}, count[2] = {1, 1};
    hsize_t block[2] = {H5MPI_ROWS, H5MPI_COLS};
    hid_t fs = H5Dget_space(d);
    H5_OK(fs, "H5Dget_space");
    H5_OK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, block), "hyperslab");
    return fs;
}

#endif
