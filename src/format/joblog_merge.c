/* Logs of one MPI job merged into its job log (iolens_joblog_merge in
 * include/iolens/joblog.h; docs/merge.md).
 *
 * Which input stands for which rank, and whether they are one job's, is
 * decided first (classify, check_job). Then, module by module: the records of
 * a reduced module that the rank logs (not whole-job logs) hold for one file
 * on every rank are "shared", the runtime's rule (the ids every rank opened
 * in that module); each shared file's records are gathered, one per rank, and
 * reduced by the combining engine (iolens_combine_shared) as the MPI runtime
 * reduces them. The records are written in the runtime's layout: the input of
 * rank 0 first, then the shared records by id, then the other inputs by rank. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "iolens/combine.h"
#include "iolens/modules/heatmap.h"
#include "joblog_internal.h"
#include "log_internal.h"

/* One input log and the rank it stands for. */
struct input {
    iolens_log *log;
    const char *name;
    size_t given;   /* its place among the inputs */
    int64_t rank;   /* its rank, or -1: a whole job's log (every rank) */
    int64_t stated; /* the job's size it states, 0: none */
    int64_t first;  /* a whole job's log: the rank its rank 0 becomes */
    int reducible;  /* its records may take part in the reduction */
};

struct merge {
    struct input *in; /* sorted by rank (a whole job's log first) */
    size_t n;
    int64_t nprocs;
    int jobs; /* --force on inputs whose ranks clash: one job after the other */
    unsigned flags;
    uint64_t left_out; /* modules with records this library cannot read */
    const char *path;  /* the output */
    char *detail;
    size_t dlen;
};

/* The value of metadata line key=value as a whole number. @return 1 if set. */
static int meta_int(const char *m, const char *key, int64_t *v)
{
    size_t k = strlen(key);
    for (const char *p = m; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > k && p[k] == '=' && strncmp(p, key, k) == 0) {
            char *end;
            long long x = strtoll(p + k + 1, &end, 10);
            if (end != p + k + 1 && (*end == '\n' || *end == '\0') && x >= 0) {
                *v = x;
                return 1;
            }
        }
        p += n + (p[n] == '\n');
    }
    return 0;
}

/* The inputs are not one job's: the reason into detail. */
__attribute__((format(printf, 2, 3))) static iolens_status refuse(struct merge *g,
                                                                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (g->detail && g->dlen)
        vsnprintf(g->detail, g->dlen, fmt, ap);
    va_end(ap);
    return IOLENS_ERR_ARGUMENT;
}

/* A read of input in failed: "NAME: reason" into detail. @return st. */
static iolens_status read_failed(struct merge *g, iolens_status st, const struct input *in)
{
    const char *why = iolens_log_error(in->log)[0] ? iolens_log_error(in->log)
                                                   : iolens_strerror(st);
    if (g->detail && g->dlen)
        snprintf(g->detail, g->dlen, "%s: %s", in->name, why);
    return st;
}

/* Writing the output failed: "PATH: reason" into detail (keeping a reason
 * already there). @return st. */
static iolens_status write_failed(struct merge *g, iolens_status st)
{
    char why[256];
    snprintf(why, sizeof(why), "%s", g->detail && g->detail[0] ? g->detail : iolens_strerror(st));
    if (g->detail && g->dlen)
        snprintf(g->detail, g->dlen, "%s: %s", g->path, why);
    return st;
}

/* The most processes (and so ranks) a job can have: MPI counts them in an int. */
#define MAX_NPROCS INT32_MAX

/* Which rank each input stands for (see iolens_joblog_merge).
 * @return IOLENS_OK, or IOLENS_ERR_CORRUPT for a rank or job size no job has. */
