/* The DXT_POSIX, DXT_MPIIO and DXT_STDIO modules: a trace of every read and
 * write the POSIX (MPI-IO, STDIO) module counts (offset, length, start and
 * end time, thread), one record per file, in the layout of
 * include/iolens/modules/dxt.h (the versions with thread ids).
 *
 * Fed from the source module's read/write note through one test of a flag
 * that is 0 unless the module is enabled: posix.h's iol_posix_rw_extra,
 * mpi_io.h's iol_mpiio_rw_extra, stdio_mod.h's iol_stdio_rw_extra. The segments live in the record file's trace area
 * of DXT_MEM bytes (common/recfile.h; bounded: when it is full the module is
 * marked partial and later segments are dropped), so that a killed
 * process's recovered log has them; the log writer asks the module for each
 * whole record (iol_module.full_record), which applies the triggers. */
#ifndef IOL_RT_DXT_H
#define IOL_RT_DXT_H

#include <stdint.h>

#include "core/core.h"

extern const struct iol_module iol_dxt_posix_module;
extern const struct iol_module iol_dxt_mpiio_module;
extern const struct iol_module iol_dxt_stdio_module;

/* One read (is_write 0) or write of length bytes at offset of the POSIX
 * record posix, from t0 to t1 (seconds since start). The caller holds
 * posix's lock; *dxt is the POSIX record's cache of its DXT record (NULL at
 * first: the DXT record is then made, or marked as not kept). */
void iol_dxt_posix_note(struct iol_slot *posix, void **dxt, int is_write, int64_t offset,
                        int64_t length, double t0, double t1);

/* The same for a read or write of length bytes at byte offset offset of the
 * MPI-IO record mpiio (its lock held); *dxt is that record's cache. */
void iol_dxt_mpiio_note(struct iol_slot *mpiio, void **dxt, int is_write, int64_t offset,
                        int64_t length, double t0, double t1);

/* The same for a read or write of length bytes at the stream position
 * offset of the STDIO record stdio (its lock held); *dxt is that record's
 * cache. */
void iol_dxt_stdio_note(struct iol_slot *stdio, void **dxt, int is_write, int64_t offset,
                        int64_t length, double t0, double t1);

#endif
