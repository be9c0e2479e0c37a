/* LOG_PER_RANK: one log per rank instead of the job's (see rank_log.c). */
#ifndef IOL_MPI_RANK_LOG_H
#define IOL_MPI_RANK_LOG_H

#include <stddef.h>

#include "mpilib.h"

/* Collective, then each rank on its own: write this rank's log from l, its
 * records unreduced; written receives its path. @return 0, or -1 when this
 * rank wrote none (the others may have). */
int iol_mpi_write_rank_log(struct iol_mpi_local *l, char *written, size_t len);

#endif
