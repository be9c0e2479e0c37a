/* iolens export --format json: the whole log as one JSON document, written
 * as the records are read (docs/export.md; schema docs/export.schema.json). */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "iolens/modules/dxt.h"

/* Version of the document's layout, raised when a member changes meaning. */
#define EXPORT_JSON_VERSION 1

static const char *compression_name(iolens_compression c)
{
    switch (c) {
    case IOLENS_COMP_ZLIB: return "zlib";
    case IOLENS_COMP_BZIP2: return "bzip2";
    case IOLENS_COMP_NONE: return "none";
    case IOLENS_COMP_ZSTD: return "zstd";
    }
    return "unknown";
}

/* Is the key of the metadata line at line (len bytes to '=') one of an
 * earlier line's? JSON objects should not repeat a key. */
static int key_seen(const char *metadata, const char *line, size_t klen)
{
    for (const char *p = metadata; p < line;) {
        size_t len = strcspn(p, "\n");
        if (len > klen && p[klen] == '=' && !strncmp(p, line, klen))
            return 1;
        p += len + (p[len] == '\n');
    }
    return 0;
}

static void put_metadata(FILE *out, const char *metadata)
{
    int first = 1;
    fputs("{", out);
    for (const char *p = metadata; *p;) {
        size_t len = strcspn(p, "\n");
        const char *eq = memchr(p, '=', len);
        if (eq && !key_seen(metadata, p, (size_t)(eq - p))) {
            char key[1024], val[1024];
            snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
            snprintf(val, sizeof(val), "%.*s", (int)(len - (size_t)(eq - p) - 1), eq + 1);
            fputs(first ? "" : ",", out);
            cli_json_string(out, key);
            fputc(':', out);
            cli_json_string(out, val);
            first = 0;
        }
        p += len + (p[len] == '\n');
    }
    fputs("}", out);
}

static void put_head(FILE *out, const struct iolens_log_info *in)
{
    const struct iolens_job *j = &in->job;
    fprintf(out, "{\"iolens_export\":%d,\n\"log\":{\"version\":", EXPORT_JSON_VERSION);
    cli_json_string(out, in->version);
    fprintf(out, ",\"compression\":\"%s\",\"partial_modules\":[", compression_name(in->compression));
    for (int id = 0, n = 0; id < IOLENS_MAX_MODS; id++) {
        if (!((in->partial_flags >> id) & 1))
            continue;
        fputs(n++ ? "," : "", out);
        if (iolens_module_name(id))
            cli_json_string(out, iolens_module_name(id));
        else
            fprintf(out, "\"module %d\"", id);
    }
    fprintf(out, "]},\n\"job\":{\"uid\":%" PRId64 ",\"jobid\":%" PRId64 ",\"nprocs\":%" PRId64
                 ",\"start_time_sec\":%" PRId64 ",\"start_time_nsec\":%" PRId64
                 ",\"end_time_sec\":%" PRId64 ",\"end_time_nsec\":%" PRId64 ",\"run_time\":",
            j->uid, j->jobid, j->nprocs, j->start_time_sec, j->start_time_nsec, j->end_time_sec,
            j->end_time_nsec);
    export_double(out, iolens_log_run_time(in), 1);
    fputs(",\"exe\":", out);
    cli_json_string(out, in->exe);
    fputs(",\"metadata\":", out);
    put_metadata(out, j->metadata);
    fputs("},\n\"mounts\":[", out);
    for (size_t i = 0; i < in->nmounts; i++) {
        fputs(i ? ",\n{\"path\":" : "\n{\"path\":", out);
        cli_json_string(out, in->mounts[i].path);
        fputs(",\"type\":", out);
        cli_json_string(out, in->mounts[i].type);
        fputc('}', out);
    }
    fputs("],\n", out);
}

struct value_list {
    FILE *out;
    int n;
};

static int put_name(uint64_t id, const char *name, void *arg)
{
    struct value_list *l = arg;
    fprintf(l->out, "%s{\"id\":%" PRIu64 ",\"name\":", l->n++ ? ",\n" : "\n", id);
    cli_json_string(l->out, name);
    fputc('}', l->out);
    return 0;
}

