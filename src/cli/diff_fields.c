/* The records iolens diff compares and their fields: a fixed-size record's
 * counters and fcounters; a HEATMAP record's width, bin count and bins; a DXT
 * record's host, counts and segments; any other record as its bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "iolens/modules/dxt.h"
#include "iolens/modules/heatmap.h"

/* The shortest form of v that reads back as v. */
static void put_double(char *buf, size_t len, double v)
{
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Room for one more field. @return it, or NULL without memory. */
static struct diff_field *add(struct diff_fields *f, size_t *cap)
{
    if (f->n == *cap) {
        size_t more = *cap ? 2 * *cap : 64;
        struct diff_field *v = realloc(f->v, more * sizeof(*v));
        if (!v)
            return NULL;
        f->v = v;
        *cap = more;
    }
    memset(&f->v[f->n], 0, sizeof(f->v[f->n]));
    return &f->v[f->n++];
}

/* The counter tables' fields. */
static int table_fields(const struct iolens_module_desc *d, const unsigned char *rec,
                        struct diff_fields *out, size_t cap)
{
    for (size_t i = 0; i < d->ncounters + d->nfcounters; i++) {
        int is_f = i >= d->ncounters;
        const struct iolens_counter *c = is_f ? &d->fcounters[i - d->ncounters] : &d->counters[i];
        const unsigned char *w = rec + (is_f ? d->fcounters_offset + 8 * (i - d->ncounters)
                                             : d->counters_offset + 8 * i);
        struct diff_field *f;
        if (!(f = add(out, &cap)))
            return -1;
        snprintf(f->name, sizeof(f->name), "%s", c->name);
        if (c->kind == IOLENS_F64) {
            double v;
            memcpy(&v, w, sizeof(v));
            put_double(f->value, sizeof(f->value), v);
            f->timer = ends_with(c->name, "_TIME") || ends_with(c->name, "_TIMESTAMP");
        } else {
            int64_t v;
            memcpy(&v, w, sizeof(v));
            if (c->kind == IOLENS_U64)
                snprintf(f->value, sizeof(f->value), "%llu", (unsigned long long)v);
            else
                snprintf(f->value, sizeof(f->value), "%lld", (long long)v);
        }
    }
    return 0;
}

/* Width, bin count, then each bin's bytes written and read: the bins of two
 * records line up whatever their counts. All depend on when the I/O ran:
 * timers for --ignore-timers. */
static int heatmap_fields(const struct iolens_heatmap_record *r, struct diff_fields *out,
                          size_t cap)
{
    struct diff_field *f;
    if (!(f = add(out, &cap)))
        return -1;
    snprintf(f->name, sizeof(f->name), "HEATMAP_F_BIN_WIDTH_SECONDS");
    put_double(f->value, sizeof(f->value), r->bin_width_seconds);
    f->timer = 1;
    if (!(f = add(out, &cap)))
        return -1;
    snprintf(f->name, sizeof(f->name), "HEATMAP_NBINS");
    snprintf(f->value, sizeof(f->value), "%lld", (long long)r->nbins);
    f->timer = 1;
    for (int64_t k = 0; k < r->nbins; k++) {
        for (int read = 0; read < 2; read++) {
            const int64_t *bins =
                read ? iolens_heatmap_read_bins(r) : iolens_heatmap_write_bins(r);
            if (!(f = add(out, &cap)))
                return -1;
            snprintf(f->name, sizeof(f->name), "HEATMAP_%s_BIN_%lld", read ? "READ" : "WRITE",
                     (long long)k);
            snprintf(f->value, sizeof(f->value), "%lld", (long long)bins[k]);
            f->timer = 1;
        }
    }
    return 0;
}

static int dxt_fields(const struct iolens_dxt_record *r, struct diff_fields *out, size_t cap)
{
    struct diff_field *f;
    if (!(f = add(out, &cap)))
        return -1;
    snprintf(f->name, sizeof(f->name), "DXT_HOSTNAME");
    snprintf(f->value, sizeof(f->value), "%.*s", (int)sizeof(r->hostname), r->hostname);
    if (!(f = add(out, &cap)))
        return -1;
    snprintf(f->name, sizeof(f->name), "DXT_WRITE_COUNT");
    snprintf(f->value, sizeof(f->value), "%lld", (long long)r->write_count);
    if (!(f = add(out, &cap)))
        return -1;
    snprintf(f->name, sizeof(f->name), "DXT_READ_COUNT");
    snprintf(f->value, sizeof(f->value), "%lld", (long long)r->read_count);
    for (int64_t k = 0; k < r->write_count + r->read_count; k++) {
        const struct iolens_dxt_segment *s = &r->segments[k];
        int64_t idx = k < r->write_count ? k : k - r->write_count;
        const char *op = k < r->write_count ? "WRITE" : "READ";
        static const char *const parts[] = {"OFFSET", "LENGTH", "START_TIME", "END_TIME",
                                            "THREAD"};
        for (int p = 0; p < 5; p++) {
            if (!(f = add(out, &cap)))
                return -1;
            snprintf(f->name, sizeof(f->name), "DXT_%s_%lld_%s", op, (long long)idx, parts[p]);
            f->timer = p == 2 || p == 3;
            if (p == 0 || p == 1)
                snprintf(f->value, sizeof(f->value), "%lld",
                         (long long)(p == 0 ? s->offset : s->length));
            else if (p == 4)
                snprintf(f->value, sizeof(f->value), "%llu", (unsigned long long)s->thread_id);
            else
                put_double(f->value, sizeof(f->value), p == 2 ? s->start_time : s->end_time);
        }
    }
    return 0;
}

/* A record of a module diff knows no fields of: its bytes, 8 at a time. */
static int byte_fields(const struct iolens_module_desc *d, const void *rec,
                       struct diff_fields *out, size_t cap)
{
    size_t size = iolens_record_size(d, rec);
    const unsigned char *p = rec;
    for (size_t at = sizeof(struct iolens_record_base); at < size; at += 8) {
        struct diff_field *f;
        if (!(f = add(out, &cap)))
            return -1;
        snprintf(f->name, sizeof(f->name), "BYTES_%zu", at);
        size_t n = size - at < 8 ? size - at : 8, used = 0;
        for (size_t k = 0; k < n; k++)
            used += (size_t)snprintf(f->value + used, sizeof(f->value) - used, "%02x", p[at + k]);
    }
    return 0;
}

int diff_fields(const struct iolens_module_desc *d, const void *rec, struct diff_fields *out)
{
    int rc;
    out->v = NULL;
    out->n = 0;
    if (d->record_size)
        rc = table_fields(d, rec, out, 0);
    else if (d->id == IOLENS_MOD_HEATMAP)
        rc = heatmap_fields(rec, out, 0);
    else if (d->trace)
        rc = dxt_fields(rec, out, 0);
    else
        rc = byte_fields(d, rec, out, 0);
    if (rc != 0)
        diff_fields_free(out);
    return rc;
}

void diff_fields_free(struct diff_fields *f)
{
    free(f->v);
    f->v = NULL;
    f->n = 0;
}

int diff_rec_cmp(const struct diff_rec *a, const struct diff_rec *b)
{
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

static int cmp_rec(const void *a, const void *b)
{
    return diff_rec_cmp(a, b);
}

int diff_read(iolens_log *log, int m, struct diff_recs *out)
{
    const struct iolens_module_desc *d = iolens_module(m);
    size_t cap = 0;
    const void *rec;
    iolens_status st;

    out->v = NULL;
    out->n = 0;
    if (!d || !iolens_log_get_info(log)->mod_map[m].len)
        return 0;
    while ((st = iolens_log_next_record(log, m, &rec)) == IOLENS_OK) {
        size_t size = iolens_record_size(d, rec);
        void *copy = malloc(size);
        if (out->n == cap) {
            size_t more = cap ? 2 * cap : 256;
            struct diff_rec *v = realloc(out->v, more * sizeof(*v));
            if (!v) {
                free(copy);
                return -1;
            }
            out->v = v;
            cap = more;
        }
        if (!copy)
            return -1;
        memcpy(copy, rec, size);
        const struct iolens_record_base *b = rec;
        out->v[out->n++] = (struct diff_rec){b->id, b->rank, copy};
    }
    if (st != IOLENS_END)
        return -1;
    if (out->n)
        qsort(out->v, out->n, sizeof(*out->v), cmp_rec);
    return 0;
}

void diff_recs_free(struct diff_recs *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].rec);
    free(r->v);
    r->v = NULL;
    r->n = 0;
}
