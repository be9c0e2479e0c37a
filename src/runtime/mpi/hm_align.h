/* HEATMAP records of all ranks on one time line (see hm_align.c). */
#ifndef IOL_MPI_HM_ALIGN_H
#define IOL_MPI_HM_ALIGN_H

#include "mpilib.h"

/* Collective: give every HEATMAP record of l as many bins as the job's
 * longest heatmap spans (in its own bin width), doubling the width where 200
 * bins would not reach. @return 0, or -1 on an MPI error. */
int iol_mpi_heatmap_align(struct iol_mpi_local *l);

#endif
