/* Helpers shared by the PnetCDF workload programs in tests/pnetcdf/: the MPI
 * workloads' helpers (../mpi/mpiwl.h: `pnc_NAME DIR`, 4 ranks, a failed call
 * exits with status 99) and one result check for PnetCDF calls. */
#ifndef IOLENS_PNCWL_H
#define IOLENS_PNCWL_H

#include <pnetcdf.h>

#include "mpiwl.h"

/* Fail unless a PnetCDF call returned NC_NOERR (its message goes to stderr). */
#define PNC_OK(call, what) \
    do { \
        int pnc_err_ = (call); \
        if (pnc_err_ != NC_NOERR) { \
            fprintf(stderr, "%s: %s\n", what, ncmpi_strerror(pnc_err_)); \
            errno = EIO; \
            wl_die(what); \
        } \
    } while (0)

#endif