static iolens_status classify(struct merge *g)
{
    int64_t next = 0, rank, world;
    for (size_t i = 0; i < g->n; i++) {
        struct input *in = &g->in[i];
        const struct iolens_job *j = &iolens_log_get_info(in->log)->job;
        in->reducible = 1;
        if (meta_int(j->metadata, IOLENS_META_RANK, &rank)) {
            in->rank = rank;
            in->stated = j->nprocs;
        } else if (j->nprocs > 1 || g->n == 1) {
            in->rank = -1;
            in->stated = j->nprocs > 0 ? j->nprocs : 1;
            in->reducible = (g->flags & IOLENS_MERGE_REDUCE_ALL) != 0;
        } else if (meta_int(j->metadata, "rank", &rank) &&
                   meta_int(j->metadata, "world_size", &world)) {
            in->rank = rank;
            in->stated = world;
        } else {
            in->rank = next++;
        }
    }
    for (size_t i = 0; i < g->n; i++) {
        const struct input *in = &g->in[i];
        if (in->stated < 0 || in->stated > MAX_NPROCS || in->rank >= MAX_NPROCS ||
            (in->stated && in->rank >= in->stated)) {
            if (in->rank < 0)
                snprintf(g->detail, g->dlen, "%s: a job of %lld processes: no job has that many",
                         in->name, (long long)in->stated);
            else
                snprintf(g->detail, g->dlen, "%s: rank %lld of a job of %lld processes: no "
                         "job has it", in->name, (long long)in->rank, (long long)in->stated);
            return IOLENS_ERR_CORRUPT;
        }
    }
    for (size_t i = 0; i < g->n; i++) {
        int64_t upto = g->in[i].rank + 1;
        if (g->in[i].stated > g->nprocs)
            g->nprocs = g->in[i].stated;
        if (upto > g->nprocs)
            g->nprocs = upto;
    }
    return IOLENS_OK;
}

static int cmp_input(const void *a, const void *b)
{
    const struct input *x = a, *y = b;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* One job: the same job id and size, and logs of several processes (the
 * job's header) starting at the same time. A log of one process has its own
 * start: a process of a job need not start with the others. */
static iolens_status check_job(struct merge *g)
{
    const struct input *a = &g->in[0];
    const struct iolens_job *ja = &iolens_log_get_info(a->log)->job;
    for (size_t i = 1; i < g->n; i++) {
        const struct input *b = &g->in[i];
        const struct iolens_job *jb = &iolens_log_get_info(b->log)->job;
        if (ja->jobid != jb->jobid)
            return refuse(g, "%s and %s are logs of different jobs (job ids %lld and %lld)",
                          a->name, b->name, (long long)ja->jobid, (long long)jb->jobid);
        if (a->stated && b->stated && a->stated != b->stated)
            return refuse(g, "%s and %s are logs of jobs of different sizes (%lld and %lld "
                          "processes)", a->name, b->name, (long long)a->stated,
                          (long long)b->stated);
        if (ja->nprocs > 1 && jb->nprocs > 1 && (ja->start_time_sec != jb->start_time_sec ||
                                                 ja->start_time_nsec != jb->start_time_nsec))
            return refuse(g, "%s and %s are logs of jobs that started at different times "
                          "(%lld and %lld)", a->name, b->name, (long long)ja->start_time_sec,
                          (long long)jb->start_time_sec);
    }
    return IOLENS_OK;
}

/* Every rank in one input only; with no FORCE flag, every rank in one. */
static int cmp_given(const void *a, const void *b)
{
    const struct input *x = a, *y = b;
    return x->given < y->given ? -1 : x->given > y->given;
}

/* --force on inputs whose ranks clash (logs of several jobs): each input's
 * ranks after those of the inputs before it, in the order given. */
static void lay_out_jobs(struct merge *g)
{
    int64_t next = 0;
    qsort(g->in, g->n, sizeof(*g->in), cmp_given);
    for (size_t i = 0; i < g->n; i++) {
        struct input *in = &g->in[i];
        in->first = next;
        if (in->rank >= 0)
            in->rank = next++;
        else
            next += in->stated;
    }
    g->nprocs = next;
    g->jobs = 1;
}

/* Every rank in one input only (--force: else one job after the other);
 * with no FORCE flag, every rank in one. */
static iolens_status check_ranks(struct merge *g)
{
    int64_t expect = 0;
    int force = (g->flags & IOLENS_MERGE_FORCE) != 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct input *in = &g->in[i];
        if (i > 0 && (in->rank == g->in[i - 1].rank || g->in[i - 1].rank < 0)) {
            if (!force)
                return refuse(g, "%s and %s both hold rank %lld", g->in[i - 1].name,
                              in->name, (long long)(in->rank < 0 ? 0 : in->rank));
            lay_out_jobs(g);
            return IOLENS_OK;
        }
        if (in->rank < 0) {
            expect = g->nprocs;
            continue;
        }
        if (in->rank > expect && !force)
            return refuse(g, "no log of rank %lld of %lld (--force merges without it)",
                          (long long)expect, (long long)g->nprocs);
        expect = in->rank + 1;
    }
    if (expect < g->nprocs && !force)
        return refuse(g, "no log of rank %lld of %lld (--force merges without it)",
                      (long long)expect, (long long)g->nprocs);
    return IOLENS_OK;
}

/* The rank a record of input in goes into the log with. */
static int64_t rank_of(const struct input *in, const void *rec)
{
    int64_t own = ((const struct iolens_record_base *)rec)->rank;
    if (own < 0)
        return own;
    /* A whole job's log: its ranks moved by its place (wrapping, as a
     * damaged log's may be anything). */
    return in->rank < 0 ? (int64_t)((uint64_t)own + (uint64_t)in->first) : in->rank;
}

/* A record id and the rank whose log holds it. */
struct held {
    uint64_t id;
    int64_t rank;
};

static int cmp_held(const void *a, const void *b)
{
    const struct held *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* One module's shared files: their ids (sorted) and, per file, a record of
 * each rank (nprocs records of record_size bytes), then the reduced ones. */
struct shared {
    uint64_t *ids;
    size_t n;
    unsigned char *recs;
    unsigned char *out;
};

static int is_shared(const struct shared *s, uint64_t id, size_t *at)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->ids[mid] < id)
            lo = mid + 1;
        else if (s->ids[mid] > id)
            hi = mid;
        else {
            *at = mid;
            return 1;
        }
    }
    return 0;
}

