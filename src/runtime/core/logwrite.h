/* Writing this process's log at the end: its name, its directory, the call
 * into the record-file writer. */
#ifndef IOL_RT_LOGWRITE_H
#define IOL_RT_LOGWRITE_H

#include <stddef.h>

#include "paths.h"

struct iol_runtime;

/* Set the end time in the record file header, choose the log's path and
 * write it (see docs/runtime.md, "Where logs go"): IOLENS_LOGFILE exactly,
 * else in IOLENS_LOGPATH (its <year>/<month>/<day> subdirectory when that
 * exists, as Darshan's log tree has it), else in the directory the process
 * started in; if that fails, in IOLENS_MMAP_DIR. Under iolens run, the run's
 * directory comes first. The runtime must be off.
 * @return 0, or -1 (diagnostics say why). */
int iol_log_write(struct iol_runtime *rt);

/* Set the end time in the record file header: now. */
void iol_log_set_end(struct iol_runtime *rt);

/* The paths to try, in order, for this process's log (the rules of
 * iol_log_write; the end time must be set in the record file header).
 * @return how many were put in paths (at most max). */
size_t iol_log_paths(const struct iol_runtime *rt, char (*paths)[IOL_PATH_MAX], size_t max);

/* Darshan's file name for a log: <user>_<exe>_id<jobid>-<pid>_<month>-<day>-
 * <seconds since midnight>-<hash>_<n>.darshan, where hash mixes the host name
 * with the time and n counts the seconds the log took to write, plus one.
 * @return the length, or a value >= len if it did not fit. */
size_t iol_log_name(const struct iol_runtime *rt, char *buf, size_t len);

#endif
