/* iolens export --format perfetto: DXT segments as Chrome trace events
 * ("X": a slice per read or write), HEATMAP bins as counter events ("C"),
 * in the JSON form ui.perfetto.dev and chrome://tracing open.
 *
 * pid is the rank; each trace module's thread of a rank is one track (tid),
 * named "<module> thread <id>". A track's slices must come in time order, but
 * a DXT record lists one file's writes, then its reads, and a rank has one
 * record per file: the segments of one rank and module are gathered, sorted
 * and written when the next rank's records begin. Logs hold each rank's
 * records together, so memory holds one rank's trace of one module (which
 * the runtime bounds per process), not the log's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "iolens/modules/dxt.h"
#include "iolens/modules/heatmap.h"

/* One segment waiting to be written. */
struct slice {
    double start, end;
    int64_t offset, length;
    uint64_t thread;
    uint64_t file; /* record id */
    size_t seq;    /* order read, to keep the sort stable */
    int write;
};

/* The segments of one module and rank, and the trace's state. */
struct trace_out {
    FILE *f;
    const struct export_ctx *ctx;
    struct slice *v;
    size_t n, alloc;
    int64_t rank;
    int nevents;    /* events written, for the commas */
    long next_tid;  /* tids are unique in the whole trace */
};

static int by_thread_time(const void *a, const void *b)
{
    const struct slice *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static void begin_event(struct trace_out *t)
{
    fputs(t->nevents++ ? ",\n" : "\n", t->f);
}

static void put_process_name(struct trace_out *t, int64_t rank)
{
    begin_event(t);
    fprintf(t->f, "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"name\":\"process_name\","
                  "\"args\":{\"name\":\"rank %" PRId64 "\"}}", rank, rank);
}

static void put_thread_name(struct trace_out *t, const char *mod, int64_t rank, long tid,
                            uint64_t thread)
{
    begin_event(t);
    fprintf(t->f, "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%ld,\"name\":\"thread_name\","
                  "\"args\":{\"name\":\"%s thread ", rank, tid, mod);
    if (thread == IOLENS_DXT_NO_THREAD)
        fputs("N/A\"}}", t->f);
    else
        fprintf(t->f, "%#" PRIx64 "\"}}", thread);
}

/* Seconds since the job's start as the format's microseconds. */
static void put_us(FILE *f, double seconds)
{
    fprintf(f, "%.3f", seconds * 1e6);
}

/* Sort and write the gathered segments of module mod and rank t->rank. */
static void flush_rank(struct trace_out *t, const struct iolens_module_desc *mod)
{
    long tid = 0;
    if (t->n == 0)
        return;
    qsort(t->v, t->n, sizeof(*t->v), by_thread_time);
    put_process_name(t, t->rank);
    for (size_t i = 0; i < t->n; i++) {
        const struct slice *s = &t->v[i];
        if (i == 0 || s->thread != t->v[i - 1].thread) {
            tid = ++t->next_tid;
            put_thread_name(t, mod->name, t->rank, tid, s->thread);
        }
        begin_event(t);
        fprintf(t->f, "{\"ph\":\"X\",\"pid\":%" PRId64 ",\"tid\":%ld,\"ts\":", t->rank, tid);
        put_us(t->f, s->start);
        fputs(",\"dur\":", t->f);
        put_us(t->f, s->end > s->start ? s->end - s->start : 0);
        fprintf(t->f, ",\"name\":\"%s\",\"cat\":\"%s\",\"args\":{\"file\":",
                s->write ? "write" : "read", mod->name);
        const char *name = iolens_log_name(t->ctx->log, s->file);
        cli_json_string(t->f, name ? name : "");
        fprintf(t->f, ",\"offset\":%" PRId64 ",\"length\":%" PRId64 "}}", s->offset, s->length);
    }
    t->n = 0;
}

/* Gather one DXT record's segments. @return 0, or -1 when out of memory. */
static int add_record(struct trace_out *t, const struct iolens_dxt_record *d)
{
    size_t n = (size_t)(d->write_count + d->read_count);
    if (t->n + n > t->alloc) {
        size_t want = t->alloc ? t->alloc : 4096;
        while (want < t->n + n)
            want *= 2;
        struct slice *p = realloc(t->v, want * sizeof(*p));
        if (!p)
            return -1;
        t->v = p;
        t->alloc = want;
    }
    for (size_t i = 0; i < n; i++) {
        const struct iolens_dxt_segment *s = &d->segments[i];
        t->v[t->n] = (struct slice){s->start_time, s->end_time, s->offset, s->length,
                                    s->thread_id, d->base.id, t->n, (int64_t)i < d->write_count};
        t->n++;
    }
    return 0;
}

/* Every record of a trace module. @return 0, or 1 after printing the reason. */
static int put_trace_module(struct trace_out *t, const struct iolens_module_desc *mod)
{
    const void *rec;
    iolens_status st;
    t->n = 0;
    while ((st = iolens_log_next_record(t->ctx->log, mod->id, &rec)) == IOLENS_OK) {
        const struct iolens_dxt_record *d = rec;
        if (t->n && d->base.rank != t->rank)
            flush_rank(t, mod);
        t->rank = d->base.rank;
        if (add_record(t, d))
            return cli_error(t->ctx->path, "out of memory");
    }
    flush_rank(t, mod);
    return st == IOLENS_END ? 0 : cli_error(t->ctx->path, "%s", iolens_log_error(t->ctx->log));
}

/* HEATMAP records: one counter track per record (rank and interface), with
 * the bytes written and read in each bin. @return 0 or 1. */
static int put_heatmap(struct trace_out *t)
{
    const void *rec;
    iolens_status st;
    while ((st = iolens_log_next_record(t->ctx->log, IOLENS_MOD_HEATMAP, &rec)) == IOLENS_OK) {
        const struct iolens_heatmap_record *h = rec;
        const int64_t *w = iolens_heatmap_write_bins(h), *r = iolens_heatmap_read_bins(h);
        const char *name = iolens_log_name(t->ctx->log, h->base.id);
        put_process_name(t, h->base.rank);
        for (int64_t i = 0; i < h->nbins; i++) {
            begin_event(t);
            fprintf(t->f, "{\"ph\":\"C\",\"pid\":%" PRId64 ",\"name\":", h->base.rank);
            cli_json_string(t->f, name ? name : "heatmap");
            fputs(",\"ts\":", t->f);
            put_us(t->f, (double)i * h->bin_width_seconds);
            fprintf(t->f, ",\"args\":{\"write_bytes\":%" PRId64 ",\"read_bytes\":%" PRId64 "}}",
                    w[i], r[i]);
        }
    }
    return st == IOLENS_END ? 0 : cli_error(t->ctx->path, "%s", iolens_log_error(t->ctx->log));
}

int export_perfetto(const struct export_ctx *ctx)
{
    struct trace_out t = {.ctx = ctx};
    int rc = 0;

    if (!(t.f = export_open_output(ctx)))
        return 1;
    fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", t.f);
    for (int id = 0; id < IOLENS_MAX_MODS && !rc; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        if (ctx->in->mod_map[id].len == 0 || !mod)
            continue;
        if (mod->trace)
            rc = put_trace_module(&t, mod);
        else if (id == IOLENS_MOD_HEATMAP)
            rc = put_heatmap(&t);
    }
    fputs("\n]}\n", t.f);
    free(t.v);
    if (export_close_output(ctx, t.f))
        rc = 1;
    if (rc)
        export_discard_output(ctx);
    return rc;
}
