/* The report's DXT timeline data: the lanes the page draws (at most
 * REPORT_MAX_LANES, the busiest), the rest added up as "others", the kept
 * segments and the names of their files (docs/report.md, "Timeline"). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "iolens/modules/dxt.h"
#include "report_data.h"

/* A time with microsecond detail however long the run (null if not finite). */
static void put_time(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.9g", v);
    else
        fputs("null", out);
}

struct lane_pick {
    const struct iolens_dxt_timeline *t;
    size_t *order;      /* lane indexes, drawn ones first */
    size_t ndrawn;
    int32_t *row;       /* lane index -> row on the page; the others' row for the rest */
};

static int busier_first(const void *a, const void *b, void *ctx)
{
    const struct iolens_dxt_timeline *sort_t = ctx;
    const struct iolens_dxt_lane *x = &sort_t->lanes[*(const size_t *)a];
    const struct iolens_dxt_lane *y = &sort_t->lanes[*(const size_t *)b];
    if (x->overflow != y->overflow) /* the overflow lane is never drawn as one */
        return x->overflow - y->overflow;
    if (x->busy != y->busy)
        return x->busy < y->busy ? 1 : -1;
    return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Drawn lanes in the order of the page: module, rank, then first seen. */
static int page_order(const void *a, const void *b, void *ctx)
{
    const struct iolens_dxt_timeline *sort_t = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const struct iolens_dxt_lane *x = &sort_t->lanes[i], *y = &sort_t->lanes[j];
    if (x->mod_id != y->mod_id)
        return x->mod_id - y->mod_id;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (i > j) - (i < j);
}

/* Choose the drawn lanes. @return 0, or -1 (no memory). */
static int pick_lanes(struct lane_pick *p, const struct iolens_dxt_timeline *t)
{
    p->t = t;
    p->order = malloc((t->nlanes + 1) * sizeof(*p->order));
    p->row = malloc((t->nlanes + 1) * sizeof(*p->row));
    if (!p->order || !p->row)
        return -1;
    for (size_t i = 0; i < t->nlanes; i++)
        p->order[i] = i;
    qsort_r(p->order, t->nlanes, sizeof(*p->order), busier_first, (void *)t);
    p->ndrawn = 0;
    while (p->ndrawn < t->nlanes && p->ndrawn < REPORT_MAX_LANES &&
           !t->lanes[p->order[p->ndrawn]].overflow)
        p->ndrawn++;
    qsort_r(p->order, p->ndrawn, sizeof(*p->order), page_order, (void *)t);
    for (size_t i = 0; i < t->nlanes; i++)
        p->row[p->order[i]] = (int32_t)(i < p->ndrawn ? i : p->ndrawn);
    return 0;
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct files of the kept segments, sorted. @return their number, or -1. */
static ssize_t file_ids(const struct iolens_dxt_timeline *t, uint64_t **out)
{
    uint64_t *ids = malloc((t->nsamples + 1) * sizeof(*ids));
    size_t n = 0;
    if (!ids)
        return -1;
    for (size_t i = 0; i < t->nsamples; i++)
        ids[i] = t->samples[i].file;
    qsort(ids, t->nsamples, sizeof(*ids), by_id);
    for (size_t i = 0; i < t->nsamples; i++)
        if (n == 0 || ids[n - 1] != ids[i])
            ids[n++] = ids[i];
    *out = ids;
    return (ssize_t)n;
}

static void write_lane(FILE *out, const struct iolens_dxt_lane *l, size_t first_seen)
{
    char thread[24] = "N/A";
    if (l->thread_id != IOLENS_DXT_NO_THREAD)
        snprintf(thread, sizeof(thread), "%" PRIu64, l->thread_id);
    fputc('[', out);
    cli_json_string(out, iolens_module_name(l->mod_id));
    fprintf(out, ",%" PRId64 ",\"%s\",%zu,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
            ",%" PRId64 ",", l->rank, thread, first_seen, l->segments, l->reads, l->writes,
            l->bytes_read, l->bytes_written);
    put_time(out, l->busy);
    fprintf(out, ",%" PRId64 ",%" PRId64 "]", l->stride, l->shown);
}

/* What the lanes not drawn add up to. */
static void write_others(FILE *out, const struct lane_pick *p)
{
    int64_t lanes = 0, segments = 0, bytes = 0, shown = 0, overflow = 0;
    double busy = 0;
    for (size_t i = p->ndrawn; i < p->t->nlanes; i++) {
        const struct iolens_dxt_lane *l = &p->t->lanes[p->order[i]];
        lanes++;
        overflow += l->overflow;
        segments += l->segments;
        bytes += l->bytes_read + l->bytes_written;
        busy += l->busy;
        shown += l->shown;
    }
    fprintf(out, "{\"lanes\":%" PRId64 ",\"overflow\":%" PRId64 ",\"segments\":%" PRId64
            ",\"bytes\":%" PRId64 ",\"shown\":%" PRId64 ",\"busy\":",
            lanes, overflow, segments, bytes, shown);
    put_time(out, busy);
    fputc('}', out);
}

static void write_segments(FILE *out, const struct lane_pick *p, const uint64_t *ids, size_t nids)
{
    const struct iolens_dxt_timeline *t = p->t;
    report_key(out, "seg", 0);
    fputc('[', out);
    for (size_t i = 0; i < t->nsamples; i++) {
        const struct iolens_dxt_sample *s = &t->samples[i];
        const uint64_t *f = bsearch(&s->file, ids, nids, sizeof(*ids), by_id);
        fprintf(out, "%s[%d,%td,%d,%" PRId64 ",%" PRId64 ",", i ? "," : "", p->row[s->lane],
                f - ids, s->write, s->offset, s->length);
        put_time(out, s->start);
        fputc(',', out);
        put_time(out, s->end);
        fputc(']', out);
    }
    fputc(']', out);
}

int report_write_dxt(FILE *out, const struct report_input *in)
{
    const struct iolens_dxt_timeline *t = in->dxt;
    struct lane_pick p = {0};
    uint64_t *ids = NULL;
    ssize_t nids = -1;
    int rc = -1;

    if (t && t->present && (pick_lanes(&p, t) < 0 || (nids = file_ids(t, &ids)) < 0 ||
                            iolens_log_load_names_of(in->log, ids, (size_t)nids) != IOLENS_OK))
        goto done;
    report_key(out, "dxt", 0);
    if (!t || !t->present) {
        fputs("null", out);
        return 0;
    }
    fprintf(out, "{\"partial\":%d,\"segments\":%" PRId64 ",\"shown\":%zu,\"max_segments\":%zu"
            ",\"max_slowest\":%zu,\"lane_limit\":%" PRId64 ",\"lanes_total\":%zu,\"max_lanes\":%d",
            t->partial, t->segments, t->nsamples, t->max_segments, t->max_slowest, t->lane_limit,
            t->nlanes, REPORT_MAX_LANES);
    report_key(out, "lanes", 0);
    fputc('[', out);
    for (size_t i = 0; i < p.ndrawn; i++) {
        if (i)
            fputc(',', out);
        write_lane(out, &t->lanes[p.order[i]], p.order[i]);
    }
    fputc(']', out);
    report_key(out, "others", 0);
    write_others(out, &p);
    report_key(out, "files", 0);
    fputc('[', out);
    for (ssize_t i = 0; i < nids; i++) {
        const char *name = iolens_log_name(in->log, ids[i]);
        if (i)
            fputc(',', out);
        cli_json_string(out, name ? name : "<unknown>");
    }
    fputc(']', out);
    write_segments(out, &p, ids, (size_t)nids);
    fputc('}', out);
    rc = 0;
done:
    free(ids);
    free(p.order);
    free(p.row);
    return rc;
}
