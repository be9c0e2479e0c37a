/* The log file of this process. */
#include "logwrite.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/logname.h"
#include "core.h"
#include "diag.h"
#include "fmt.h"
#include "job.h"
#include "format/runtime_api.h"

size_t iol_log_name(const struct iol_runtime *rt, char *buf, size_t len)
{
    char user[64];
    struct timespec now;

    iol_log_user(user, sizeof(user), geteuid());
    clock_gettime(CLOCK_REALTIME, &now);
    int64_t elapsed = (int64_t)(now.tv_sec - rt->map.hdr->end_sec) + 1;
    struct iol_log_name_parts parts = {
        .user = user,
        .exe = program_invocation_short_name,
        .jobid = rt->jobid,
        .pid = rt->pid,
        .start_sec = rt->start_real.tv_sec,
        .seed = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u,
        .n = elapsed > 0 ? elapsed : 1,
    };
    return iol_log_file_name(buf, len, &parts);
}

static int is_dir(const char *path)
{
    struct stat st;
    return iol_sys_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* name in the directory IOLENS_LOGPATH names, or in its dated subdirectory
 * when that exists, into out (IOL_PATH_MAX bytes). @return 1 if it fits. */
static int logpath_candidate(const struct iol_runtime *rt, const char *name, char *out)
{
    struct tm tm;
    time_t start = (time_t)rt->start_real.tv_sec;
    localtime_r(&start, &tm);
    size_t n = iol_fmt(out, IOL_PATH_MAX, "%s/%d/%d/%d", rt->cfg.logpath, tm.tm_year + 1900,
                       tm.tm_mon + 1, tm.tm_mday);
    if (n >= IOL_PATH_MAX || !is_dir(out))
        n = iol_fmt(out, IOL_PATH_MAX, "%s", rt->cfg.logpath);
    return n < IOL_PATH_MAX && iol_fmt(out + n, IOL_PATH_MAX - n, "/%s", name) < IOL_PATH_MAX - n;
}

/* Candidate i (0 to 2) for the log named name, into out (IOL_PATH_MAX
 * bytes): IOLENS_LOGFILE alone; else IOLENS_LOGPATH's directory, else the
 * directory the process started in; then IOLENS_MMAP_DIR. Built one at a
 * time, so that the usual case puts one path on the stack, not three.
 * @return 1 if there is one and it fits. */
static int log_candidate(const struct iol_runtime *rt, size_t i, const char *name, char *out)
{
    if (rt->cfg.logfile[0])
        return i == 0 && iol_fmt(out, IOL_PATH_MAX, "%s", rt->cfg.logfile) < IOL_PATH_MAX;
    if (i == 0)
        return rt->cfg.logpath[0] && logpath_candidate(rt, name, out);
    /* a configured directory is not replaced by the cwd */
    const char *dir = i == 1 ? (rt->cfg.logpath[0] ? NULL : rt->start_cwd) : rt->cfg.mmap_dir;
    return dir && dir[0] && iol_fmt(out, IOL_PATH_MAX, "%s/%s", dir, name) < IOL_PATH_MAX;
}

/* Write the log to path. @return 0, or -1 with the reason in detail. */
static int write_to(struct iol_runtime *rt, const char *path, char *detail, size_t len)
{
    struct iol_map_header *h = rt->map.hdr;
    iolens_status st = iol_maplog_write(h, rt->map.size, path, 0, iol_core_full_record, detail,
                                        len);
    if (st != IOLENS_OK) {
        iol_diag("cannot write log %s: %s", path, detail);
        return -1;
    }
    iol_diag("wrote %s", path);
    iol_fmt(rt->last_log, sizeof(rt->last_log), "%s", path);
    return 0;
}

/* The log's file name into name (len bytes), unless IOLENS_LOGFILE gives the
 * whole path. @return 0, or -1 if it does not fit. */
static int log_file_name(const struct iol_runtime *rt, char *name, size_t len)
{
    name[0] = '\0';
    return rt->cfg.logfile[0] || iol_log_name(rt, name, len) < len ? 0 : -1;
}

size_t iol_log_paths(const struct iol_runtime *rt, char (*paths)[IOL_PATH_MAX], size_t max)
{
    char name[512];
    size_t n = 0;

    if (log_file_name(rt, name, sizeof(name)) != 0)
        return 0;
    for (size_t i = 0; i < 3 && n < max; i++)
        if (log_candidate(rt, i, name, paths[n]))
            n++;
    return n;
}

void iol_log_set_end(struct iol_runtime *rt)
{
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    rt->map.hdr->end_sec = end.tv_sec;
    rt->map.hdr->end_nsec = end.tv_nsec;
}

/* Where the records of a log that could not be written are: the record
 * file, or nowhere when none could be made (anonymous memory). */
static const char *records_left(const struct iol_runtime *rt, char *buf, size_t len)
{
    if (!rt->map.path[0])
        return "its records are lost (they were in memory: no record file could be made)";
    iol_fmt(buf, len, "records kept in %s (iolens recover turns it into a log)", rt->map.path);
    return buf;
}

int iol_log_write(struct iol_runtime *rt)
{
    char left[IOL_PATH_MAX + 64];
    char name[512], path[IOL_PATH_MAX], first[IOL_PATH_MAX], why[256], other[256];

    iol_log_set_end(rt);
    first[0] = why[0] = rt->last_log[0] = '\0';
    /* Under iolens run: into the run's directory, where iolens run gathers
     * the logs of its processes into the job's (the MPI job log, written
     * with iol_log_paths, still goes where the settings say). */
    if (rt->run_dir[0] && iol_log_name(rt, name, sizeof(name)) < sizeof(name) &&
        iol_fmt(path, sizeof(path), "%s/%s", rt->run_dir, name) < sizeof(path) &&
        write_to(rt, path, other, sizeof(other)) == 0)
        return 0;
    if (log_file_name(rt, name, sizeof(name)) != 0) {
        iol_diag_always("cannot name the log (the name is too long); %s",
                        records_left(rt, left, sizeof(left)));
        return -1;
    }
    for (size_t i = 0; i < 3; i++) {
        if (!log_candidate(rt, i, name, path))
            continue;
        /* The first candidate is where the log was asked to go: its failure
         * is the one to report. */
        if (write_to(rt, path, first[0] ? other : why, sizeof(why)) == 0) {
            /* Say so when the log is not where it was asked to go. */
            if (first[0])
                iol_diag_always("cannot write log %s (%s); wrote %s instead", first, why, path);
            return 0;
        }
        if (!first[0])
            iol_fmt(first, sizeof(first), "%s", path);
    }
    iol_diag_always("cannot write log %s (%s); %s", first[0] ? first : name,
                    why[0] ? why : "no place to write it", records_left(rt, left, sizeof(left)));
    return -1;
}