/* Which records collect_held gathers. */
enum held_kind {
    HELD_ALL,        /* every record, as (id, rank); a rank -1 record's id gets
                      * rank -1 (never shared again) */
    HELD_JOB_SHARED, /* the shared records (rank -1) only, as (id, input index) */
};

/* The records of module m the inputs hold, as kind says, sorted by id. */
static iolens_status collect_held(struct merge *g, int m, enum held_kind kind,
                                  struct held **out, size_t *nout)
{
    struct held *v = NULL;
    size_t n = 0, cap = 0;
    const void *rec;
    iolens_status st = IOLENS_OK;

    for (size_t i = 0; i < g->n && st == IOLENS_OK; i++) {
        struct input *in = &g->in[i];
        if (!iolens_log_get_info(in->log)->mod_map[m].len)
            continue;
        iol_joblog_rewind(in->log);
        while ((st = iolens_log_next_record(in->log, m, &rec)) == IOLENS_OK) {
            const struct iolens_record_base *b = rec;
            struct held h;
            if (kind == HELD_JOB_SHARED) {
                if (b->rank >= 0)
                    continue;
                h = (struct held){b->id, (int64_t)i};
            } else {
                /* A rank past the job's (a damaged log's) is never shared. */
                int64_t r = rank_of(in, rec);
                h = (struct held){b->id, in->reducible && r < g->nprocs ? r : -1};
            }
            if (n == cap) {
                size_t more = cap ? 2 * cap : 1024;
                struct held *p = realloc(v, more * sizeof(*p));
                if (!p) {
                    st = IOLENS_ERR_NOMEM;
                    break;
                }
                v = p;
                cap = more;
            }
            v[n++] = h;
        }
        st = st == IOLENS_END ? IOLENS_OK : read_failed(g, st, in);
    }
    if (st == IOLENS_OK && n)
        qsort(v, n, sizeof(*v), cmp_held);
    *out = v;
    *nout = n;
    return st;
}

/* The ids of module m every rank's reducible input holds. */
static iolens_status find_shared(struct merge *g, int m, struct shared *s)
{
    struct held *v;
    size_t n;
    iolens_status st = collect_held(g, m, HELD_ALL, &v, &n);

    for (size_t i = 0; st == IOLENS_OK && i < n;) {
        size_t j = i, ranks = 0;
        int whole = 1;
        for (; j < n && v[j].id == v[i].id; j++) {
            whole &= v[j].rank >= 0;
            ranks += j == i || v[j].rank != v[j - 1].rank;
        }
        if (whole && (int64_t)ranks == g->nprocs) {
            if (!s->ids && !(s->ids = malloc(n * sizeof(*s->ids))))
                st = IOLENS_ERR_NOMEM;
            else
                s->ids[s->n++] = v[i].id;
        }
        i = j;
    }
    free(v);
    return st;
}

