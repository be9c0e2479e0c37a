/* The job region: job data, then the command line and the mount table as text. */
#include <stdlib.h>
#include <string.h>

#include "../common/byteorder.h"
#include "log_internal.h"

/* The runtime always writes a 4096-byte job region (uncompressed). */
#define JOB_REGION_BYTES 4096
#define JOB_FIXED_341 (7 * 8 + 1024) /* start/end nanoseconds added in 3.41 */
#define JOB_FIXED_OLD (5 * 8 + 1024)

static int64_t get_i64(const unsigned char *p, int swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return (int64_t)(swap ? iol_bswap64(v) : v);
}

/* Split "\n<type>\t<path>" lines into mount entries; order as the log holds them.
 * A line without both fields makes the whole table unreadable, as in Darshan. */
static iolens_status parse_mounts(struct iolens_log *log, char *text)
{
    size_t n = 0;
    for (char *p = text; (p = strchr(p, '\n')) != NULL; p++)
        n++;
    if (n == 0)
        return IOLENS_OK;
    log->mounts = calloc(n, sizeof(*log->mounts));
    if (!log->mounts)
        return IOLENS_ERR_NOMEM;

    size_t i = 0;
    for (char *p = strchr(text, '\n'); p; i++) {
        char *line = p + 1;
        char *next = strchr(line, '\n');
        if (next)
            *next = '\0';
        char *type = line + strspn(line, " \t\r\f\v");
        char *type_end = type + strcspn(type, " \t\r\f\v");
        char *path = type_end + strspn(type_end, " \t\r\f\v");
        char *path_end = path + strcspn(path, " \t\r\f\v");
        if (type == type_end || path == path_end)
            return iol_fail(log, IOLENS_ERR_CORRUPT, "badly formatted mount table");
        *type_end = '\0';
        *path_end = '\0';
        log->mounts[i].type = type;
        log->mounts[i].path = path;
        p = next;
    }
    log->info.mounts = log->mounts;
    log->info.nmounts = n;
    return IOLENS_OK;
}

/* Longest mount point first, so prefix matching finds the deepest mount;
 * stable, so equal lengths keep the log's order. */
static void sort_mounts(struct iolens_mount *m, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct iolens_mount cur = m[i];
        size_t len = strlen(cur.path), j = i;
        while (j > 0 && strlen(m[j - 1].path) < len) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = cur;
    }
}

iolens_status iol_read_job(struct iolens_log *log)
{
    struct iolens_log_info *in = &log->info;
    struct iolens_region rg;
    unsigned char *buf = NULL;
    size_t got = 0;
    int sw = in->byte_swapped;
    iolens_status st;

    if (in->job_map.len == 0)
        return iol_fail(log, IOLENS_ERR_TRUNCATED, "log has no job data");
    buf = calloc(1, JOB_REGION_BYTES + 1);
    if (!buf)
        return IOLENS_ERR_NOMEM;
    st = iol_region_begin(&rg, log->fd, in->compression, in->job_map);
    if (st == IOLENS_OK)
        st = iol_region_read(&rg, buf, JOB_REGION_BYTES, &got);
    iol_region_end(&rg);
    if (st != IOLENS_OK) {
        free(buf);
        return iol_fail(log, st, "cannot read job data: %s", iolens_strerror(st));
    }

    size_t fixed = in->version_minor >= 41 ? JOB_FIXED_341 : JOB_FIXED_OLD;
    if (got <= fixed) {
        free(buf);
        return iol_fail(log, IOLENS_ERR_TRUNCATED, "job data is %zu bytes, expected more than %zu",
                        got, fixed);
    }

    struct iolens_job *job = &in->job;
    const unsigned char *p = buf;
    job->uid = get_i64(p, sw);
    job->start_time_sec = get_i64(p + 8, sw);
    if (in->version_minor >= 41) {
        job->start_time_nsec = get_i64(p + 16, sw);
        job->end_time_sec = get_i64(p + 24, sw);
        job->end_time_nsec = get_i64(p + 32, sw);
        p += 40;
    } else {
        job->end_time_sec = get_i64(p + 16, sw);
        p += 24;
    }
    job->nprocs = get_i64(p, sw);
    job->jobid = get_i64(p + 8, sw);
    memcpy(job->metadata, p + 16, sizeof(job->metadata));
    job->metadata[sizeof(job->metadata) - 1] = '\0';

    /* The text after the fixed part: exe up to the first newline, then mounts. */
    log->exe_mounts = (char *)buf;
    char *text = (char *)buf + fixed;
    char *nl = strchr(text, '\n');
    if (nl) {
        memmove(buf, text, strlen(text) + 1);
        nl = (char *)buf + (nl - text);
        st = parse_mounts(log, nl);
        *nl = '\0';
        if (st != IOLENS_OK)
            return st;
        sort_mounts(log->mounts, in->nmounts);
        in->exe = (char *)buf;
    } else {
        buf[0] = '\0';  /* no newline: Darshan shows no command line either */
        in->exe = (char *)buf;
    }
    return IOLENS_OK;
}
