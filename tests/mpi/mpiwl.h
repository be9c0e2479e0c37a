/* Helpers shared by the MPI workload programs in tests/mpi/.
 *
 * Each program is `mpi_NAME DIR`, run as 4 ranks: it creates its files under
 * DIR (absolute, existing, clean) and does a fixed sequence of POSIX, STDIO
 * and MPI-IO calls. The result checks of ../workloads/wl.h apply (a failed
 * call exits with status 99, which makes mpirun fail); MW_OK adds one for
 * MPI calls. Where several ranks use a shared file pointer, they take turns
 * (mw_turns) so that every offset is the same in every run.
 */
#ifndef IOLENS_MPIWL_H
#define IOLENS_MPIWL_H

#include <mpi.h>

#include "wl.h"

#define MW_NPROCS 4

/* Fail unless an MPI call returned MPI_SUCCESS. */
#define MW_OK(call, what) \
    do { if ((call) != MPI_SUCCESS) { errno = EIO; wl_die(what); } } while (0)

/* Fail unless a status says COUNT elements of TYPE moved. */
static inline void mw_count(MPI_Status *st, MPI_Datatype type, int count, const char *what)
{
    int got = -1;
    MW_OK(MPI_Get_count(st, type, &got), "MPI_Get_count");
    WL_EXPECT_N(got, count, what);
}

/* The rank; fails unless the job has exactly MW_NPROCS ranks. */
static inline int mw_rank(void)
{
    int rank, size;
    MW_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    MW_OK(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    if (size != MW_NPROCS) {
        errno = EINVAL;
        wl_die("run with 4 ranks");
    }
    return rank;
}

/* DIR/NAME.RANK into BUF. */
static inline void mw_rank_path(char *buf, size_t size, const char *dir, const char *name,
                                int rank)
{
    int n = snprintf(buf, size, "%s/%s.%d", dir, name, rank);
    if (n < 0 || (size_t)n >= size) {
        errno = ENAMETOOLONG;
        wl_die(name);
    }
}

/* Barrier; fails on error. */
static inline void mw_barrier(void)
{
    MW_OK(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

#endif
