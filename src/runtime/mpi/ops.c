/* libiolens-mpi.so's entry points: the ops table libiolens.so looks up. */
#include <stdarg.h>

#include "core/diag.h"
#include "mpilib.h"

struct iol_mpi_job iol_mpi = {.comm = MPI_COMM_NULL};

/* This library's diagnostics go through libiolens.so's, which knows whether
 * they are on (IOLENS_DEBUG) and writes them without stdio. */
void iol_diag(const char *fmt, ...)
{
    va_list ap;
    if (!iol_mpi.host)
        return;
    va_start(ap, fmt);
    iol_mpi.host->vdiag(fmt, ap);
    va_end(ap);
}

int iol_mpi_any_failed(int failed)
{
    int any = 1;
    if (PMPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_LOR, iol_mpi.comm) != MPI_SUCCESS)
        return 1;
    return any != 0;
}

static int init(const struct iol_mpi_host *host, int recording, int *rank, int *nprocs,
                int64_t *jobid)
{
    int all = 0;

    iol_mpi.host = host;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &iol_mpi.comm) != MPI_SUCCESS) {
        iol_diag("MPI_Comm_dup of MPI_COMM_WORLD failed");
        iol_mpi.comm = MPI_COMM_NULL;
        return -1;
    }
    if (PMPI_Comm_set_errhandler(iol_mpi.comm, MPI_ERRORS_RETURN) != MPI_SUCCESS ||
        PMPI_Comm_rank(iol_mpi.comm, &iol_mpi.rank) != MPI_SUCCESS ||
        PMPI_Comm_size(iol_mpi.comm, &iol_mpi.nprocs) != MPI_SUCCESS ||
        PMPI_Allreduce(&recording, &all, 1, MPI_INT, MPI_LAND, iol_mpi.comm) != MPI_SUCCESS ||
        PMPI_Bcast(jobid, 1, MPI_INT64_T, 0, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    *rank = iol_mpi.rank;
    *nprocs = iol_mpi.nprocs;
    return all != 0;
}

static void finalize(void)
{
    if (iol_mpi.comm != MPI_COMM_NULL)
        PMPI_Comm_free(&iol_mpi.comm);
    iol_mpi.comm = MPI_COMM_NULL;
}

static const MPI_Info info_null = MPI_INFO_NULL;
static const MPI_Datatype datatype_null = MPI_DATATYPE_NULL;

__attribute__((visibility("default"))) const struct iol_mpi_ops iolens_mpi_ops = {
    .version = IOL_MPI_OPS_VERSION,
    .init = init,
    .write_job_log = iol_mpi_write_job_log,
    .finalize = finalize,
    .info_null = &info_null,
    .datatype_null = &datatype_null,
};