/* Gather each shared file's records, one per rank, and reduce them. */
static iolens_status reduce_shared(struct merge *g, const struct iolens_module_desc *d,
                                   struct shared *s)
{
    size_t sz = d->record_size, np = (size_t)g->nprocs, at;
    const void *rec;
    const void **ops = malloc(np * sizeof(*ops));
    iolens_status st = IOLENS_ERR_NOMEM;

    if (!ops || s->n > SIZE_MAX / np / sz || !(s->recs = calloc(s->n * np, sz)) ||
        !(s->out = malloc(s->n * sz)))
        goto out;
    st = IOLENS_OK;
    for (size_t i = 0; i < g->n && st == IOLENS_OK; i++) {
        struct input *in = &g->in[i];
        if (!in->reducible || !iolens_log_get_info(in->log)->mod_map[d->id].len)
            continue;
        iol_joblog_rewind(in->log);
        while ((st = iolens_log_next_record(in->log, (int)d->id, &rec)) == IOLENS_OK) {
            int64_t r = rank_of(in, rec);
            if (r >= 0 && r < g->nprocs &&
                is_shared(s, ((const struct iolens_record_base *)rec)->id, &at))
                memcpy(s->recs + (at * np + (size_t)r) * sz, rec, sz);
        }
        st = st == IOLENS_END ? IOLENS_OK : read_failed(g, st, in);
    }
    for (size_t k = 0; k < s->n && st == IOLENS_OK; k++) {
        for (size_t r = 0; r < np; r++)
            ops[r] = s->recs + (k * np + r) * sz;
        st = iolens_combine_shared(d, ops, np, s->n, s->out + k * sz);
    }
out:
    free(ops);
    return st;
}

/* --force on several jobs' logs: the ids of module m that more than one
 * input holds a shared record (rank -1) of. */
static iolens_status find_job_shared(struct merge *g, int m, struct shared *s)
{
    struct held *v;
    size_t n;
    iolens_status st = collect_held(g, m, HELD_JOB_SHARED, &v, &n);

    if (st == IOLENS_OK && n && !(s->ids = malloc(n * sizeof(*s->ids))))
        st = IOLENS_ERR_NOMEM;
    for (size_t i = 0; st == IOLENS_OK && i < n;) {
        size_t j = i + 1;
        while (j < n && v[j].id == v[i].id)
            j++;
        if (j - i > 1)
            s->ids[s->n++] = v[i].id;
        i = j;
    }
    free(v);
    return st;
}

/* Combine each file's shared records of several jobs into one. */
static iolens_status reduce_job_shared(struct merge *g, const struct iolens_module_desc *d,
                                       struct shared *s)
{
    size_t sz = d->record_size, at;
    const void *rec;
    const void **recs = malloc(g->n * sizeof(*recs));
    int64_t *np = malloc(g->n * sizeof(*np)), *first = malloc(g->n * sizeof(*first));
    unsigned char *have = calloc(s->n * g->n, 1);
    iolens_status st = IOLENS_ERR_NOMEM;

    if (!recs || !np || !first || !have || s->n > SIZE_MAX / g->n / sz ||
        !(s->recs = malloc(s->n * g->n * sz)) || !(s->out = malloc(s->n * sz)))
        goto out;
    st = IOLENS_OK;
    for (size_t i = 0; i < g->n && st == IOLENS_OK; i++) {
        struct input *in = &g->in[i];
        if (!iolens_log_get_info(in->log)->mod_map[d->id].len)
            continue;
        iol_joblog_rewind(in->log);
        while ((st = iolens_log_next_record(in->log, (int)d->id, &rec)) == IOLENS_OK) {
            const struct iolens_record_base *b = rec;
            if (b->rank < 0 && is_shared(s, b->id, &at)) {
                memcpy(s->recs + (at * g->n + i) * sz, rec, sz);
                have[at * g->n + i] = 1;
            }
        }
        st = st == IOLENS_END ? IOLENS_OK : read_failed(g, st, in);
    }
    for (size_t k = 0; k < s->n && st == IOLENS_OK; k++) {
        size_t n = 0;
        for (size_t i = 0; i < g->n; i++) {
            if (!have[k * g->n + i])
                continue;
            recs[n] = s->recs + (k * g->n + i) * sz;
            np[n] = g->in[i].rank < 0 ? g->in[i].stated : 1;
            first[n++] = g->in[i].first;
        }
        st = iolens_combine_shared_jobs(d, recs, np, first, n, s->out + k * sz);
    }
out:
    free(have);
    free(first);
    free(np);
    free(recs);
    return st;
}

