/* The HDF5 modules as the rest of the runtime sees them: Darshan 3.5's H5F
 * (one record per HDF5 file) and H5D (one per dataset, named after its file
 * and its path in the file), counted as darshan-runtime/lib/darshan-hdf5.c
 * counts them for HDF5 1.10 and later. Built only when CMake finds hdf5.h
 * (IOLENS_WITH_HDF5); no HDF5 header here. */
#ifndef IOL_RT_H5_MODS_H
#define IOL_RT_H5_MODS_H

#include "core/core.h"

extern const struct iol_module iol_h5f_module;
extern const struct iol_module iol_h5d_module;

#endif
