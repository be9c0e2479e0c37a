/* iolens insights: what a log says about the job's I/O and what to change
 * (docs/insights.md). The log library builds the job summary in one pass and
 * applies the rules (include/iolens/analysis.h); this verb reads the
 * thresholds given and prints the findings, for people or as JSON. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callsites.h"
#include "cli.h"
#include "iolens/analysis.h"

/* Largest thresholds file read (it holds a few dozen lines). */
#define THRESHOLDS_FILE_MAX (1 << 20)

/* ---- text ---- */

/* One evidence figure as people read it. */
static void print_value(FILE *out, const struct iolens_evidence *e)
{
    switch (e->kind) {
    case IOLENS_EV_COUNT: fprintf(out, "%.0f", e->value); break;
    case IOLENS_EV_SHARE: fprintf(out, "%.1f%%", 100 * e->value); break;
    case IOLENS_EV_BYTES: fprintf(out, "%.0f bytes", e->value); break;
    case IOLENS_EV_SECONDS: fprintf(out, "%.3g s", e->value); break;
    case IOLENS_EV_TEXT: fputs(e->text, out); break;
    }
}

static void print_text(FILE *out, const char *path, const struct iolens_summary *s,
                       const struct iolens_finding *f, size_t n)
{
    size_t count[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        count[f[i].severity]++;
    if (n == 0) {
        fprintf(out, "%s: no findings\n", path);
        return;
    }
    fprintf(out, "%s: %zu finding%s (%zu high, %zu warn, %zu info)\n", path, n, n > 1 ? "s" : "",
            count[IOLENS_SEV_HIGH], count[IOLENS_SEV_WARN], count[IOLENS_SEV_INFO]);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "\n%-4s %s: %s\n", iolens_severity_name(f[i].severity), f[i].rule->id,
                f[i].summary);
        fputs("     evidence:", out);
        for (size_t e = 0; e < f[i].nevidence; e++) {
            fprintf(out, "%s %s ", e ? "," : "", f[i].evidence[e].key);
            print_value(out, &f[i].evidence[e]);
        }
        fputc('\n', out);
        for (size_t k = 0; k < f[i].nfiles; k++)
            fprintf(out, "     file: %s (%s %.6g)\n", f[i].files[k].name, f[i].files[k].figure,
                    f[i].files[k].value);
        if (f[i].more_files)
            fprintf(out, "     and %lld more file(s)\n", (long long)f[i].more_files);
        if (f[i].nranks) {
            fputs("     ranks:", out);
            for (size_t k = 0; k < f[i].nranks; k++)
                fprintf(out, " %lld", (long long)f[i].ranks[k]);
            fputc('\n', out);
        }
        struct cli_rec_line rec[4];
        size_t nrec = cli_recommendations(&f[i], s, rec);
        for (size_t k = 0; k < nrec; k++)
            fprintf(out, "     fix (%s): %s\n", rec[k].iface, rec[k].text);
    }
}

/* ---- JSON ---- */

static void print_json(FILE *out, const char *path, const struct iolens_summary *s,
                       const struct iolens_finding *f, size_t n)
{
    fputs("{\"log\": ", out);
    cli_json_string(out, path);
    fprintf(out, ", \"nprocs\": %lld, \"run_time\": ", (long long)s->nprocs);
    cli_json_number(out, s->run_time);
    fputs(", \"findings\": [", out);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        cli_json_finding(out, s, &f[i]);
    }
    fputs(n ? "\n]}\n" : "]}\n", out);
}

/* ---- the rule and threshold tables (docs/insights.md shows them) ---- */

static void print_tables(FILE *out)
{
    const struct iolens_rule_info *r;
    const struct iolens_threshold_info *t;
    size_t nt = iolens_insight_thresholds(&t);
    fputs("| id | severity | detects |\n| --- | --- | --- |\n", out);
    for (size_t i = 0; (r = iolens_insight_rule(i)); i++)
        fprintf(out, "| `%s` | %s | %s |\n", r->id, iolens_severity_name(r->severity), r->meaning);
    fputs("\n| threshold | default | unit | source | meaning |\n| --- | --- | --- | --- | --- |\n",
          out);
    for (size_t i = 0; i < nt; i++)
        fprintf(out, "| `%s` | %.10g | %s | %s | %s |\n", t[i].key, t[i].value, t[i].unit,
                t[i].source, t[i].meaning);
    fputs("\n| id | POSIX | STDIO | MPI-IO | HDF5 |\n| --- | --- | --- | --- | --- |\n", out);
    for (size_t i = 0; (r = iolens_insight_rule(i)); i++) {
        const char *rec[4] = {r->rec_posix, r->rec_stdio, r->rec_mpiio, r->rec_hdf5};
        fprintf(out, "| `%s` |", r->id);
        for (int k = 0; k < 4; k++)
            fprintf(out, " %s |", rec[k] ? rec[k] : "-");
        fputc('\n', out);
    }
}

