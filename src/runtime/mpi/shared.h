/* Shared records: the hooks where a record that every process has becomes one
 * record of rank -1 (Darshan's shared-file reduction; docs/runtime.md,
 * "Shared records"). Both run collectively, after the job's times are
 * reduced and before any region is compressed. */
#ifndef IOL_MPI_SHARED_H
#define IOL_MPI_SHARED_H

#include <stdint.h>

#include "mpilib.h"

/* The name of id among l's names (sorted by id), or NULL. */
const struct iol_mpi_name *iol_mpi_name_find(const struct iol_mpi_local *l, uint64_t id);

/* Decide which of l's names are shared, and by which modules: shared[i]
 * receives, for l->names[i], a bit (1 << module id) for each module in which
 * every process has a record of that name (0: not shared). Only names of
 * rank 0 can be shared. Non-zero ranks leave shared names out of the log.
 * @return 0, or -1 on an MPI error (this process). */
int iol_mpi_shared_find(struct iol_mpi_local *l, uint64_t *shared);

/* Reduce the shared records found by iol_mpi_shared_find: rank 0 replaces its
 * records of them with the combined ones (rank -1), other ranks drop theirs.
 * @return 0, or -1 on an error (this process). */
int iol_mpi_shared_reduce(struct iol_mpi_local *l, const uint64_t *shared);

#endif
