/* Turning a record file (maplayout.h) into a Darshan-format log. Shared by
 * the runtime (at the end of a process) and `iolens recover` (after a crash):
 * it uses only the log library and the layout, no runtime state. */
#ifndef IOL_RT_MAPLOG_H
#define IOL_RT_MAPLOG_H

#include <stddef.h>

#include "iolens/log.h"
#include "iolens/status.h"
#include "maplayout.h"

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

/* Write the log of the (checked) record file h of len bytes to path, zlib
 * compressed, mode 0400: job data from the header (end time included), the
 * names of the live records, then each module's live records in increasing
 * module id, each module's partial flag; with force_partial every module with
 * records is marked partial (a recovered file).
 * @return IOLENS_OK, or an error with detail filled. */
iolens_status iol_maplog_write(const struct iol_map_header *h, size_t len, const char *path,
                               int force_partial, char *detail, size_t detail_len);

#endif