/* ---- the verb ---- */

/* Read the thresholds file at path into c. @return 0, or 2 after the error. */
static int read_thresholds(iolens_insight_config *c, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_usage_error("insights", "%s: %s", path, strerror(errno));
    char *text = malloc(THRESHOLDS_FILE_MAX);
    size_t len = text ? fread(text, 1, THRESHOLDS_FILE_MAX, f) : 0;
    int bad = !text || ferror(f) || len == THRESHOLDS_FILE_MAX;
    fclose(f);
    char why[256];
    int rc = 0;
    if (bad)
        rc = cli_usage_error("insights", "%s: cannot read it (or larger than 1 MiB)", path);
    else if (iolens_insight_config_parse(c, text, len, why, sizeof(why)) != IOLENS_OK)
        rc = cli_usage_error("insights", "%s: %s", path, why);
    free(text);
    return rc;
}

struct insights_args {
    const iolens_insight_config *config;
    int json;
};

static int insights_one(const char *path, void *arg)
{
    const struct insights_args *a = arg;
    iolens_log *log = cli_open_log(path);
    struct iolens_summary *s = NULL;
    struct iolens_finding *f = NULL;
    size_t n = 0;
    if (!log)
        return 1;
    iolens_status st = iolens_summary_build(log, NULL, &s);
    if (st == IOLENS_OK)
        st = iolens_insights(s, a->config, &f, &n);
    int rc = 0;
    if (st != IOLENS_OK) {
        const char *why = iolens_log_error(log);
        rc = cli_error(path, "%s", why[0] ? why : iolens_strerror(st));
    } else if (a->json) {
        print_json(stdout, path, s, f, n);
    } else {
        print_text(stdout, path, s, f, n);
        cs_print_top(stdout, path, 5);
    }
    iolens_findings_free(f);
    iolens_summary_free(s);
    iolens_log_close(log);
    return rc;
}

static const char insights_usage[] =
    "usage: iolens insights [--json] [--thresholds FILE] [--set KEY=VALUE]... LOG\n"
    "       iolens insights --list\n"
    "\n"
    "Say what a log shows about the job's I/O (small, misaligned or random\n"
    "accesses, data read again, imbalance across ranks, one rank doing all the\n"
    "I/O, metadata, independent MPI-IO, STDIO for bulk data, many small files,\n"
    "a partial log) and what to change; docs/insights.md describes every rule.\n"
    "  --json              one JSON object: {\"findings\": [{\"id\", \"severity\",\n"
    "                      \"evidence\", \"recommendation\", ...}]}\n"
    "  --thresholds FILE   thresholds from FILE, 'KEY = VALUE' lines ('#' comments)\n"
    "  --set KEY=VALUE     one threshold (after the file's, in order given)\n"
    "  --list              print the rules and thresholds with their defaults\n"
    "\n"
    "Exit status: 0 when the log was analysed (with findings or not), 1 when it\n"
    "could not be read, 2 for wrong usage (a bad option or threshold).\n";

int cli_insights(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"list", no_argument, NULL, 'l'},
        {"set", required_argument, NULL, 's'},
        {"thresholds", required_argument, NULL, 't'},
        {NULL, 0, NULL, 0},
    };
    struct insights_args a = {NULL, 0};
    iolens_insight_config *config = iolens_insight_config_new();
    const char *file = NULL;
    char **sets = calloc((size_t)argc, sizeof(*sets));
    int nsets = 0, list = 0, rc = 0, c;
    char why[256];

    if (!config || !sets) {
        rc = cli_say("out of memory");
        goto done;
    }
    optind = 1;
    while ((c = cli_getopt("insights", argc, argv, ":", opts)) != -1) {
        switch (c) {
        case 'j': a.json = 1; break;
        case 'l': list = 1; break;
        case 's': sets[nsets++] = optarg; break;
        case 't': file = optarg; break;
        default: rc = 2; goto done;
        }
    }
    if (list) {
        print_tables(stdout);
        goto done;
    }
    if (optind == argc || argc - optind > 1) {
        rc = cli_usage_error("insights", optind == argc ? "no log given" : "one log at a time");
        goto done;
    }
    if (file && (rc = read_thresholds(config, file)) != 0)
        goto done;
    for (int i = 0; i < nsets; i++) {
        if (iolens_insight_config_set(config, sets[i], why, sizeof(why)) != IOLENS_OK) {
            rc = cli_usage_error("insights", "--set %s: %s", sets[i], why);
            goto done;
        }
    }
    a.config = config;
    rc = cli_each_log(1, argv + optind, insights_one, &a);
done:
    iolens_insight_config_free(config);
    free(sets);
    return rc;
}

const struct cli_verb cli_insights_verb = {
    .name = "insights",
    .summary = "say what a log shows about the job's I/O and what to change",
    .usage = insights_usage,
    .run = cli_insights,
};
