/* Turning a record file (common/recfile.h) into a Darshan-format log, inside
 * the log library: what the runtime uses of it (the log of a process at its
 * end, the records an MPI rank hands to the job's log) is declared in
 * runtime_api.h; recfile.c uses it for iolens recover and every verb reading
 * a record file. Only the log library and the layout, no runtime state, no
 * stdio. */
#ifndef IOL_FORMAT_MAPLOG_H
#define IOL_FORMAT_MAPLOG_H

#include <stddef.h>

#include "iolens/recfile.h"
#include "iolens/status.h"
#include "runtime_api.h"

/* Metadata key of a log recovered from the record file of a process that
 * died before writing its own (see docs/runtime.md). */
#define IOL_MAPLOG_KILLED IOLENS_META_KILLED

/* Check that the record file of len bytes at h is one this code can read:
 * magic, version, and every offset and size inside the file.
 * @return IOLENS_OK, or IOLENS_ERR_NOT_LOG / VERSION / CORRUPT with detail. */
iolens_status iol_maplog_check(const struct iol_map_header *h, size_t len, char *detail,
                               size_t detail_len);

/* If the file open on *fd is a record file, replace *fd by a descriptor of
 * its log (iolens_recfile_write_log's, in an unlinked temporary file under
 * $TMPDIR, else /tmp); anything else is left alone. The hook through which
 * iolens_log_open reads record files.
 * @return IOLENS_OK, or an error with detail filled (*fd then closed, -1). */
iolens_status iol_recfile_as_log(int *fd, char *detail, size_t detail_len);

#endif
