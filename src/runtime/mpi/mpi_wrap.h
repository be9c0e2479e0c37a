/* The MPI_Init, MPI_Init_thread and MPI_Finalize wrappers (mpi_wrap.c, built
 * only when CMake found MPI: IOLENS_WITH_MPI). */
#ifndef IOL_RT_MPI_WRAP_H
#define IOL_RT_MPI_WRAP_H

#include "core/real.h"

/* Their binding table: each function under its MPI_ and PMPI_ name. */
extern const struct iol_binding_table iol_mpi_bindings;

#endif
