/* Record files: the memory-mapped file in which the iolens runtime keeps a
 * process's records while it runs (iolens_<exe>_<pid>_<start>.iolmap in
 * IOLENS_MMAP_DIR). A process that dies before writing its log (SIGKILL, the
 * OOM killer, a node that lost power while the file survived) leaves it
 * behind; these functions turn it into the log the process would have
 * written. iolens_log_open reads a record file as that log too. */
#ifndef IOLENS_RECFILE_H
#define IOLENS_RECFILE_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/api.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Metadata line a log recovered from a record file carries ("iolens_killed=1";
 * a job log of iolens run: the number of its processes that were killed). */
#define IOLENS_META_KILLED "iolens_killed"

/* What a record file's header says of its process. */
struct iolens_recfile_info {
    int64_t pid;
    int64_t uid;
    int64_t jobid;
    int64_t start_sec;    /* CLOCK_REALTIME at the process's start */
    int log_written;      /* 1: the process wrote its log (the file was about to go) */
    char exe[3072];       /* command line */
};

/* Read the header of the record file at path into *out.
 * @return IOLENS_OK, or IOLENS_ERR_NOT_LOG (not a record file),
 *         IOLENS_ERR_VERSION, IOLENS_ERR_IO, with detail filled. */
IOLENS_API iolens_status iolens_recfile_info(const char *path, struct iolens_recfile_info *out,
                                             char *detail, size_t detail_len);

/* Write the log of the record file at path to out (zlib, mode 0400), for
 * the tools the process's LOG_COMPAT setting named: every record kept so
 * far, partial only in the modules that dropped records, the file's last
 * change as end time if the process died running, and the metadata line
 * iolens_killed=1 unless the process wrote its log itself.
 * @return IOLENS_OK, or an error with detail filled. */
IOLENS_API iolens_status iolens_recfile_write_log(const char *path, const char *out,
                                                  char *detail, size_t detail_len);

/* Darshan's file name for the log of the record file described by info, the
 * name the process would have given its own log (docs/runtime.md, "Where logs
 * go"), into buf (len bytes). @return the length, or a value >= len if it did
 * not fit. */
IOLENS_API size_t iolens_recfile_log_name(const struct iolens_recfile_info *info, char *buf,
                                          size_t len);

#ifdef __cplusplus
}
#endif
#endif
