/* The MPI-IO module as the rest of the runtime sees it: Darshan's MPI-IO v3
 * record per file opened with MPI_File_open, counted per rank as
 * darshan-runtime/lib/darshan-mpiio.c counts it (deliberate differences:
 * docs/runtime.md). mpi_io.c holds the module, the handle table and the
 * counter updates; mpi_io_meta.c the open, close, sync and set_view
 * wrappers; mpi_io_rw.c the read and write wrappers. Built only with MPI
 * (IOLENS_WITH_MPI); no MPI header here. */
#ifndef IOL_RT_MPI_IO_H
#define IOL_RT_MPI_IO_H

#include "core/core.h"

extern const struct iol_module iol_mpiio_module;

/* libiolens-mpi.so's copies of MPI_INFO_NULL and MPI_DATATYPE_NULL (the
 * ops table's info_null and datatype_null), taken at MPI_Init before any
 * file can be opened; a NULL pointer leaves that handle unknown. */
void iol_mpiio_set_nulls(const void *info_null, const void *datatype_null);

/* The MPI_DATATYPE_NULL handed over at MPI_Init (an MPI_Datatype), or NULL
 * while it is unknown (for the PnetCDF module's vard calls). */
const void *iol_mpiio_datatype_null(void);

/* What a read or write wrapper and note do beyond the counters, one bit
 * each: 0 unless DXT_MPIIO, MPI-IO events or call sites are on (posix.h's
 * iol_posix_rw_extra for MPI-IO). The bits of IOL_MPIIO_RW_AT also make the
 * wrappers ask MPI for the access's byte offset before the real call (call
 * sites do not need it). Set with iol_flag_set by dxt.c, events.c and
 * callsites.c. */
enum { IOL_MPIIO_RW_DXT = 1, IOL_MPIIO_RW_EVENTS = 2, IOL_MPIIO_RW_CALLSITES = 4 };
enum { IOL_MPIIO_RW_AT = IOL_MPIIO_RW_DXT | IOL_MPIIO_RW_EVENTS };
extern unsigned char iol_mpiio_rw_extra __attribute__((visibility("hidden")));

#endif
