/* Several processes' logs into one (include/iolens/joblog.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/modules/heatmap.h"
#include "iolens/recfile.h"
#include "joblog_internal.h"
#include "log_internal.h"
#include "runtime_api.h"

void iol_joblog_rewind(iolens_log *log)
{
    iol_region_end(&log->rg);
    log->rg_module = -1;
}

static int earlier(int64_t s1, int64_t n1, int64_t s2, int64_t n2)
{
    return s1 < s2 || (s1 == s2 && n1 < n2);
}

/* Was this log recovered from a killed process's record file? */
static int was_killed(const iolens_log *log)
{
    const char *m = iolens_log_get_info(log)->job.metadata;
    for (const char *p = m; (p = strstr(p, IOLENS_META_KILLED "=")); p++)
        if ((p == m || p[-1] == '\n') && p[sizeof(IOLENS_META_KILLED)] != '0')
            return 1;
    return 0;
}

/* Append a line to the metadata text m (its size: sizeof job.metadata),
 * unless it does not fit. */
static void add_line(char *m, size_t size, const char *line)
{
    size_t used = strlen(m), n = strlen(line);
    if (used + n + 2 <= size) {
        memcpy(m + used, line, n);
        m[used + n] = '\n';
        m[used + n + 1] = '\0';
    }
}

/* Is line (n bytes) a key=value line of key? */
static int line_of(const char *line, size_t n, const char *key)
{
    size_t k = strlen(key);
    return n > k && line[k] == '=' && strncmp(line, key, k) == 0;
}

/* job_from's metadata without its iolens_killed and iolens_rank lines. */
static void base_metadata(char *out, size_t size, const char *in)
{
    out[0] = '\0';
    for (const char *p = in; *p;) {
        size_t n = strcspn(p, "\n");
        char line[1024];
        if (n < sizeof(line) && !line_of(p, n, IOLENS_META_KILLED) &&
            !line_of(p, n, IOLENS_META_RANK)) {
            memcpy(line, p, n);
            line[n] = '\0';
            if (n)
                add_line(out, size, line);
        }
        p += n + (p[n] == '\n');
    }
}

void iolens_joblog_job(const struct iolens_joblog *c, struct iolens_job *out)
{
    char ranks[512] = "", line[600];
    size_t killed = 0, used = 0;

    *out = iolens_log_get_info(c->job_from)->job;
    out->nprocs = (int64_t)c->nlogs;
    for (size_t i = 0; i < c->nlogs; i++) {
        const struct iolens_job *j = &iolens_log_get_info(c->logs[i])->job;
        if (earlier(j->start_time_sec, j->start_time_nsec, out->start_time_sec,
                    out->start_time_nsec)) {
            out->start_time_sec = j->start_time_sec;
            out->start_time_nsec = j->start_time_nsec;
        }
        if (earlier(out->end_time_sec, out->end_time_nsec, j->end_time_sec,
                    j->end_time_nsec)) {
            out->end_time_sec = j->end_time_sec;
            out->end_time_nsec = j->end_time_nsec;
        }
        if (was_killed(c->logs[i])) {
            long long r = c->ranks ? (long long)c->ranks[i] : (long long)i;
            int n = snprintf(ranks + used, sizeof(ranks) - used, "%s%lld", killed ? "," : "", r);
            if (n > 0 && (size_t)n < sizeof(ranks) - used)
                used += (size_t)n;
            killed++;
        }
    }
    base_metadata(out->metadata, sizeof(out->metadata),
                  iolens_log_get_info(c->job_from)->job.metadata);
    if (killed) {
        snprintf(line, sizeof(line), "%s=%zu", IOLENS_META_KILLED, killed);
        add_line(out->metadata, sizeof(out->metadata), line);
        snprintf(line, sizeof(line), "%s_ranks=%s", IOLENS_META_KILLED, ranks);
        add_line(out->metadata, sizeof(out->metadata), line);
    }
}

iolens_status iol_joblog_put_record(iolens_log_writer *w, int mod_id, const void *rec,
                                    int64_t rank, double span, struct iol_joblog_buf *b)
{
    const struct iolens_module_desc *desc = iolens_module(mod_id);
    size_t size = iolens_record_size(desc, rec), room = size;
    const struct iolens_heatmap_record *hm = rec;
    int64_t bins = 0;

    if (mod_id == IOLENS_MOD_HEATMAP && span > 0) {
        /* room for twice the bins a span needs at the record's width */
        bins = hm->nbins < 200 ? 200 : hm->nbins;
        room = sizeof(*hm) + 2 * (size_t)bins * sizeof(int64_t);
    }
    if (room > b->cap) {
        unsigned char *p = realloc(b->buf, room);
        if (!p)
            return IOLENS_ERR_NOMEM;
        b->buf = p;
        b->cap = room;
    }
    memcpy(b->buf, rec, size);
    if (rank != IOL_JOBLOG_KEEP_RANK)
        ((struct iolens_record_base *)b->buf)->rank = rank;
    if (bins)
        iol_heatmap_extend((struct iolens_heatmap_record *)b->buf, span, bins);
    return iolens_writer_put_record(w, mod_id, b->buf);
}

iolens_status iolens_writer_append_records(iolens_log_writer *w, iolens_log *log, int mod_id,
                                           int64_t rank, double span)
{
    struct iol_joblog_buf b = {0};
    const void *rec;
    iolens_status st;

    if (iolens_log_get_info(log)->mod_map[mod_id].len == 0)
        return IOLENS_OK;
    iol_joblog_rewind(log);
    while ((st = iolens_log_next_record(log, mod_id, &rec)) == IOLENS_OK)
        if ((st = iol_joblog_put_record(w, mod_id, rec, rank, span, &b)) != IOLENS_OK)
            break;
    free(b.buf);
    return st == IOLENS_END ? IOLENS_OK : st;
}

