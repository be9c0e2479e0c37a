/* What the DXT descriptors share: decoding, encoding and
 * darshan-dxt-parser's printing of the record layout of
 * include/iolens/modules/dxt.h (internal to the log library). */
#ifndef IOLENS_FORMAT_DXT_COMMON_H
#define IOLENS_FORMAT_DXT_COMMON_H

#include <stdio.h>

#include "iolens/modules/dxt.h"
#include "log_internal.h"

/* Decode the next DXT record of rg (byte-swapped if swap) into out, in the
 * newest layout; threads is 0 for a version whose segments have no thread
 * id (32 bytes on disk: each is given IOLENS_DXT_NO_THREAD).
 * @return IOLENS_OK, IOLENS_END at the region's end, or an error. */
iolens_status iol_dxt_read(struct iolens_region *rg, int swap, int threads,
                           struct iolens_recbuf *out);

/* Encode a decoded record: as it is (the newest layout), or with threads 0
 * in the layout of the versions without thread ids (32-byte segments, the
 * thread id dropped).
 * @return IOLENS_OK, IOLENS_ERR_ARGUMENT for impossible counts, or an error. */
iolens_status iol_dxt_encode(const void *rec, int threads, struct iolens_recbuf *out);

/* Bytes of a decoded record. */
size_t iol_dxt_size(const void *rec);

/* Threads that made rec's segments, as darshan-dxt-parser counts them: the
 * distinct thread ids (IOLENS_DXT_NO_THREAD counting as one), 1 for a record
 * without segments. @return the count, or -1 when out of memory. */
int64_t iol_dxt_thread_count(const struct iolens_dxt_record *rec);

/* Print the "# DXT, ..." lines that open a record in darshan-dxt-parser's
 * output, up to and including the mount point line. */
void iol_dxt_print_head(FILE *out, const struct iolens_dxt_record *rec,
                        const struct iolens_print_ctx *ctx);

/* Print the columns of segment i (a write if i < write_count, else a read)
 * up to and including the end time and the two blanks after it; no newline.
 * tag is the module column ("X_POSIX", "X_MPIIO"). */
void iol_dxt_print_segment(FILE *out, const char *tag, const struct iolens_dxt_record *rec,
                           int64_t i);

/* Print the thread column of a segment line and end the line: the id, or
 * "N/A" for IOLENS_DXT_NO_THREAD, as darshan-dxt-parser does. */
void iol_dxt_print_thread(FILE *out, const struct iolens_dxt_segment *s);

/* Print a whole record without layout lines: its head, the column legend,
 * and every segment on a line tagged tag ("X_MPIIO", "X_STDIO"). */
void iol_dxt_print_plain(FILE *out, const struct iolens_dxt_record *rec,
                         const struct iolens_print_ctx *ctx, const char *tag);

#endif
