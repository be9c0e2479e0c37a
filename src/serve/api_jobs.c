/* iolens serve's answers about jobs: the list, one job, its slowest files,
 * its latency percentiles (api.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

void api_members(struct jbuf *b, const char *const *names, int n, const struct db_val *col)
{
    for (int i = 0; i < n && names[i]; i++) {
        jb_key(b, names[i], i == 0);
        jb_val(b, &col[i]);
    }
}

static const char *const job_cols[] = {
    "job_key", "source", "job_id", "uid", "exe", "nprocs", "start_time", "end_time",
    "processes", "events", "dropped", "bytes_read", "bytes_written", NULL};

/* The columns of job_cols, from jobs j. */
#define JOB_SELECT                                                                               \
    "SELECT j.job_key, j.source, j.job_id, j.uid, j.exe, j.nprocs, j.start_time, j.end_time,"    \
    " (SELECT COUNT(*) FROM processes p WHERE p.job_key = j.job_key),"                            \
    " (SELECT SUM(p.events) FROM processes p WHERE p.job_key = j.job_key),"                       \
    " (SELECT SUM(p.dropped) FROM processes p WHERE p.job_key = j.job_key),"                      \
    " (SELECT SUM(r.bytes_read) FROM rollup_job r WHERE r.job_key = j.job_key),"                  \
    " (SELECT SUM(r.bytes_written) FROM rollup_job r WHERE r.job_key = j.job_key)"                \
    " FROM jobs j"

struct job_rows {
    struct jbuf *b;
    double now, live_window;
    int n;
};

/* One job as an object, with "live" added. */
static int job_row(void *arg, int ncol, const struct db_val *col)
{
    struct job_rows *r = arg;
    jb_raw(r->b, r->n++ ? ",{" : "{");
    api_members(r->b, job_cols, ncol, col);
    int live = col[1].kind == DB_TEXT && !strcmp(col[1].s, "events") &&
               jb_number_of(&col[7], NAN) >= r->now - r->live_window;
    jb_raw(r->b, live ? ",\"live\":true}" : ",\"live\":false}");
    return 0;
}

int api_jobs(struct db *db, double now, double live_window, int limit, struct jbuf *out)
{
    struct job_rows r = {out, now, live_window, 0};
    jb_raw(out, "{\"now\":");
    jb_num(out, now);
    jb_raw(out, ",\"jobs\":[");
    if (db_select(db, JOB_SELECT " ORDER BY j.end_time DESC, j.job_key LIMIT ?",
                  &DB_I(limit), 1, job_row, &r) < 0)
        return -1;
    jb_raw(out, "]}");
    return 0;
}

struct list {
    struct jbuf *b;
    const char *const *names;
    int n;
};

/* One row as an object of a list. */
static int list_row(void *arg, int ncol, const struct db_val *col)
{
    struct list *l = arg;
    jb_raw(l->b, l->n++ ? ",{" : "{");
    api_members(l->b, l->names, ncol, col);
    jb_raw(l->b, "}");
    return 0;
}

/* Copy the first column's text. */
static int first_text(void *arg, int ncol, const struct db_val *col)
{
    char **s = arg;
    *s = strdup(col[0].kind == DB_TEXT ? col[0].s : "");
    return 1;
}

int api_job_source(struct db *db, const char *job, char *src, size_t len)
{
    char *s = NULL;
    if (db_select(db, "SELECT source FROM jobs WHERE job_key = ?", (struct db_val[]){DB_S(job)}, 1, first_text,
                  &s) < 0)
        return -1;
    if (!s)
        return API_NOT_FOUND;
    snprintf(src, len, "%s", s);
    free(s);
    return 0;
}

int api_job(struct db *db, const char *job, double now, double live_window, struct jbuf *out)
{
    static const char *const proc_cols[] = {"host", "rank", "exe", "first_time", "last_time",
                                            "events", "dropped", NULL};
    struct job_rows r = {out, now, live_window, 0};
    jb_raw(out, "{\"job\":");
    if (db_select(db, JOB_SELECT " WHERE j.job_key = ?", (struct db_val[]){DB_S(job)}, 1, job_row, &r) < 0)
        return -1;
    if (r.n == 0)
        return API_NOT_FOUND;
    jb_raw(out, ",\"processes\":[");
    struct list l = {out, proc_cols, 0};
    if (db_select(db, "SELECT host, rank, exe, first_time, last_time, events, dropped"
                      " FROM processes WHERE job_key = ? ORDER BY rank, host",
                  (struct db_val[]){DB_S(job)}, 1, list_row, &l) < 0)
        return -1;
    jb_raw(out, "]}");
    return 0;
}

