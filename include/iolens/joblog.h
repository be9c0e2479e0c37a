/* One log from the logs of several processes of one job (iolens run's job
 * log; an `iolens merge` later): each process's records keep their counters
 * and get the process's index as their rank, as the ranks of an MPI job log
 * do. */
#ifndef IOLENS_JOBLOG_H
#define IOLENS_JOBLOG_H

#include <stddef.h>

#include "iolens/api.h"
#include "iolens/log.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The metadata line of a log that one rank of an MPI job wrote for itself
 * (IOLENS_LOG_PER_RANK): iolens_rank=R; its nprocs is the job's. */
#define IOLENS_META_RANK "iolens_rank"

/* What goes into a combined log. */
struct iolens_joblog {
    iolens_log *const *logs; /* the processes' logs; logs[i]'s records get rank i */
    size_t nlogs;
    /* The log whose command line, mount table, job id, uid and metadata the
     * job takes (its first process; it need not be one of logs). */
    iolens_log *job_from;
    /* The rank each log stands for in the metadata (iolens_killed_ranks);
     * NULL: logs[i] is rank i. */
    const int64_t *ranks;
};

/* The job data of the combined log: job_from's, with nprocs = nlogs, the
 * earliest start and the latest end of all the logs (job_from included), and
 * the metadata line iolens_killed=K (and iolens_killed_ranks=r,...) when K of
 * the logs were recovered from a killed process's record file, in place of
 * job_from's own iolens_killed line. Into *out. */
IOLENS_API void iolens_joblog_job(const struct iolens_joblog *c, struct iolens_job *out);

/* Append to w every record of module mod_id of log, with its rank set to
 * rank; HEATMAP records are first extended with empty bins to span seconds
 * (0: as they are; see iolens_joblog_write). Modules must be appended in
 * increasing id, after the names, as the format requires.
 * @return IOLENS_OK, or an error (detail in iolens_log_error for a read). */
IOLENS_API iolens_status iolens_writer_append_records(iolens_log_writer *w, iolens_log *log,
                                                      int mod_id, int64_t rank, double span);

/* Write the combined log of c at path (zlib, mode 0400): the job data of
 * iolens_joblog_job, the names of every log once, then for each module in
 * increasing id the records of logs[0], logs[1], ... with ranks 0, 1, ...,
 * at the record version all the logs holding the module have it at when this
 * library writes that version (logs written for Darshan 3.5.0's tools give a
 * job log for them), else at the newest;
 * a module is partial when it is in any log, and HEATMAP records are all
 * extended to the longest span of any of them (darshan-parser expects one bin
 * count in a log). @return IOLENS_OK, or an error with detail filled. */
IOLENS_API iolens_status iolens_joblog_write(const struct iolens_joblog *c, const char *path,
                                             char *detail, size_t detail_len);

/* iolens_joblog_merge's flags. */
enum {
    /* Merge logs that do not look like one job's (job id, start time,
     * number of processes), or that leave ranks out; logs whose ranks clash
     * are laid one after the other, in the order given, and the shared
     * records several of them hold of one file combined
     * (iolens_combine_shared_jobs). */
    IOLENS_MERGE_FORCE = 1,
    /* Reduce the shared records of job logs too (a log of a whole job is
     * otherwise taken as it is: its job already reduced it, or chose not to). */
    IOLENS_MERGE_REDUCE_ALL = 2,
};

/* Merge logs of one MPI job into one job log at path (zlib), as the MPI
 * runtime would have written it (docs/merge.md): each input is one rank's
 * log (IOLENS_META_RANK, or a process's own log with rank= and world_size=
 * metadata, or, lacking both, its place among such inputs) or a whole job's
 * log; records of a reduced module (iolens_combine_reduced) that every rank's
 * own log has for one file become one rank -1 record (iolens_combine_shared);
 * HEATMAP records are extended to the longest span; the job data are those
 * of iolens_joblog_job (rank 0's log's), nprocs the job's. names[i] names
 * logs[i] in messages. A module this library has no definition of is left
 * out, its bit (1 << id) set in *left_out (may be NULL).
 * @return IOLENS_OK; IOLENS_ERR_ARGUMENT when the logs
 * are not one job's or two give the same rank, with a one-line reason in
 * detail; or another error with detail filled. */
IOLENS_API iolens_status iolens_joblog_merge(iolens_log *const *logs, const char *const *names,
                                             size_t nlogs, const char *path, unsigned flags,
                                             uint64_t *left_out, char *detail,
                                             size_t detail_len);

#ifdef __cplusplus
}
#endif
#endif
