/* DXT_MPIIO module (record version 3): traces of MPI-IO reads and writes, in
 * the layout of iolens/modules/dxt.h. Version 2 records have no thread ids
 * (32-byte segments), version 1 records neither thread ids nor offsets: they
 * are read with every thread id IOLENS_DXT_NO_THREAD (and every offset -1). */
#ifndef IOLENS_MODULES_DXT_MPIIO_H
#define IOLENS_MODULES_DXT_MPIIO_H

#include "iolens/modules/dxt.h"

#define IOLENS_DXT_MPIIO_VERSION 3

/* The DXT_MPIIO module: reads versions 1 to 3, writes version 3, and 2 (its
 * darshan_3_5_version) for Darshan 3.5.0's tools. Its print
 * hook prints a record as darshan-dxt-parser does (darshan-parser prints no
 * DXT data). */
extern IOLENS_API const struct iolens_module_desc iolens_dxt_mpiio_module;

#endif