/* Input in's records of module m but the shared ones, ranks set. */
static iolens_status put_input(struct merge *g, iolens_log_writer *w, struct input *in, int m,
                               const struct shared *s, const struct shared *js, double span,
                               struct iol_joblog_buf *b)
{
    const void *rec;
    iolens_status st;
    size_t at;

    if (!iolens_log_get_info(in->log)->mod_map[m].len)
        return IOLENS_OK;
    iol_joblog_rewind(in->log);
    while ((st = iolens_log_next_record(in->log, m, &rec)) == IOLENS_OK) {
        int64_t r = rank_of(in, rec);
        uint64_t id = ((const struct iolens_record_base *)rec)->id;
        if ((in->reducible && r >= 0 && r < g->nprocs && is_shared(s, id, &at)) ||
            (r < 0 && is_shared(js, id, &at)))
            continue;
        if ((st = iol_joblog_put_record(w, m, rec, r, span, b)) != IOLENS_OK)
            return write_failed(g, st);
    }
    return st == IOLENS_END ? IOLENS_OK : read_failed(g, st, in);
}

/* Module m of every input: version, partial flag, records. */
static iolens_status put_module(struct merge *g, iolens_log_writer *w,
                                const struct iolens_joblog *c, int m, double span)
{
    const struct iolens_module_desc *d = iolens_module(m);
    struct shared s = {0}, js = {0};
    struct iol_joblog_buf b = {0};
    iolens_status st = IOLENS_OK;
    uint32_t ver = iol_joblog_common_version(c, m);
    int any = 0;

    for (size_t i = 0; i < g->n; i++) {
        const struct iolens_log_info *info = iolens_log_get_info(g->in[i].log);
        any |= info->mod_map[m].len != 0;
        if (info->partial_flags & (1ULL << m))
            iolens_writer_set_partial(w, m);
    }
    if (!any)
        return IOLENS_OK;
    if (!d) {
        g->left_out |= 1ULL << m;
        return IOLENS_OK;
    }
    if (ver)
        (void)iol_writer_set_version(w, m, ver); /* IOLENS_ERR_VERSION: the newest */
    if (iolens_combine_reduced(d) && (st = find_shared(g, m, &s)) == IOLENS_OK && s.n)
        st = reduce_shared(g, d, &s);
    if (st == IOLENS_OK && g->jobs && iolens_combine_reduced(d) &&
        (st = find_job_shared(g, m, &js)) == IOLENS_OK && js.n)
        st = reduce_job_shared(g, d, &js);
    for (size_t i = 0; i < g->n && st == IOLENS_OK; i++) {
        st = put_input(g, w, &g->in[i], m, &s, &js, span, &b);
        /* The shared records follow rank 0's own, as in the runtime's log. */
        for (size_t k = 0; i == 0 && k < s.n + js.n && st == IOLENS_OK; k++) {
            const unsigned char *r = k < s.n ? s.out + k * d->record_size
                                             : js.out + (k - s.n) * d->record_size;
            if ((st = iolens_writer_put_record(w, m, r)) != IOLENS_OK)
                write_failed(g, st);
        }
    }
    if (st != IOLENS_OK && g->detail && g->dlen && !g->detail[0])
        write_failed(g, st);
    free(b.buf);
    free(s.ids);
    free(s.recs);
    free(s.out);
    free(js.ids);
    free(js.recs);
    free(js.out);
    return st;
}

