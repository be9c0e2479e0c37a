/* Helpers shared by the HDF5 workload programs in tests/hdf5/: the result
 * checks of ../workloads/wl.h, plus one for HDF5 calls (a negative
 * identifier or status ends the program with status 99, after HDF5 printed
 * its error stack). Every HDF5 call a workload makes is written out in the
 * workload itself. */
#ifndef IOLENS_H5WL_H
#define IOLENS_H5WL_H

#include <hdf5.h>

#include "wl.h"

/* Fail unless an HDF5 call returned a valid identifier or a success. */
#define H5_OK(call, what) \
    do { if ((int64_t)(call) < 0) { errno = EIO; wl_die(what); } } while (0)

/* A dataspace of one dimension of n elements. */
static inline hid_t h5wl_space1(hsize_t n)
{
    hid_t s = H5Screate_simple(1, &n, NULL);
    H5_OK(s, "H5Screate_simple");
    return s;
}

#endif
