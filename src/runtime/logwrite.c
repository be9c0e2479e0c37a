/* The log file of this process. */
#include "logwrite.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/hash.h"
#include "core.h"
#include "diag.h"
#include "fmt.h"
#include "job.h"
#include "maplog.h"

size_t iol_log_name(const struct iol_runtime *rt, char *buf, size_t len)
{
    char user[64], host[256] = "";
    struct tm tm;
    struct timespec now;
    time_t start = (time_t)rt->start_real.tv_sec;

    iol_job_user(user, sizeof(user));
    gethostname(host, sizeof(host) - 1);
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t seed = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    uint64_t hash = iol_hash64(host, strlen(host), seed);
    localtime_r(&start, &tm);
    int seconds = tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
    int elapsed = (int)(now.tv_sec - rt->map.hdr->end_sec) + 1;
    return iol_fmt(buf, len, "%s_%s_id%lld-%d_%d-%d-%d-%llu_%d.darshan", user,
                   program_invocation_short_name, (long long)rt->jobid, (int)rt->pid,
                   tm.tm_mon + 1, tm.tm_mday, seconds, (unsigned long long)hash,
                   elapsed > 0 ? elapsed : 1);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory IOLENS_LOGPATH names, or its dated subdirectory. */
static void logpath_dir(const struct iol_runtime *rt, char *dir, size_t len)
{
    struct tm tm;
    time_t start = (time_t)rt->start_real.tv_sec;
    localtime_r(&start, &tm);
    if (iol_fmt(dir, len, "%s/%d/%d/%d", rt->cfg.logpath, tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday) < len &&
        is_dir(dir))
        return;
    iol_fmt(dir, len, "%s", rt->cfg.logpath);
}

static int write_to(struct iol_runtime *rt, const char *path)
{
    char detail[256];
    struct iol_map_header *h = rt->map.hdr;
    iolens_status st = iol_maplog_write(h, rt->map.size, path, 0, detail, sizeof(detail));
    if (st != IOLENS_OK) {
        iol_diag("cannot write log %s: %s", path, detail);
        return -1;
    }
    iol_diag("wrote %s", path);
    return 0;
}

size_t iol_log_paths(const struct iol_runtime *rt, char (*paths)[IOL_PATH_MAX], size_t max)
{
    char name[512], dir[IOL_PATH_MAX];
    size_t n = 0;

    if (rt->cfg.logfile[0]) {
        if (max > 0 && iol_fmt(paths[0], IOL_PATH_MAX, "%s", rt->cfg.logfile) < IOL_PATH_MAX)
            n = 1;
        return n;
    }
    if (iol_log_name(rt, name, sizeof(name)) >= sizeof(name))
        return 0;
    const char *dirs[3] = {NULL, rt->start_cwd, rt->cfg.mmap_dir};
    if (rt->cfg.logpath[0]) {
        logpath_dir(rt, dir, sizeof(dir));
        dirs[0] = dir;
        dirs[1] = NULL; /* a configured directory is not replaced by the cwd */
    }
    for (size_t i = 0; i < 3 && n < max; i++)
        if (dirs[i] && dirs[i][0] &&
            iol_fmt(paths[n], IOL_PATH_MAX, "%s/%s", dirs[i], name) < IOL_PATH_MAX)
            n++;
    return n;
}

int iol_log_write(struct iol_runtime *rt)
{
    char paths[3][IOL_PATH_MAX];
    struct timespec end;

    clock_gettime(CLOCK_REALTIME, &end);
    rt->map.hdr->end_sec = end.tv_sec;
    rt->map.hdr->end_nsec = end.tv_nsec;
    size_t n = iol_log_paths(rt, paths, 3);
    for (size_t i = 0; i < n; i++)
        if (write_to(rt, paths[i]) == 0)
            return 0;
    return -1;
}
