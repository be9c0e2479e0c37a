/* iolens export: a log as one JSON document, CSV files (one per module) or a
 * Perfetto (Chrome trace-event) trace of its DXT segments and HEATMAP bins.
 * Each format reads the records once, one at a time. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "iolens/modules/dfs.h"

static const char export_usage[] =
    "usage: iolens export --format json|csv|perfetto [-o OUT] LOG\n"
    "\n"
    "Write what a log holds in a form other tools load (docs/export.md):\n"
    "  --format json      one JSON document: the job, mounts, names and every\n"
    "                     module's records with their counters by name, DXT\n"
    "                     segments included (schema: docs/export.schema.json)\n"
    "  --format csv       one file per module in the directory OUT (made if needed):\n"
    "                     MODULE.csv with a header row, one row per record (id, rank,\n"
    "                     name, then one column per counter), as pandas loads it;\n"
    "                     trace modules one row per segment, variable-size modules\n"
    "                     (HEATMAP, LUSTRE, MDHIM) one row per counter\n"
    "  --format perfetto  the DXT segments as Chrome trace events (pid = rank, one\n"
    "                     track per module and thread), HEATMAP bins as counter\n"
    "                     tracks: open the file in ui.perfetto.dev\n"
    "  -o, --output OUT   the file to write (json, perfetto; default: standard\n"
    "                     output) or the directory (csv, required)\n"
    "\n"
    "Records are streamed: memory holds the log's names, and for perfetto one\n"
    "rank's segments of one module at a time (they are sorted by time).\n"
    "Exit status: 0 when everything was written, 1 when the log could not be read\n"
    "or the output written, 2 for wrong usage.\n";

/* Write v in decimal (fprintf is slow for the millions of counters). */
static void put_u64(FILE *out, uint64_t v, int negative)
{
    char buf[24], *p = buf + sizeof(buf);
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (negative)
        *--p = '-';
    fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

void export_i64(FILE *out, int64_t v)
{
    put_u64(out, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

void export_u64(FILE *out, uint64_t v)
{
    put_u64(out, v, 0);
}

void export_double(FILE *out, double v, int json)
{
    char buf[40];
    if (!isfinite(v)) {
        fputs(json ? "null" : "", out);
        return;
    }
    /* The shortest of 15 or 17 significant digits that reads back exactly. */
    snprintf(buf, sizeof(buf), "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof(buf), "%.17g", v);
    fputs(buf, out);
}

void export_csv_field(FILE *out, const char *s)
{
    size_t len = strcspn(s, ",\"\r\n");
    if (!s[len]) {
        fwrite(s, 1, len, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void export_value_write(FILE *out, const struct export_value *v, int json)
{
    switch (v->kind) {
    case EXPORT_I64: export_i64(out, v->i); break;
    case EXPORT_U64: export_u64(out, v->u); break;
    case EXPORT_F64: export_double(out, v->f, json); break;
    case EXPORT_TEXT:
        if (json)
            cli_json_string(out, v->text);
        else
            export_csv_field(out, v->text);
        break;
    }
}

/* ---- a record's values ---- */

static int fixed_values(const struct iolens_module_desc *mod, const void *rec,
                        int (*fn)(const struct export_value *v, void *arg), void *arg)
{
    const unsigned char *p = rec;
    int rc = 0;
    /* Head words after id and rank are other records' ids (module.h); the
     * modules that have one (H5D, PNETCDF_VAR) call it the file's record id. */
    for (unsigned w = 2; w < mod->head_words && !rc; w++) {
        struct export_value v = {.name = "file_rec_id", .kind = EXPORT_U64};
        memcpy(&v.u, p + 8 * w, 8);
        rc = fn(&v, arg);
    }
    for (size_t i = 0; i < mod->ncounters && !rc; i++) {
        const struct iolens_counter *c = &mod->counters[i];
        struct export_value v = {.name = c->name};
        if (c->kind == IOLENS_U64) {
            v.kind = EXPORT_U64;
            memcpy(&v.u, p + mod->counters_offset + 8 * i, 8);
        } else {
            v.kind = EXPORT_I64;
            memcpy(&v.i, p + mod->counters_offset + 8 * i, 8);
        }
        rc = fn(&v, arg);
    }
    for (size_t i = 0; i < mod->nfcounters && !rc; i++) {
        struct export_value v = {.name = mod->fcounters[i].name, .kind = EXPORT_F64};
        memcpy(&v.f, p + mod->fcounters_offset + 8 * i, 8);
        rc = fn(&v, arg);
    }
    /* Trailing raw bytes are uuids (DAOS, DFS: pool, then container). */
    for (unsigned u = 0; u < mod->tail_bytes / 16u && !rc; u++) {
        static const char *const names[] = {"uuid_0", "uuid_1", "uuid_2", "uuid_3"};
        char text[IOLENS_UUID_TEXT_LEN + 1];
        if (u >= sizeof(names) / sizeof(names[0]))
            break;
        iolens_uuid_text(p + mod->record_size - mod->tail_bytes + 16 * u, text);
        struct export_value v = {.name = names[u], .kind = EXPORT_TEXT, .text = text};
        rc = fn(&v, arg);
    }
    return rc;
}

/* A printed counter line "MODULE\trank\tid\tCOUNTER\tVALUE\t..." as a value. */
static int line_value(char *line, int (*fn)(const struct export_value *v, void *arg), void *arg)
{
    char *field[5];
    for (int i = 0; i < 5; i++) {
        field[i] = line;
        line += strcspn(line, "\t");
        if (*line != '\t' && i < 4)
            return 0; /* not a counter line */
        if (*line)
            *line++ = '\0';
    }
    struct export_value v = {.name = field[3], .kind = EXPORT_TEXT, .text = field[4]};
    char *end;
    errno = 0;
    if (field[4][0] && field[4][strcspn(field[4], ".eEn")] == '\0') {
        v.i = strtoll(field[4], &end, 10);
        if (!*end && !errno)
            v.kind = EXPORT_I64;
    } else if (field[4][0]) {
        v.f = strtod(field[4], &end);
        if (!*end)
            v.kind = EXPORT_F64;
    }
    return fn(&v, arg);
}

/* Variable-size records have no counter table for all they hold: their
 * printer's lines are the source, as darshan-parser shows them. */
static int printed_values(const struct iolens_module_desc *mod, const void *rec,
                          struct export_scratch *s,
                          int (*fn)(const struct export_value *v, void *arg), void *arg)
{
    struct iolens_print_ctx ctx = {.name = "", .mnt_pt = "", .fs_type = ""};
    free(s->text);
    s->text = NULL;
    s->len = 0;
    FILE *mem = open_memstream(&s->text, &s->len);
    if (!mem)
        return -1;
    if (mod->print)
        mod->print(mem, rec, &ctx);
    else
        iolens_print_counters(mem, mod, rec, &ctx);
    if (fclose(mem) != 0)
        return -1;
    int rc = 0;
    for (char *line = s->text, *nl; !rc && line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        rc = line_value(line, fn, arg);
    }
    return rc;
}

int export_each_value(const struct iolens_module_desc *mod, const void *rec,
                      struct export_scratch *s,
                      int (*fn)(const struct export_value *v, void *arg), void *arg)
{
    return mod->record_size ? fixed_values(mod, rec, fn, arg)
                            : printed_values(mod, rec, s, fn, arg);
}

void export_scratch_free(struct export_scratch *s)
{
    free(s->text);
    s->text = NULL;
    s->len = 0;
}

/* ---- output ---- */

FILE *export_open_output(const struct export_ctx *ctx)
{
    if (!ctx->out || !strcmp(ctx->out, "-"))
        return stdout;
    FILE *f = fopen(ctx->out, "w");
    if (!f)
        cli_error(ctx->out, "cannot create: %s", strerror(errno));
    return f;
}

int export_close_output(const struct export_ctx *ctx, FILE *f)
{
    const char *what = f == stdout ? "stdout" : ctx->out;
    int bad = fflush(f) != 0 || ferror(f);
    if (f != stdout && fclose(f) != 0)
        bad = 1;
    return bad ? cli_error(what, "write failed: %s", strerror(errno)) : 0;
}

void export_discard_output(const struct export_ctx *ctx)
{
    struct stat st;
    /* Only a file export made: never a device or pipe given as -o. */
    if (ctx->out && strcmp(ctx->out, "-") && stat(ctx->out, &st) == 0 && S_ISREG(st.st_mode))
        unlink(ctx->out);
}

/* ---- the verb ---- */

int cli_export(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(const struct export_ctx *ctx);
    } formats[] = {
        {"csv", export_csv},
        {"json", export_json},
        {"perfetto", export_perfetto},
    };
    /* Sorted by name. */
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    struct export_ctx ctx = {0};
    int (*run)(const struct export_ctx *) = NULL;
    int c;

    optind = 1;
    while ((c = cli_getopt("export", argc, argv, ":f:o:", opts)) != -1) {
        switch (c) {
        case 'f':
            run = NULL;
            for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
                if (!strcmp(optarg, formats[i].name))
                    run = formats[i].run;
            if (!run)
                return cli_usage_error("export", "--format: unknown format '%s'", optarg);
            break;
        case 'o': ctx.out = optarg; break;
        default: return 2;
        }
    }
    if (!run)
        return cli_usage_error("export", "--format is required");
    if (argc - optind != 1)
        return cli_usage_error("export", argc == optind ? "no log given" : "one log at a time");
    if (run == export_csv && (!ctx.out || !strcmp(ctx.out, "-")))
        return cli_usage_error("export", "--format csv needs -o DIR");
    ctx.path = argv[optind];
    if (!(ctx.log = cli_open_log(ctx.path)))
        return 1;
    ctx.in = iolens_log_get_info(ctx.log);
    int rc = iolens_log_load_names(ctx.log) != IOLENS_OK
                 ? cli_error(ctx.path, "%s", iolens_log_error(ctx.log))
                 : run(&ctx);
    iolens_log_close(ctx.log);
    return rc;
}

const struct cli_verb cli_export_verb = {
    .name = "export",
    .summary = "write a log as JSON, CSV or a Perfetto trace",
    .usage = export_usage,
    .run = cli_export,
};