struct name_ref {
    uint64_t id;
    const char *name;
};

struct name_list {
    struct name_ref *v;
    size_t n, cap;
};

static int add_name(uint64_t id, const char *name, void *arg)
{
    struct name_list *l = arg;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        struct name_ref *v = realloc(l->v, cap * sizeof(*v));
        if (!v)
            return 1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (struct name_ref){id, name};
    return 0;
}

static int cmp_ref(const void *a, const void *b)
{
    const struct name_ref *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

iolens_status iol_joblog_names(iolens_log_writer *w, const struct iolens_joblog *c)
{
    struct name_list l = {0};
    iolens_status st = IOLENS_OK;

    for (size_t i = 0; i < c->nlogs && st == IOLENS_OK; i++)
        if ((st = iolens_log_load_names(c->logs[i])) == IOLENS_OK &&
            iolens_log_each_name(c->logs[i], add_name, &l) != 0)
            st = IOLENS_ERR_NOMEM;
    if (st == IOLENS_OK && l.n)
        qsort(l.v, l.n, sizeof(*l.v), cmp_ref);
    for (size_t i = 0; i < l.n && st == IOLENS_OK; i++)
        if (i == 0 || l.v[i].id != l.v[i - 1].id)
            st = iolens_writer_put_name(w, l.v[i].id, l.v[i].name);
    free(l.v);
    return st;
}

/* The longest span (bins x width) of any HEATMAP record of the logs. */
static iolens_status heatmap_span(const struct iolens_joblog *c, double *span)
{
    const void *rec;
    iolens_status st = IOLENS_OK;

    *span = 0;
    for (size_t i = 0; i < c->nlogs && st == IOLENS_OK; i++) {
        if (iolens_log_get_info(c->logs[i])->mod_map[IOLENS_MOD_HEATMAP].len == 0)
            continue;
        iol_joblog_rewind(c->logs[i]);
        while ((st = iolens_log_next_record(c->logs[i], IOLENS_MOD_HEATMAP, &rec)) == IOLENS_OK) {
            const struct iolens_heatmap_record *r = rec;
            double s = (double)r->nbins * r->bin_width_seconds;
            if (r->nbins > 0 && s > *span)
                *span = s;
        }
        st = st == IOLENS_END ? IOLENS_OK : st;
    }
    return st;
}

uint32_t iol_joblog_common_version(const struct iolens_joblog *c, int m)
{
    uint32_t ver = 0;
    for (size_t i = 0; i < c->nlogs; i++) {
        const struct iolens_log_info *in = iolens_log_get_info(c->logs[i]);
        if (!in->mod_map[m].len)
            continue;
        if (ver && in->mod_ver[m] != ver)
            return 0;
        ver = in->mod_ver[m];
    }
    return ver;
}

iolens_status iol_joblog_failed(iolens_status st, const iolens_log *log, char *detail, size_t len)
{
    const char *why = log && iolens_log_error(log)[0] ? iolens_log_error(log) : iolens_strerror(st);
    if (detail && len)
        snprintf(detail, len, "%s", why);
    return st;
}

iolens_status iolens_joblog_write(const struct iolens_joblog *c, const char *path,
                                  char *detail, size_t detail_len)
{
    iolens_log_writer *w;
    struct iolens_job job;
    const struct iolens_log_info *from = iolens_log_get_info(c->job_from);
    double span;
    iolens_status st;

    if ((st = heatmap_span(c, &span)) != IOLENS_OK)
        return iol_joblog_failed(st, NULL, detail, detail_len);
    iolens_joblog_job(c, &job);
    if ((st = iolens_writer_create(path, IOLENS_COMP_ZLIB, &w, detail, detail_len)) != IOLENS_OK)
        return st;
    if ((st = iolens_writer_set_mode(w, 0400)) != IOLENS_OK ||
        (st = iolens_writer_put_job(w, &job, from->exe, from->mounts, from->nmounts)) !=
            IOLENS_OK ||
        (st = iol_joblog_names(w, c)) != IOLENS_OK)
        goto fail;
    for (int m = 0; m < IOLENS_MAX_MODS; m++) {
        /* The logs' own version when they agree and it can be written (logs
         * for Darshan 3.5.0's tools make a job log for them), else the newest. */
        uint32_t ver = iol_joblog_common_version(c, m);
        if (ver)
            (void)iol_writer_set_version(w, m, ver); /* IOLENS_ERR_VERSION: the newest */
        for (size_t i = 0; i < c->nlogs; i++) {
            if (iolens_log_get_info(c->logs[i])->partial_flags & (1ULL << m))
                iolens_writer_set_partial(w, m);
            st = iolens_writer_append_records(w, c->logs[i], m, (int64_t)i, span);
            if (st != IOLENS_OK) {
                iolens_writer_abort(w);
                return iol_joblog_failed(st, c->logs[i], detail, detail_len);
            }
        }
    }
    if ((st = iolens_writer_close(w)) != IOLENS_OK)
        return iol_joblog_failed(st, NULL, detail, detail_len);
    return IOLENS_OK;
fail:
    iolens_writer_abort(w);
    return iol_joblog_failed(st, NULL, detail, detail_len);
}
