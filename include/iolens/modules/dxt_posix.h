/* DXT_POSIX module (record version 2): traces of POSIX reads and writes, in
 * the layout of iolens/modules/dxt.h. Version 1 records have no thread ids
 * (32-byte segments): they are read with every thread id
 * IOLENS_DXT_NO_THREAD. */
#ifndef IOLENS_MODULES_DXT_POSIX_H
#define IOLENS_MODULES_DXT_POSIX_H

#include "iolens/modules/dxt.h"

#define IOLENS_DXT_POSIX_VERSION 2

struct iolens_lustre_record;

/* The DXT_POSIX module: reads versions 1 and 2, writes version 2, and 1 (its
 * darshan_3_5_version) for Darshan 3.5.0's tools. Its print
 * hook is iolens_dxt_posix_print with the print context's layout (the file's
 * LUSTRE record, or NULL) as lustre. */
extern IOLENS_API const struct iolens_module_desc iolens_dxt_posix_module;

/* Print a DXT_POSIX record rec as darshan-dxt-parser does. lustre is the
 * file's LUSTRE record as this library decodes it, or NULL: when given, the
 * file's striping and the OSTs each access touched are printed too. */
IOLENS_API void iolens_dxt_posix_print(FILE *out, const struct iolens_dxt_record *rec,
                                       const struct iolens_print_ctx *ctx,
                                       const struct iolens_lustre_record *lustre);

#endif
