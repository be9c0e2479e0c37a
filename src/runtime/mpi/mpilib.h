/* State and helpers shared by the files of libiolens-mpi.so (see
 * ../mpi_ops.h for what the library is and why it is separate). Every MPI
 * call here goes through a PMPI_ name: tools behind iolens in the symbol
 * chain do not see iolens's own traffic. */
#ifndef IOL_MPI_LIB_H
#define IOL_MPI_LIB_H

#include <mpi.h>

#include "mpi_ops.h"

/* The job: a duplicate of MPI_COMM_WORLD (errors returned, not fatal), this
 * process's rank and the world size. Set by init. */
struct iol_mpi_job {
    MPI_Comm comm;
    int rank;
    int nprocs;
    const struct iol_mpi_host *host;
};

extern struct iol_mpi_job iol_mpi;

/* Combine a step's outcome over every process (logical OR), so that all of
 * them go on or all stop together. failed: this process failed the step.
 * @return 1 if any process failed (or the reduction itself did), else 0. */
int iol_mpi_any_failed(int failed);

/* Write the job's log (the ops table's write_job_log). @return 0 or -1. */
int iol_mpi_write_job_log(struct iol_mpi_local *l, char *written, size_t len);

#endif
