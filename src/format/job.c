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

/* A character that ends a mount table token: C's isspace in the C locale. */
static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* From at: skip blanks, then the token's [*tok, *end). @return 0 if none. */
static int next_token(const char *at, const char **tok, const char **end)
{
    while (is_blank(*at))
        at++;
    *tok = at;
    while (*at && !is_blank(*at))
        at++;
    *end = at;
    return *end > *tok;
}

/* One mount entry per newline of text: its type and path are the first two
 * tokens after that newline. Blanks between tokens include newlines, so a
 * line with one token takes its path from the next line, as Darshan's
 * reader (sscanf "%s\t%s") does with a command line that held a newline;
 * fewer than two tokens make the whole table unreadable, as there. Entries
 * keep the log's order. */
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

    /* all tokens first: ending them in place must not take the newlines
     * the entries after them start from */
    const char *type, *type_end, *path, *path_end;
    size_t i = 0;
    for (char *p = strchr(text, '\n'); p; p = strchr(p + 1, '\n'), i++) {
        if (!next_token(p + 1, &type, &type_end) || !next_token(type_end, &path, &path_end))
            return iol_fail(log, IOLENS_ERR_CORRUPT, "badly formatted mount table");
        log->mounts[i].type = (char *)type;
        log->mounts[i].path = (char *)path;
    }
    for (i = 0; i < n; i++) {
        ((char *)log->mounts[i].type)[strcspn(log->mounts[i].type, " \t\n\v\f\r")] = '\0';
        ((char *)log->mounts[i].path)[strcspn(log->mounts[i].path, " \t\n\v\f\r")] = '\0';
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