static void put_names(FILE *out, const iolens_log *log)
{
    struct value_list l = {out, 0};
    fputs("\"names\":[", out);
    iolens_log_each_name(log, put_name, &l);
    fputs("],\n", out);
}

static int put_value(const struct export_value *v, void *arg)
{
    struct value_list *l = arg;
    fputs(l->n++ ? "," : "", l->out);
    cli_json_string(l->out, v->name);
    fputc(':', l->out);
    export_value_write(l->out, v, 1);
    return 0;
}

static void put_segments(FILE *out, const struct iolens_dxt_record *d)
{
    int64_t n = d->write_count + d->read_count;
    char host[IOLENS_DXT_HOSTNAME_SIZE + 1];
    snprintf(host, sizeof(host), "%.*s", IOLENS_DXT_HOSTNAME_SIZE, d->hostname);
    fputs(",\"hostname\":", out);
    cli_json_string(out, host);
    fprintf(out, ",\"shared_record\":%" PRId64 ",\"write_count\":%" PRId64
                 ",\"read_count\":%" PRId64 ",\"segments\":[",
            d->shared_record, d->write_count, d->read_count);
    for (int64_t i = 0; i < n; i++) {
        const struct iolens_dxt_segment *s = &d->segments[i];
        fprintf(out, "%s{\"op\":\"%s\",\"offset\":%" PRId64 ",\"length\":%" PRId64
                     ",\"start_time\":",
                i ? ",\n" : "\n", i < d->write_count ? "write" : "read", s->offset, s->length);
        export_double(out, s->start_time, 1);
        fputs(",\"end_time\":", out);
        export_double(out, s->end_time, 1);
        if (s->thread_id == IOLENS_DXT_NO_THREAD)
            fputs(",\"thread\":null}", out);
        else
            fprintf(out, ",\"thread\":%" PRIu64 "}", s->thread_id);
    }
    fputc(']', out);
}

/* One module's object. @return 0, or 1 after printing the reason. */
static int put_module(FILE *out, const struct export_ctx *ctx, int id, int first,
                      struct export_scratch *s)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    const void *rec;
    iolens_status st;
    long n = 0;

    fprintf(out, "%s{\"id\":%d,\"name\":", first ? "\n" : ",\n", id);
    cli_json_string(out, mod->name);
    fprintf(out, ",\"version\":%u,\"log_version\":%u,\"partial\":%s,\"records\":[", mod->version,
            ctx->in->mod_ver[id], (ctx->in->partial_flags >> id) & 1 ? "true" : "false");
    while ((st = iolens_log_next_record(ctx->log, id, &rec)) == IOLENS_OK) {
        struct iolens_record_base b;
        memcpy(&b, rec, sizeof(b));
        fputs(n++ ? ",\n{\"id\":" : "\n{\"id\":", out);
        export_u64(out, b.id);
        fputs(",\"rank\":", out);
        export_i64(out, b.rank);
        if (mod->trace) {
            put_segments(out, rec);
        } else {
            struct value_list l = {out, 0};
            fputs(",\"counters\":{", out);
            if (export_each_value(mod, rec, s, put_value, &l) < 0)
                return cli_error(ctx->path, "out of memory");
            fputc('}', out);
        }
        fputc('}', out);
    }
    if (st != IOLENS_END)
        return cli_error(ctx->path, "%s", iolens_log_error(ctx->log));
    fputs("]}", out);
    return 0;
}

int export_json(const struct export_ctx *ctx)
{
    struct export_scratch scratch = {0};
    FILE *out = export_open_output(ctx);
    int rc = 0, first = 1;

    if (!out)
        return 1;
    put_head(out, ctx->in);
    put_names(out, ctx->log);
    fputs("\"modules\":[", out);
    for (int id = 0; id < IOLENS_MAX_MODS && !rc; id++) {
        if (!cli_module_kept(ctx->in, id))
            continue;
        rc = put_module(out, ctx, id, first, &scratch);
        first = 0;
    }
    fputs("]}\n", out);
    export_scratch_free(&scratch);
    if (export_close_output(ctx, out))
        rc = 1;
    if (rc)
        export_discard_output(ctx); /* no half document left behind */
    return rc;
}
