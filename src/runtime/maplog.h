/* Turning a record file (maplayout.h) into a Darshan-format log. Shared by
 * the runtime (at the end of a process) and `iolens recover` (after a crash):
 * it uses only the log library and the layout, no runtime state. */
#ifndef IOL_RT_MAPLOG_H
#define IOL_RT_MAPLOG_H

#include <stddef.h>

#include "iolens/status.h"
#include "maplayout.h"

/* Check that the record file of len bytes at h is one this code can read:
 * magic, version, and every offset and size inside the file.
 * @return IOLENS_OK, or IOLENS_ERR_NOT_LOG / VERSION / CORRUPT with detail. */
iolens_status iol_maplog_check(const struct iol_map_header *h, size_t len, char *detail,
                               size_t detail_len);

/* Write the log of the (checked) record file h of len bytes to path, zlib
 * compressed, mode 0400: job data from the header (end time included), the
 * names of the live records, then each module's live records in increasing
 * module id, each module's partial flag; with force_partial every module with
 * records is marked partial (a recovered file).
 * @return IOLENS_OK, or an error with detail filled. */
iolens_status iol_maplog_write(const struct iol_map_header *h, size_t len, const char *path,
                               int force_partial, char *detail, size_t detail_len);

#endif
