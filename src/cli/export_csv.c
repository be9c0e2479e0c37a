/* iolens export --format csv: one CSV file per module in a directory, with
 * a header row, written as the records are read. Fixed-size modules: one row
 * per record and one column per counter (PyDarshan's record dataframes, both
 * counter tables side by side); trace modules: one row per segment;
 * variable-size modules: one row per counter ("long" form). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "iolens/modules/dxt.h"

/* One module's file. */
struct csv_file {
    FILE *f;
    const struct export_ctx *ctx;
    const struct iolens_module_desc *mod;
    uint64_t id;      /* the record being written (long form) */
    int64_t rank;
    const char *name;
};

/* The columns every row starts with. */
static void put_key(struct csv_file *c, uint64_t id, int64_t rank, const char *name)
{
    export_u64(c->f, id);
    putc(',', c->f);
    export_i64(c->f, rank);
    putc(',', c->f);
    export_csv_field(c->f, name ? name : "");
}

static int put_header_cell(const struct export_value *v, void *arg)
{
    struct csv_file *c = arg;
    fputc(',', c->f);
    export_csv_field(c->f, v->name);
    return 0;
}

static int put_cell(const struct export_value *v, void *arg)
{
    struct csv_file *c = arg;
    putc(',', c->f);
    export_value_write(c->f, v, 0);
    return 0;
}

/* Long form: the row of one counter. */
static int put_long_row(const struct export_value *v, void *arg)
{
    struct csv_file *c = arg;
    put_key(c, c->id, c->rank, c->name);
    fputc(',', c->f);
    export_csv_field(c->f, v->name);
    fputc(',', c->f);
    export_value_write(c->f, v, 0);
    fputc('\n', c->f);
    return 0;
}

static void put_segments(struct csv_file *c, const struct iolens_dxt_record *d, const char *name)
{
    char host[IOLENS_DXT_HOSTNAME_SIZE + 1];
    snprintf(host, sizeof(host), "%.*s", IOLENS_DXT_HOSTNAME_SIZE, d->hostname);
    for (int64_t i = 0; i < d->write_count + d->read_count; i++) {
        const struct iolens_dxt_segment *s = &d->segments[i];
        put_key(c, d->base.id, d->base.rank, name);
        fputc(',', c->f);
        export_csv_field(c->f, host);
        fprintf(c->f, ",%s,%" PRId64 ",%" PRId64 ",", i < d->write_count ? "write" : "read",
                s->offset, s->length);
        export_double(c->f, s->start_time, 0);
        fputc(',', c->f);
        export_double(c->f, s->end_time, 0);
        if (s->thread_id == IOLENS_DXT_NO_THREAD)
            fputs(",\n", c->f);
        else
            fprintf(c->f, ",%" PRIu64 "\n", s->thread_id);
    }
}

/* The header row; a fixed-size module's columns come from a zeroed record. */
static int put_header(struct csv_file *c, struct export_scratch *s)
{
    fputs("id,rank,name", c->f);
    if (c->mod->trace) {
        fputs(",hostname,op,offset,length,start_time,end_time,thread\n", c->f);
        return 0;
    }
    if (!c->mod->record_size) {
        fputs(",counter,value\n", c->f);
        return 0;
    }
    void *zero = calloc(1, c->mod->record_size);
    if (!zero)
        return -1;
    int rc = export_each_value(c->mod, zero, s, put_header_cell, c);
    free(zero);
    fputc('\n', c->f);
    return rc;
}

/* "MPI-IO.csv", "BG_Q.csv": the module's name, made a file name. */
static int file_path(const struct export_ctx *ctx, const char *mod_name, char *path, size_t len)
{
    int n = snprintf(path, len, "%s/%s.csv", ctx->out, mod_name);
    if (n < 0 || (size_t)n >= len)
        return -1;
    for (char *p = path + strlen(ctx->out) + 1; *p; p++)
        if (*p == '/')
            *p = '_';
    return 0;
}

/* Write one module's file. @return 0, or 1 after printing the reason. */
static int put_module(const struct export_ctx *ctx, int id, struct export_scratch *s)
{
    struct csv_file c = {.ctx = ctx, .mod = iolens_module(id)};
    const void *rec;
    iolens_status st;
    char path[4096];
    int rc = 0;

    if (file_path(ctx, c.mod->name, path, sizeof(path)))
        return cli_error(ctx->out, "path too long");
    if (!(c.f = fopen(path, "w")))
        return cli_error(path, "cannot create: %s", strerror(errno));
    if (put_header(&c, s)) {
        rc = cli_error(ctx->path, "out of memory");
        goto done;
    }
    while ((st = iolens_log_next_record(ctx->log, id, &rec)) == IOLENS_OK) {
        struct iolens_record_base b;
        memcpy(&b, rec, sizeof(b));
        const char *name = iolens_log_name(ctx->log, b.id);
        if (c.mod->trace) {
            put_segments(&c, rec, name);
            continue;
        }
        if (c.mod->record_size) {
            put_key(&c, b.id, b.rank, name);
            export_each_value(c.mod, rec, s, put_cell, &c);
            fputc('\n', c.f);
            continue;
        }
        c.id = b.id;
        c.rank = b.rank;
        c.name = name;
        if (export_each_value(c.mod, rec, s, put_long_row, &c) < 0) {
            rc = cli_error(ctx->path, "out of memory");
            goto done;
        }
    }
    if (st != IOLENS_END)
        rc = cli_error(ctx->path, "%s", iolens_log_error(ctx->log));
done:
    if ((fflush(c.f) != 0 || ferror(c.f) || fclose(c.f) != 0) && !rc)
        rc = cli_error(path, "write failed: %s", strerror(errno));
    if (rc)
        unlink(path);
    else
        printf("%s\n", path);
    return rc;
}

int export_csv(const struct export_ctx *ctx)
{
    struct export_scratch scratch = {0};
    struct stat st;
    int rc = 0;

    if (mkdir(ctx->out, 0777) != 0 && !(errno == EEXIST && stat(ctx->out, &st) == 0 &&
                                        S_ISDIR(st.st_mode)))
        return cli_error(ctx->out, "cannot make the directory: %s",
                         errno == EEXIST ? "a file of that name exists" : strerror(errno));
    for (int id = 0; id < IOLENS_MAX_MODS && !rc; id++) {
        if (!cli_module_kept(ctx->in, id))
            continue;
        rc = put_module(ctx, id, &scratch);
    }
    export_scratch_free(&scratch);
    return rc;
}
