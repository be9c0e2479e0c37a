/* iolens serve's per-second series of a job, by job, rank or file, from the
 * rollup tables (api.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* A point's values after its second, in the rollups' column order. */
enum { NVAL = 6 };
static const char *const val_names[NVAL] = {"bytes_read", "bytes_written", "reads", "writes",
                                             "other_ops", "io_time"};

struct point {
    int64_t second;
    double v[NVAL];
};

struct series {
    char *key, *label;
    struct point *pt;
    size_t n, cap;
    double total[NVAL];
};

struct walk {
    enum api_by by;
    struct series *s;
    size_t n, cap;
    int failed;
};

/* Grow an array of n elements of size sz to hold one more. @return 0 or -1. */
static int grow(void **p, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, c * sz);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* A row: the series' key columns (job: none; rank: host, rank; file:
 * record id, name), then second and the NVAL values. Rows come ordered by
 * key, then second. */
static int series_row(void *arg, int ncol, const struct db_val *col)
{
    struct walk *w = arg;
    int nkey = w->by == API_BY_JOB ? 0 : 2;
    char key[512], label[1024];
    if (ncol < nkey + 1 + NVAL)
        return 1;
    const char *a = nkey && col[0].kind == DB_TEXT ? col[0].s : "";
    if (w->by == API_BY_RANK) {
        snprintf(key, sizeof(key), "%s:%lld", a, (long long)col[1].i);
        snprintf(label, sizeof(label), "rank %lld (%s)", (long long)col[1].i, a);
    } else if (w->by == API_BY_FILE) {
        snprintf(key, sizeof(key), "%s", a);
        snprintf(label, sizeof(label), "%s", col[1].kind == DB_TEXT ? col[1].s : a);
    } else {
        snprintf(key, sizeof(key), "job");
        snprintf(label, sizeof(label), "job");
    }
    struct series *s = w->n ? &w->s[w->n - 1] : NULL;
    if (!s || strcmp(s->key, key)) {
        if (grow((void **)&w->s, &w->cap, w->n, sizeof(*w->s)) < 0)
            goto oom;
        s = &w->s[w->n];
        *s = (struct series){.key = strdup(key), .label = strdup(label)};
        w->n++;
        if (!s->key || !s->label)
            goto oom;
    }
    if (grow((void **)&s->pt, &s->cap, s->n, sizeof(*s->pt)) < 0)
        goto oom;
    struct point *p = &s->pt[s->n++];
    p->second = col[nkey].kind == DB_INT ? col[nkey].i : (int64_t)jb_number_of(&col[nkey], 0);
    for (int i = 0; i < NVAL; i++) {
        p->v[i] = jb_number_of(&col[nkey + 1 + i], 0);
        s->total[i] += p->v[i];
    }
    return 0;
oom:
    w->failed = 1;
    return 1;
}

/* Busiest first: bytes, then operations, then key. */
static int busier(const void *a, const void *b)
{
    const struct series *x = a, *y = b;
    double bx = x->total[0] + x->total[1], by = y->total[0] + y->total[1];
    double ox = x->total[2] + x->total[3] + x->total[4], oy = y->total[2] + y->total[3] + y->total[4];
    if (bx != by)
        return bx > by ? -1 : 1;
    if (ox != oy)
        return ox > oy ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* Write a series, its points summed over buckets of step seconds from
 * first (a bucket is written as its first second). */
static void write_series(struct jbuf *b, const struct series *s, int first_series,
                         int64_t first, int64_t step)
{
    jb_raw(b, first_series ? "{\"key\":" : ",{\"key\":");
    jb_str(b, s->key);
    jb_raw(b, ",\"label\":");
    jb_str(b, s->label);
    jb_raw(b, ",\"totals\":{");
    for (int i = 0; i < NVAL; i++) {
        jb_key(b, val_names[i], i == 0);
        jb_num(b, s->total[i]);
    }
    jb_raw(b, "},\"points\":[");
    for (size_t k = 0, written = 0; k < s->n; written++) {
        int64_t bucket = (s->pt[k].second - first) / step;
        double v[NVAL] = {0};
        for (; k < s->n && (s->pt[k].second - first) / step == bucket; k++)
            for (int i = 0; i < NVAL; i++)
                v[i] += s->pt[k].v[i];
        jb_raw(b, written ? ",[" : "[");
        jb_int(b, first + bucket * step);
        for (int i = 0; i < NVAL; i++) {
            jb_raw(b, ",");
            jb_num(b, v[i]);
        }
        jb_raw(b, "]");
    }
    jb_raw(b, "]}");
}

int api_series(struct db *db, const char *job, enum api_by by, int limit, int max_points,
               struct jbuf *out)
{
    static const char *const sql[] = {
        [API_BY_JOB] = "SELECT second, bytes_read, bytes_written, reads, writes, other_ops,"
                       " io_time FROM rollup_job WHERE job_key = ? ORDER BY second",
        [API_BY_RANK] = "SELECT host, rank, second, bytes_read, bytes_written, reads, writes,"
                        " other_ops, io_time FROM rollup_rank WHERE job_key = ?"
                        " ORDER BY host, rank, second",
        [API_BY_FILE] = "SELECT r.record_id, f.name, r.second, r.bytes_read, r.bytes_written,"
                        " r.reads, r.writes, r.other_ops, r.io_time FROM rollup_file r"
                        " LEFT JOIN files f ON f.job_key = r.job_key AND f.record_id = r.record_id"
                        " WHERE r.job_key = ? ORDER BY r.record_id, r.second",
    };
    static const char *const by_name[] = {"job", "rank", "file"};
    char src[16];
    int rc = api_job_source(db, job, src, sizeof(src));
    if (rc)
        return rc;
    struct walk w = {.by = by};
    rc = db_select(db, sql[by], (struct db_val[]){DB_S(job)}, 1, series_row, &w);
    if (w.failed)
        out->failed = 1;
    if (rc == 0 && !w.failed) { /* (out of memory may leave a series without points) */
        qsort(w.s, w.n, sizeof(*w.s), busier);
        /* every series in buckets of one width, from the job's first second */
        int64_t first = INT64_MAX, last = INT64_MIN, step = 1;
        for (size_t i = 0; i < w.n; i++) {
            first = w.s[i].pt[0].second < first ? w.s[i].pt[0].second : first;
            last = w.s[i].pt[w.s[i].n - 1].second > last ? w.s[i].pt[w.s[i].n - 1].second : last;
        }
        if (w.n && last - first + 1 > max_points)
            step = (last - first + max_points) / max_points;
        jb_raw(out, "{\"job\":");
        jb_str(out, job);
        jb_raw(out, ",\"by\":");
        jb_str(out, by_name[by]);
        jb_raw(out, ",\"columns\":[\"second\"");
        for (int i = 0; i < NVAL; i++) {
            jb_raw(out, ",");
            jb_str(out, val_names[i]);
        }
        jb_raw(out, "],\"step\":");
        jb_int(out, step);
        jb_raw(out, ",\"total_series\":");
        jb_int(out, (int64_t)w.n);
        jb_raw(out, ",\"series\":[");
        for (size_t i = 0; i < w.n && i < (size_t)limit; i++)
            write_series(out, &w.s[i], i == 0, first, step);
        jb_raw(out, "]}");
    }
    for (size_t i = 0; i < w.n; i++) {
        free(w.s[i].key);
        free(w.s[i].label);
        free(w.s[i].pt);
    }
    free(w.s);
    return rc;
}