/* The longest span (bins x width) of any input's HEATMAP records. */
static iolens_status heatmap_span(struct merge *g, double *span)
{
    const void *rec;
    iolens_status st = IOLENS_OK;

    *span = 0;
    for (size_t i = 0; i < g->n && st == IOLENS_OK; i++) {
        struct input *in = &g->in[i];
        if (!iolens_log_get_info(in->log)->mod_map[IOLENS_MOD_HEATMAP].len)
            continue;
        iol_joblog_rewind(in->log);
        while ((st = iolens_log_next_record(in->log, IOLENS_MOD_HEATMAP, &rec)) == IOLENS_OK) {
            const struct iolens_heatmap_record *r = rec;
            double s = (double)r->nbins * r->bin_width_seconds;
            if (r->nbins > 0 && s > *span)
                *span = s;
        }
        st = st == IOLENS_END ? IOLENS_OK : read_failed(g, st, in);
    }
    return st;
}

static iolens_status write_merged(struct merge *g, const char *path)
{
    iolens_log **logs = malloc(g->n * sizeof(*logs));
    int64_t *ranks = malloc(g->n * sizeof(*ranks));
    iolens_log_writer *w = NULL;
    struct iolens_job job;
    double span;
    iolens_status st = IOLENS_ERR_NOMEM;

    if (!logs || !ranks) {
        write_failed(g, st);
        goto out;
    }
    for (size_t i = 0; i < g->n; i++) {
        logs[i] = g->in[i].log;
        ranks[i] = g->in[i].rank;
    }
    struct iolens_joblog c = {logs, g->n, logs[0], ranks};
    const struct iolens_log_info *from = iolens_log_get_info(logs[0]);
    if ((st = heatmap_span(g, &span)) != IOLENS_OK)
        goto out;
    for (size_t i = 0; i < g->n; i++)
        if ((st = iolens_log_load_names(g->in[i].log)) != IOLENS_OK) {
            read_failed(g, st, &g->in[i]);
            goto out;
        }
    if (g->n == 1 && g->in[0].rank < 0) {
        job = from->job; /* a whole job's log: its own job data, as they are */
    } else {
        iolens_joblog_job(&c, &job);
        job.nprocs = g->nprocs;
    }
    if ((st = iolens_writer_create(path, IOLENS_COMP_ZLIB, &w, g->detail, g->dlen)) != IOLENS_OK) {
        write_failed(g, st);
        goto out;
    }
    if ((st = iolens_writer_put_job(w, &job, from->exe, from->mounts, from->nmounts)) !=
            IOLENS_OK ||
        (st = iol_joblog_names(w, &c)) != IOLENS_OK) {
        write_failed(g, st);
        goto out;
    }
    for (int m = 0; m < IOLENS_MAX_MODS && st == IOLENS_OK; m++)
        st = put_module(g, w, &c, m, span);
    if (st == IOLENS_OK) {
        st = iolens_writer_close(w);
        w = NULL;
        if (st != IOLENS_OK)
            write_failed(g, st);
    }
out:
    if (w)
        iolens_writer_abort(w);
    free(ranks);
    free(logs);
    return st;
}

iolens_status iolens_joblog_merge(iolens_log *const *logs, const char *const *names,
                                  size_t nlogs, const char *path, unsigned flags,
                                  uint64_t *left_out, char *detail, size_t detail_len)
{
    struct merge g = {
        .n = nlogs, .flags = flags, .path = path, .detail = detail, .dlen = detail_len};
    iolens_status st;

    if (detail && detail_len)
        detail[0] = '\0';
    if (!logs || !names || !nlogs || !path)
        return IOLENS_ERR_ARGUMENT;
    if (!(g.in = calloc(nlogs, sizeof(*g.in))))
        return IOLENS_ERR_NOMEM;
    for (size_t i = 0; i < nlogs; i++) {
        g.in[i].log = logs[i];
        g.in[i].name = names[i];
        g.in[i].given = i;
    }
    st = classify(&g);
    if (st == IOLENS_OK) {
        qsort(g.in, g.n, sizeof(*g.in), cmp_input);
        if (!(flags & IOLENS_MERGE_FORCE))
            st = check_job(&g);
    }
    if (st == IOLENS_OK)
        st = check_ranks(&g);
    if (st == IOLENS_OK)
        st = write_merged(&g, path);
    if (left_out)
        *left_out = g.left_out;
    free(g.in);
    return st;
}
