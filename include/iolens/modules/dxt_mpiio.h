/* DXT_MPIIO module (record version 2): traces of MPI-IO reads and writes, in
 * the layout of iolens/modules/dxt.h. Version 1 records have the same layout
 * but no offsets: they are read with every offset -1. */
#ifndef IOLENS_MODULES_DXT_MPIIO_H
#define IOLENS_MODULES_DXT_MPIIO_H

#include "iolens/modules/dxt.h"

#define IOLENS_DXT_MPIIO_VERSION 2

/* The DXT_MPIIO module: reads versions 1 and 2, writes version 2. Its print
 * hook prints a record as darshan-dxt-parser does (darshan-parser prints no
 * DXT data). */
extern IOLENS_API const struct iolens_module_desc iolens_dxt_mpiio_module;

#endif
