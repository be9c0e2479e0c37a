/* An MPI job as libiolens.so sees it: libiolens-mpi.so loaded at MPI_Init,
 * one log for the whole job written at MPI_Finalize (see mpi_ops.h and
 * docs/runtime.md, "MPI programs"). No MPI header or function here. */
#ifndef IOL_RT_MPI_JOB_H
#define IOL_RT_MPI_JOB_H

#include "mpi_ops.h"

/* After the real MPI_Init succeeded: load libiolens-mpi.so and start the
 * job (collective). recording: this process's runtime is recording. Without
 * the library, or if some process does not record, every process goes on
 * recording on its own and writes its own log at exit. */
void iol_mpi_job_start(int recording);

/* Before the real MPI_Finalize: write the job's log (collective) and end the
 * runtime of this process, so that no log of its own follows at exit. */
void iol_mpi_job_end(void);

/* This process's records and job data for the job log, rank set in every
 * record, end time taken now; with_records 0: the job data only (a rank
 * excluded by RANK_EXCLUDE). @return a new local (iol_mpi_local_free), or
 * NULL without memory. */
struct iol_mpi_local *iol_mpi_local_collect(int rank, int with_records);

/* Free what iol_mpi_local_collect returned; NULL is allowed. */
void iol_mpi_local_free(struct iol_mpi_local *l);

#endif
