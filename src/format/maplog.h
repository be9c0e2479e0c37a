/* Turning a record file (common/recfile.h) into a Darshan-format log. Used
 * by the runtime at the end of a process (this file is compiled into it with
 * the rest of the log library) and by recfile.c (iolens recover, and any
 * verb reading a record file): only the log library and the layout, no
 * runtime state, no stdio. */
#ifndef IOL_FORMAT_MAPLOG_H
#define IOL_FORMAT_MAPLOG_H

#include <stddef.h>

#include "iolens/log.h"
#include "iolens/recfile.h"
#include "iolens/status.h"
#include "../common/recfile.h"

/* Metadata key of a log recovered from the record file of a process that
 * died before writing its own (see docs/runtime.md). */
#define IOL_MAPLOG_KILLED IOLENS_META_KILLED

/* The job data of a record file, in the form the log writer takes. */
struct iol_maplog_job {
    struct iolens_job job;
    char exe[IOL_MAP_EXE_BYTES];
    char mount_text[IOL_MAP_MOUNT_BYTES]; /* the strings mounts[] point into */
    struct iolens_mount mounts[64];
    size_t nmounts;
};

/* Check that the record file of len bytes at h is one this code can read:
 * magic, version, and every offset and size inside the file.
 * @return IOLENS_OK, or IOLENS_ERR_NOT_LOG / VERSION / CORRUPT with detail. */
iolens_status iol_maplog_check(const struct iol_map_header *h, size_t len, char *detail,
                               size_t detail_len);

/* Fill *out from the (checked) record file h: job fields, command line,
 * mount table. */
void iol_maplog_job(const struct iol_map_header *h, struct iol_maplog_job *out);

/* Slots of module m that may be live (count clamped to capacity). */
uint32_t iol_maplog_live_count(const struct iol_map_module *m);

/* The indexes of h's modules in increasing module id, the order the format
 * requires, into order (h->nmods entries). */
void iol_maplog_module_order(const struct iol_map_header *h, uint32_t *order);

/* Copy the record in slot j of module m of h into buf (m->rec_size bytes),
 * under its lock taken for a bounded time, with a HEATMAP record's bins
 * folded in. @return its id, or 0 if the slot is not live (nothing copied). */
uint64_t iol_maplog_copy_record(const struct iol_map_header *h, const struct iol_map_module *m,
                                uint32_t j, void *buf);

/* The name of the record in slot j of module m, or NULL if damaged. */
const char *iol_maplog_record_name(const struct iol_map_header *h,
                                   const struct iol_map_module *m, uint32_t j);

/* The whole record of a live slot of a trace module (a descriptor with
 * .trace set, DXT), as the process that writes the record file builds it (its
 * triggers applied, under its locks). Called with the slot's lock held;
 * copies the record, decoded, into buf (cap bytes).
 * @return its bytes (more than cap: nothing copied, ask again with that
 *         many), or 0 to leave the record out. */
typedef size_t (*iol_maplog_trace_fn)(const struct iol_map_module *m, unsigned char *slot,
                                      void *buf, size_t cap);

/* The whole record of module m's j-th slot (a trace module's), built by
 * traces into buf (cap bytes) under the slot's (bounded) lock.
 * @return its bytes (more than cap: nothing copied, ask again with that
 *         many), or 0 when the slot is not live or traces leaves it out. */
size_t iol_maplog_trace_record(const struct iol_map_header *h, const struct iol_map_module *m,
                               uint32_t j, iol_maplog_trace_fn traces, void *buf, size_t cap);

/* Write the log of the (checked) record file h of len bytes to path, zlib
 * compressed, mode 0400: job data from the header (end time included), the
 * names of the live records, then each module's live records in increasing
 * module id, each module's partial flag (set where records were dropped);
 * trace modules' records come from traces, or when it is NULL (a record
 * file read from outside the process that wrote it) from the file's trace
 * area (dxt_recfile.h);
 * recovered != 0 (the file of a process that died before writing its log)
 * adds the metadata line IOL_MAPLOG_KILLED=1.
 * @return IOLENS_OK, or an error with detail filled. */
iolens_status iol_maplog_write(const struct iol_map_header *h, size_t len, const char *path,
                               int recovered, iol_maplog_trace_fn traces, char *detail,
                               size_t detail_len);

/* If the file open on *fd is a record file, replace *fd by a descriptor of
 * its log (iolens_recfile_write_log's, in an unlinked temporary file under
 * $TMPDIR, else /tmp); anything else is left alone. The hook through which
 * iolens_log_open reads record files.
 * @return IOLENS_OK, or an error with detail filled (*fd then closed, -1). */
iolens_status iol_recfile_as_log(int *fd, char *detail, size_t detail_len);

#endif
