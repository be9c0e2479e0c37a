/* A log's CALLSITES records, resolved and added up (callsites.h). Each
 * process (rank) has its own objects and load addresses: its sites and
 * functions are resolved with a resolver over its objects, then added to
 * the result by what they resolve to (a site: all its frames' lines). */
#include <stdlib.h>
#include <string.h>

#include "callsites.h"
#include "callsites_internal.h"

typedef struct iolens_callsites_record cs_rec;

/* All the log's records, copied. */
struct recs {
    cs_rec *v;
    size_t n;
};

static iolens_status read_all(iolens_log *log, struct recs *out)
{
    const void *p;
    iolens_status st;
    size_t cap = 0;
    while ((st = iolens_log_next_record(log, IOLENS_MOD_CALLSITES, &p)) == IOLENS_OK) {
        if (out->n == cap) {
            cap = cap ? 2 * cap : 256;
            cs_rec *v = realloc(out->v, cap * sizeof(*v));
            if (!v)
                return IOLENS_ERR_NOMEM;
            out->v = v;
        }
        memcpy(&out->v[out->n++], p, sizeof(cs_rec));
    }
    return st == IOLENS_END ? IOLENS_OK : st;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static int same_place(const struct cs_frame *a, const struct cs_frame *b)
{
    if (a->file || b->file)
        return same_str(a->function, b->function) && same_str(a->file, b->file) &&
               a->line == b->line;
    return same_str(a->object, b->object) && a->offset == b->offset;
}

static void frame_free(struct cs_frame *f)
{
    free(f->function);
    free(f->file);
    free(f->object);
}

/* Do two sites resolve to the same lines, frame by frame? */
static int same_site(const struct cs_site *a, const struct cs_site *b)
{
    if (a->module != b->module || a->op != b->op || a->nframes != b->nframes)
        return 0;
    for (int k = 0; k < a->nframes; k++)
        if (!same_place(&a->frames[k], &b->frames[k]))
            return 0;
    return 1;
}

/* Add a resolved site (its frames taken over, or freed when it adds to one
 * already there). @return 0, or -1 out of memory. */
static int add_site(struct cs_result *r, struct cs_site *s)
{
    for (size_t i = 0; i < r->nsites; i++) {
        struct cs_site *t = &r->sites[i];
        if (same_site(t, s)) {
            t->calls += s->calls;
            t->bytes += s->bytes;
            t->time += s->time;
            for (int k = 0; k < s->nframes; k++)
                frame_free(&s->frames[k]);
            free(s->frames);
            return 0;
        }
    }
    struct cs_site *v = realloc(r->sites, (r->nsites + 1) * sizeof(*v));
    if (!v)
        return -1;
    r->sites = v;
    r->sites[r->nsites++] = *s;
    return 0;
}

static int add_function(struct cs_result *r, struct cs_frame *f, const cs_rec *rec)
{
    char buf[512];
    const char *name = f->function ? f->function : cs_frame_text(f, buf, sizeof(buf));
    for (size_t i = 0; i < r->nfunctions; i++) {
        struct cs_function *t = &r->functions[i];
        if (!strcmp(t->function, name)) {
            t->calls += rec->counters[CALLSITES_CALLS];
            t->own += rec->fcounters[CALLSITES_F_TIME];
            t->inclusive += rec->fcounters[CALLSITES_F_INCL_TIME];
            return 0;
        }
    }
    struct cs_function *v = realloc(r->functions, (r->nfunctions + 1) * sizeof(*v));
    if (!v)
        return -1;
    r->functions = v;
    r->functions[r->nfunctions++] = (struct cs_function){
        strdup(name), rec->counters[CALLSITES_CALLS], rec->fcounters[CALLSITES_F_TIME],
        rec->fcounters[CALLSITES_F_INCL_TIME]};
    return 0;
}

/* Resolve and add the records of one rank. @return 0, or -1 out of memory. */
static int add_rank(iolens_log *log, const struct recs *all, int64_t rank, struct cs_result *r)
{
    size_t nobj = 0;
    struct cs_object *objs = calloc(all->n ? all->n : 1, sizeof(*objs));
    if (!objs)
        return -1;
    for (size_t i = 0; i < all->n; i++) {
        const cs_rec *c = &all->v[i];
        if (c->base.rank != rank || c->counters[CALLSITES_KIND] != IOLENS_CALLSITES_OBJECT)
            continue;
        struct cs_object *o = &objs[nobj++];
        const char *name = iolens_log_name(log, c->base.id);
        o->path = name ? name : "?";
        o->base = (uint64_t)c->counters[CALLSITES_FRAME_0];
        o->idlen = (size_t)c->counters[CALLSITES_DEPTH];
        if (o->idlen > 4 * sizeof(int64_t))
            o->idlen = 4 * sizeof(int64_t);
        memcpy(o->build_id, &c->counters[CALLSITES_FRAME_1], o->idlen);
    }
    Dwfl *d = cs_dwfl_open(objs, nobj);
    int rc = 0;
    for (size_t i = 0; i < all->n && rc == 0; i++) {
        const cs_rec *c = &all->v[i];
        int64_t kind = c->counters[CALLSITES_KIND];
        if (c->base.rank != rank)
            continue;
        if (kind == IOLENS_CALLSITES_TOTALS) {
            r->lost_calls += c->counters[CALLSITES_CALLS];
            r->lost_entries += c->counters[CALLSITES_FRAME_0];
            r->slow_walks += c->counters[CALLSITES_FRAME_1];
        } else if (kind == IOLENS_CALLSITES_FUNCTION) {
            struct cs_frame f;
            cs_resolve(d, objs, nobj, (uint64_t)c->counters[CALLSITES_FRAME_0], 0, &f);
            rc = add_function(r, &f, c);
            frame_free(&f);
        } else if (kind == IOLENS_CALLSITES_SITE) {
            int64_t n = c->counters[CALLSITES_DEPTH];
            n = n < 1 ? 1 : n > IOLENS_CALLSITES_MAX_FRAMES ? IOLENS_CALLSITES_MAX_FRAMES : n;
            struct cs_site s = {calloc((size_t)n, sizeof(struct cs_frame)), (int)n,
                                (int)c->counters[CALLSITES_MODULE],
                                (int)c->counters[CALLSITES_OP], c->counters[CALLSITES_CALLS],
                                c->counters[CALLSITES_BYTES], c->fcounters[CALLSITES_F_TIME]};
            if (!s.frames) {
                rc = -1;
                break;
            }
            for (int k = 0; k < n; k++)
                cs_resolve(d, objs, nobj, (uint64_t)c->counters[CALLSITES_FRAME_0 + k], 1,
                           &s.frames[k]);
            rc = add_site(r, &s);
        }
    }
    cs_objects_release(objs, nobj);
    if (d)
        dwfl_end(d);
    free(objs);
    return rc;
}

static int by_time(const void *a, const void *b)
{
    const struct cs_site *x = a, *y = b;
    return x->time < y->time ? 1 : x->time > y->time ? -1 : 0;
}

static int by_own(const void *a, const void *b)
{
    const struct cs_function *x = a, *y = b;
    return x->own < y->own ? 1 : x->own > y->own ? -1 : 0;
}

static int cmp_rank(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

iolens_status cs_load(iolens_log *log, struct cs_result *r)
{
    struct recs all = {0};
    int64_t *ranks = NULL;
    memset(r, 0, sizeof(*r));
    const struct iolens_log_info *in = iolens_log_get_info(log);
    iolens_status st = iolens_log_load_names(log);
    if (st == IOLENS_OK)
        st = read_all(log, &all);
    if (st == IOLENS_OK && all.n == 0)
        st = IOLENS_END;
    if (st != IOLENS_OK)
        goto out;
    r->partial = (in->partial_flags >> IOLENS_MOD_CALLSITES) & 1;
    ranks = malloc(all.n * sizeof(*ranks));
    if (!ranks) {
        st = IOLENS_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < all.n; i++)
        ranks[i] = all.v[i].base.rank;
    qsort(ranks, all.n, sizeof(*ranks), cmp_rank);
    for (size_t i = 0; i < all.n && st == IOLENS_OK; i++)
        if ((i == 0 || ranks[i] != ranks[i - 1]) && add_rank(log, &all, ranks[i], r) != 0)
            st = IOLENS_ERR_NOMEM;
    /* qsort's array must not be NULL, even empty: a program without
     * -finstrument-functions has no functions */
    if (r->nsites)
        qsort(r->sites, r->nsites, sizeof(*r->sites), by_time);
    if (r->nfunctions)
        qsort(r->functions, r->nfunctions, sizeof(*r->functions), by_own);
out:
    free(ranks);
    free(all.v);
    if (st != IOLENS_OK)
        cs_result_free(r);
    return st;
}

void cs_result_free(struct cs_result *r)
{
    for (size_t i = 0; i < r->nsites; i++) {
        for (int k = 0; k < r->sites[i].nframes; k++)
            frame_free(&r->sites[i].frames[k]);
        free(r->sites[i].frames);
    }
    for (size_t i = 0; i < r->nfunctions; i++)
        free(r->functions[i].function);
    free(r->sites);
    free(r->functions);
    memset(r, 0, sizeof(*r));
}

void cs_print_top(FILE *out, const char *path, size_t n)
{
    struct cs_result r;
    char buf[1024];
    iolens_log *log = NULL;
    if (iolens_log_open(path, &log, NULL, 0) != IOLENS_OK)
        return;
    if (cs_load(log, &r) != IOLENS_OK) {
        iolens_log_close(log);
        return;
    }
    fprintf(out, "\nI/O by line (top %zu of %zu call sites; `iolens callsites` for all):\n",
            n < r.nsites ? n : r.nsites, r.nsites);
    for (size_t i = 0; i < r.nsites && i < n; i++) {
        const char *mod = iolens_module_name(r.sites[i].module);
        fprintf(out, "  %10.6f s %10lld calls  %s %s  %s\n", r.sites[i].time,
                (long long)r.sites[i].calls, mod ? mod : "?",
                iolens_callsites_op_name(r.sites[i].op),
                cs_frame_text(&r.sites[i].frames[0], buf, sizeof(buf)));
    }
    cs_result_free(&r);
    iolens_log_close(log);
}
