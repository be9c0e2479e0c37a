/* Job-level data of a process: job id, command line, metadata, user. */
#ifndef IOL_RT_JOB_H
#define IOL_RT_JOB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "common/recfile.h"

/* The job id: from the variable IOLENS_JOBID_ENV/DARSHAN_JOBID names if set,
 * else the first of SLURM_JOB_ID, PBS_JOBID, LSB_JOBID, FLUX_JOB_ID (decimal
 * or Flux's f58 form) and COBALT_JOBID that starts with a number.
 * @return the id, or fallback when none is found. */
int64_t iol_job_id(const struct iol_config *cfg, int64_t fallback);

/* Under `iolens run` (docs/runtime.md): the run's directory, where this
 * process's record file and log go for iolens run to gather (IOLENS_RUN_DIR,
 * an absolute path), into dir (len bytes, "" when not under iolens run), and
 * the run's job id (IOLENS_RUN_JOBID), which stands for the process id as the
 * job id when no batch system gives one, so that every process of the run
 * has the same. @return that id, or pid. */
int64_t iol_job_run(char *dir, size_t len, int64_t pid);

/* Fill h's job fields: uid, job id, nprocs 1, the command line (arguments
 * joined by spaces, cut with "<TRUNCATED>" as Darshan does: the bytes of
 * /proc/self/cmdline, or of the arguments iol_job_set_args gave), and the
 * metadata lines (lib_ver, runtime, fork_parent when fork_parent is not 0,
 * and rank/world_size when a launcher set them). */
void iol_job_fill(struct iol_map_header *h, int64_t jobid, pid_t fork_parent);

/* The process's arguments as the C library handed them to the runtime's
 * constructor, for the next iol_job_fill only: the command line then needs no
 * read of /proc/self/cmdline (four system calls at every start). Later fills
 * (a forked child, a failed exec) read the file, which shows what the
 * program may since have written over its arguments. */
void iol_job_set_args(int argc, char **argv);

#endif