int api_slowest(struct db *db, const char *job, int limit, struct jbuf *out)
{
    static const char *const cols[] = {"record_id", "name", "io_time", "bytes_read",
                                       "bytes_written", "reads", "writes", "other_ops", NULL};
    char src[16];
    int rc = api_job_source(db, job, src, sizeof(src));
    if (rc)
        return rc;
    /* live jobs: the rollups; finished logs: POSIX and STDIO records (MPI-IO
     * and HDF5 time is also POSIX time below them) */
    const char *sql = !strcmp(src, "events")
        ? "SELECT r.record_id, MIN(f.name), SUM(r.io_time) AS t, SUM(r.bytes_read),"
          " SUM(r.bytes_written), SUM(r.reads), SUM(r.writes), SUM(r.other_ops)"
          " FROM rollup_file r LEFT JOIN files f ON f.job_key = r.job_key"
          " AND f.record_id = r.record_id WHERE r.job_key = ?"
          " GROUP BY r.record_id ORDER BY t DESC, r.record_id LIMIT ?"
        : "SELECT record_id, MIN(file), SUM(COALESCE(read_time, 0) + COALESCE(write_time, 0)"
          " + COALESCE(meta_time, 0)) AS t, SUM(bytes_read), SUM(bytes_written), SUM(reads),"
          " SUM(writes), NULL FROM records WHERE job_key = ? AND module IN ('POSIX', 'STDIO')"
          " GROUP BY record_id ORDER BY t DESC, record_id LIMIT ?";
    struct list l = {out, cols, 0};
    jb_raw(out, "{\"job\":");
    jb_str(out, job);
    jb_raw(out, ",\"files\":[");
    if (db_select(db, sql, (struct db_val[]){DB_S(job), DB_I(limit)}, 2, list_row, &l) < 0)
        return -1;
    jb_raw(out, "]}");
    return 0;
}

/* The durations of one operation, in order, while the query walks them. */
struct lat {
    struct jbuf *b;
    char op[64];
    double *d;
    size_t n, cap;
    int nops, failed;
};

static const double percentiles[] = {50, 90, 99};

/* Write the operation collected so far and start again. */
static void lat_flush(struct lat *l)
{
    if (l->n == 0)
        return;
    double sum = 0;
    for (size_t i = 0; i < l->n; i++)
        sum += l->d[i];
    jb_raw(l->b, l->nops++ ? ",{\"op\":" : "{\"op\":");
    jb_str(l->b, l->op);
    jb_raw(l->b, ",\"count\":");
    jb_int(l->b, (int64_t)l->n);
    jb_raw(l->b, ",\"min\":");
    jb_num(l->b, l->d[0]);
    jb_raw(l->b, ",\"mean\":");
    jb_num(l->b, sum / (double)l->n);
    for (size_t k = 0; k < sizeof(percentiles) / sizeof(percentiles[0]); k++) {
        /* nearest rank: the smallest value with at least p% at or below it */
        size_t rank = (size_t)ceil(percentiles[k] / 100 * (double)l->n);
        char key[16];
        snprintf(key, sizeof(key), "p%.0f", percentiles[k]);
        jb_key(l->b, key, 0);
        jb_num(l->b, l->d[(rank ? rank : 1) - 1]);
    }
    jb_raw(l->b, ",\"max\":");
    jb_num(l->b, l->d[l->n - 1]);
    jb_raw(l->b, "}");
    l->n = 0;
}

static int lat_row(void *arg, int ncol, const struct db_val *col)
{
    struct lat *l = arg;
    const char *op = col[0].kind == DB_TEXT ? col[0].s : "";
    if (strncmp(op, l->op, sizeof(l->op) - 1)) {
        lat_flush(l);
        snprintf(l->op, sizeof(l->op), "%s", op);
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        double *d = realloc(l->d, cap * sizeof(*d));
        if (!d) {
            l->failed = 1;
            return 1;
        }
        l->d = d;
        l->cap = cap;
    }
    l->d[l->n++] = jb_number_of(&col[1], NAN);
    return 0;
}

int api_latency(struct db *db, const char *job, struct jbuf *out)
{
    char src[16];
    int rc = api_job_source(db, job, src, sizeof(src));
    if (rc)
        return rc;
    struct lat l = {.b = out};
    jb_raw(out, "{\"job\":");
    jb_str(out, job);
    jb_raw(out, ",\"unit\":\"s\",\"ops\":[");
    rc = db_select(db, "SELECT op, duration FROM events WHERE job_key = ?"
                       " AND duration IS NOT NULL ORDER BY op, duration",
                   (struct db_val[]){DB_S(job)}, 1, lat_row, &l);
    if (l.failed)
        out->failed = 1;
    lat_flush(&l);
    free(l.d);
    jb_raw(out, "]}");
    return rc;
}
