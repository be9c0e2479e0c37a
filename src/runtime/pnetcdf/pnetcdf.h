/* The PnetCDF modules as the rest of the runtime sees them: Darshan's
 * PNETCDF_FILE v3 record per file opened or created with ncmpi_open or
 * ncmpi_create, and PNETCDF_VAR v1 record per variable defined or looked up,
 * counted per rank as Darshan 3.5 counts them (darshan-pnetcdf.c and its
 * generated wrappers; differences: docs/runtime.md). Built only with MPI and
 * PnetCDF's header (IOLENS_WITH_PNETCDF); no MPI or PnetCDF header here.
 * IOL_PNETCDF_MODULES is this folder's one line of core.c's module table. */
#ifndef IOL_RT_PNETCDF_H
#define IOL_RT_PNETCDF_H

#include "core/core.h"

extern const struct iol_module iol_pnetcdf_file_module;
extern const struct iol_module iol_pnetcdf_var_module;

#ifdef IOLENS_WITH_PNETCDF
#define IOL_PNETCDF_MODULES &iol_pnetcdf_file_module, &iol_pnetcdf_var_module,
#else
#define IOL_PNETCDF_MODULES
#endif

#endif
