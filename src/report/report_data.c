/* The report's JSON object: the job, the log's modules, the time split by
 * module and operation, operation counts, access sizes and the findings
 * (the file table and heatmaps are report_files.c's). Module figures come
 * from each module's totals record (all its records merged), read by
 * counter name so that every module that has such counters shows them. */
#include <math.h>
#include <string.h>

#include "../cli/callsites.h"
#include "../cli/cli.h"
#include "report_data.h"

void report_key(FILE *out, const char *key, int first)
{
    if (!first)
        fputc(',', out);
    cli_json_string(out, key);
    fputc(':', out);
}

void report_num(FILE *out, const char *key, double v)
{
    report_key(out, key, 0);
    cli_json_number(out, v);
}

void report_str(FILE *out, const char *key, const char *text)
{
    report_key(out, key, 0);
    cli_json_string(out, text ? text : "");
}

void report_i64s(FILE *out, const char *key, const int64_t *v, size_t n)
{
    report_key(out, key, 0);
    fputc('[', out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%lld", i ? "," : "", (long long)v[i]);
    fputc(']', out);
}

/* ---- counters of a module's totals record, by name ---- */

static const int64_t *counters(const struct iolens_module_desc *m, const void *rec)
{
    return (const int64_t *)((const char *)rec + m->counters_offset);
}

static const double *fcounters(const struct iolens_module_desc *m, const void *rec)
{
    return (const double *)((const char *)rec + m->fcounters_offset);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* The index of the counter whose name ends with "_" suffix, or -1. */
static int counter_ending(const struct iolens_module_desc *m, const char *suffix)
{
    char want[64];
    snprintf(want, sizeof(want), "_%s", suffix);
    for (size_t i = 0; i < m->ncounters; i++)
        if (ends_with(m->counters[i].name, want))
            return (int)i;
    return -1;
}

/* Counts of operations: counters with these endings (not the sequential,
 * consecutive or size counters that share them). */
static int is_op_counter(const char *name)
{
    static const char *const ops[] = {"_READS", "_WRITES", "_OPENS", "_CREATES", "_STATS",
                                      "_SEEKS", "_MMAPS", "_FSYNCS", "_FDSYNCS", "_FLUSHES",
                                      "_SYNCS", "_VIEWS", "_WAITS", "_READXS", "_WRITEXS",
                                      "_LOOKUPS", "_PUNCHES", "_REMOVES", "_GETSIZES"};
    if (strstr(name, "SEQ_") || strstr(name, "CONSEC_") || strstr(name, "_SIZE_") ||
        strstr(name, "_RW_SWITCHES"))
        return 0;
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (ends_with(name, ops[i]))
            return 1;
    return 0;
}

/* A counter's name without its module prefix ("POSIX_READS" -> "READS"). */
static const char *short_name(const char *name)
{
    const char *u = strchr(name, '_');
    return u ? u + 1 : name;
}

static void write_ops(FILE *out, const struct iolens_module_desc *m, const void *total)
{
    const int64_t *c = counters(m, total);
    int first = 1;
    report_key(out, "ops", 0);
    fputc('{', out);
    for (size_t i = 0; i < m->ncounters; i++) {
        if (!is_op_counter(m->counters[i].name))
            continue;
        report_key(out, short_name(m->counters[i].name), first);
        cli_json_number(out, (double)(c[i] > 0 ? c[i] : 0));
        first = 0;
    }
    fputc('}', out);
}

/* The ten size bins of reads (writes) starting at the counter ending in
 * first_bin, as an array member. */
static void write_bins(FILE *out, const char *key, const struct iolens_module_desc *m,
                       const void *total, const char *first_bin)
{
    int at = counter_ending(m, first_bin);
    int64_t bins[IOLENS_SIZE_BINS] = {0};
    for (int i = 0; at >= 0 && i < IOLENS_SIZE_BINS && (size_t)(at + i) < m->ncounters; i++)
        bins[i] = counters(m, total)[at + i] > 0 ? counters(m, total)[at + i] : 0;
    report_i64s(out, key, bins, IOLENS_SIZE_BINS);
}

/* Access sizes: histograms and the four most common sizes, for modules that
 * keep them. */
static void write_access(FILE *out, const struct iolens_module_desc *m, const void *total)
{
    const int64_t *c = counters(m, total);
    int agg = counter_ending(m, "SIZE_READ_AGG_0_100") >= 0;
    if (!agg && counter_ending(m, "SIZE_READ_0_100") < 0)
        return;
    write_bins(out, "read_sizes", m, total, agg ? "SIZE_READ_AGG_0_100" : "SIZE_READ_0_100");
    write_bins(out, "write_sizes", m, total, agg ? "SIZE_WRITE_AGG_0_100" : "SIZE_WRITE_0_100");
    report_key(out, "common", 0);
    fputc('[', out);
    int n = 0;
    for (int k = 1; k <= 4; k++) {
        char size[32], count[32];
        snprintf(size, sizeof(size), "ACCESS%d_ACCESS", k);
        snprintf(count, sizeof(count), "ACCESS%d_COUNT", k);
        int a = counter_ending(m, size), b = counter_ending(m, count);
        if (a < 0 || b < 0 || c[b] <= 0)
            continue;
        fprintf(out, "%s[%lld,%lld]", n++ ? "," : "", (long long)c[a], (long long)c[b]);
    }
    fputc(']', out);
}

/* Sequential and consecutive operations (POSIX keeps them). */
static void write_pattern(FILE *out, const struct iolens_module_desc *m, const void *total)
{
    static const char *const keys[] = {"READS", "WRITES", "SEQ_READS", "SEQ_WRITES",
                                       "CONSEC_READS", "CONSEC_WRITES"};
    int idx[6];
    for (int i = 0; i < 6; i++)
        if ((idx[i] = counter_ending(m, keys[i])) < 0)
            return;
    report_key(out, "pattern", 0);
    fputc('{', out);
    for (int i = 0; i < 6; i++) {
        report_key(out, keys[i], i == 0);
        int64_t v = counters(m, total)[idx[i]];
        cli_json_number(out, (double)(v > 0 ? v : 0));
    }
    fputc('}', out);
}

/* One seconds member from the fcounter a role names (0 without it). */
static void write_time(FILE *out, const char *key, const struct iolens_module_desc *m,
                       const void *total, iolens_role role)
{
    double v = role ? fcounters(m, total)[iolens_role_index(role)] : 0;
    report_num(out, key, v > 0 ? v : 0);
}

/* The I/O performance estimate: bytes moved over the slowest rank's time
 * (iolens parse --perf's agg_perf_by_slowest, in MiB/s). */
static void write_perf(FILE *out, const struct iolens_metrics *mt)
{
    report_key(out, "perf", 0);
    fputc('{', out);
    report_key(out, "bytes", 1);
    cli_json_number(out, (double)mt->total_bytes);
    report_num(out, "time", mt->agg_time);
    report_key(out, "mib_per_s", 0);
    fprintf(out, "%.6f", isfinite(mt->agg_perf) ? mt->agg_perf : 0);
    fputc('}', out);
}

static void write_module(FILE *out, const struct iolens_log_info *in,
                         const struct iolens_summary *s, int id, int first)
{
    const struct iolens_module_desc *m = iolens_module(id);
    const struct iolens_module_summary *ms = &s->modules[id];
    if (!first)
        fputc(',', out);
    fputc('{', out);
    report_key(out, "name", 1);
    cli_json_string(out, iolens_module_name(id));
    report_num(out, "version", in->mod_ver[id]);
    report_num(out, "bytes", (double)in->mod_map[id].len);
    report_num(out, "records", (double)ms->records);
    report_num(out, "partial", ms->partial);
    if (m && ms->total && m->roles) {
        write_time(out, "read_time", m, ms->total, m->roles->f_read_time);
        write_time(out, "write_time", m, ms->total, m->roles->f_write_time);
        write_time(out, "meta_time", m, ms->total, m->roles->f_meta_time);
    }
    if (ms->metrics)
        write_perf(out, ms->metrics);
    if (m && ms->total) {
        write_ops(out, m, ms->total);
        write_access(out, m, ms->total);
        write_pattern(out, m, ms->total);
    }
    fputc('}', out);
}

static void write_job(FILE *out, const struct report_input *in)
{
    const struct iolens_log_info *info = iolens_log_get_info(in->log);
    const struct iolens_summary *s = in->s;
    report_str(out, "log", in->log_name);
    report_str(out, "exe", s->exe);
    report_str(out, "log_version", info->version);
    report_num(out, "nprocs", (double)s->nprocs);
    report_num(out, "jobid", (double)info->job.jobid);
    report_num(out, "uid", (double)info->job.uid);
    report_num(out, "start", (double)info->job.start_time_sec);
    report_num(out, "end", (double)info->job.end_time_sec);
    report_num(out, "run_time", s->run_time);
    report_num(out, "io_time", s->judged_time);
    report_num(out, "io_share", iolens_summary_io_share(s));
    report_str(out, "metadata", info->job.metadata);
    report_key(out, "modules", 0);
    fputc('[', out);
    int first = 1;
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        if (info->mod_map[id].len > 0) {
            write_module(out, info, s, id, first);
            first = 0;
        }
    }
    fputc(']', out);
}

static void write_findings(FILE *out, const struct report_input *in)
{
    report_key(out, "findings", 0);
    fputc('[', out);
    for (size_t i = 0; i < in->nfindings; i++) {
        if (i)
            fputc(',', out);
        cli_json_finding(out, in->s, &in->findings[i]);
    }
    fputc(']', out);
}

/* "callsites": the lines with the most I/O time, each with its callers;
 * null without call sites. */
static void write_callsites(FILE *out, const struct report_input *in)
{
    const struct cs_result *r = in->callsites;
    char buf[1024];
    report_key(out, "callsites", 0);
    if (!r) {
        fputs("null", out);
        return;
    }
    fputs("{\"nsites\":", out);
    cli_json_number(out, (double)r->nsites);
    report_num(out, "partial", r->partial);
    report_key(out, "sites", 0);
    fputc('[', out);
    for (size_t i = 0; i < r->nsites && i < REPORT_MAX_SITES; i++) {
        const struct cs_site *s = &r->sites[i];
        const struct cs_frame *top = &s->frames[0];
        const char *mod = iolens_module_name(s->module);
        fputs(i ? ",{" : "{", out);
        report_key(out, "function", 1);
        cli_json_string(out, top->function ? top->function : cs_frame_text(top, buf, sizeof(buf)));
        report_str(out, "file", top->file ? top->file : "");
        report_num(out, "line", top->line);
        report_str(out, "module", mod ? mod : "?");
        report_str(out, "op", iolens_callsites_op_name(s->op));
        report_num(out, "calls", (double)s->calls);
        report_num(out, "bytes", (double)s->bytes);
        report_num(out, "time", s->time);
        report_key(out, "callers", 0);
        fputc('[', out);
        for (int k = 1; k < s->nframes; k++) {
            if (k > 1)
                fputc(',', out);
            cli_json_string(out, cs_frame_text(&s->frames[k], buf, sizeof(buf)));
        }
        fputs("]}", out);
    }
    fputs("]}", out);
}

int report_write_data(FILE *out, const struct report_input *in)
{
    fputs("{\"format\":1", out);
    write_job(out, in);
    write_findings(out, in);
    report_write_files(out, in);
    report_write_heatmaps(out, in);
    write_callsites(out, in);
    if (report_write_dxt(out, in) < 0)
        return -1;
    fputs("}\n", out);
    return 0;
}
