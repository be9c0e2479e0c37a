/* iolens parse: the text darshan-parser prints for a log. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolens/accumulate.h"

enum {
    SHOW_BASE = 1 << 0,
    SHOW_TOTAL = 1 << 1,
    SHOW_PERF = 1 << 2,
    SHOW_FILE = 1 << 3,
    SHOW_INCOMPLETE = 1 << 7,
    SHOW_ALL = SHOW_BASE | SHOW_TOTAL | SHOW_PERF | SHOW_FILE | SHOW_INCOMPLETE,
};

enum { SHOW_DERIVED = SHOW_TOTAL | SHOW_PERF | SHOW_FILE };

/* Does the module have totals, file counts and performance figures? */
static int has_derived(const struct iolens_module_desc *mod)
{
    return mod && mod->roles && (mod->roles->flags & IOLENS_ROLE_METRICS);
}

static void print_columns_legend(FILE *out)
{
    fprintf(out, "\n# description of columns:\n"
                 "#   <module>: the module that recorded the line\n"
                 "#   <rank>: MPI rank, or -1 for a file shared by every rank\n"
                 "#   <record id>: 64-bit hash of the record's name\n"
                 "#   <counter> and <value>: one counter; -1 means it was not monitored\n"
                 "#   <file name>, <mount pt>, <fs type>: the record's name and file system\n");
}

/* What each counter means, generated from the module's counter table. */
static void print_counter_legend(FILE *out, const struct iolens_module_desc *mod)
{
    fprintf(out, "\n# description of %s counters:\n", mod->legend_name);
    fprintf(out, "#   (%s)\n", mod->summary);
    for (size_t i = 0; i < mod->ncounters; i++)
        fprintf(out, "#   %s: %s\n", mod->counters[i].name, mod->counters[i].desc);
    for (size_t i = 0; i < mod->nfcounters; i++)
        fprintf(out, "#   %s: %s\n", mod->fcounters[i].name, mod->fcounters[i].desc);
}

/* The counter legend, then the column heading of record lines. */
static void print_module_legend(FILE *out, const struct iolens_module_desc *mod)
{
    print_counter_legend(out, mod);
    fprintf(out, "\n#<module>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>"
                 "\t<fs type>\n");
}

/* --total: the module's records merged into one, one "total_<COUNTER>: value"
 * line per counter (integers signed, as darshan-parser prints them). */
static void print_totals(FILE *out, const struct iolens_module_desc *mod, const void *total)
{
    const unsigned char *rec = total;
    print_counter_legend(out, mod);
    fputc('\n', out);
    for (size_t i = 0; i < mod->ncounters; i++) {
        int64_t v;
        memcpy(&v, rec + mod->counters_offset + 8 * i, 8);
        fprintf(out, "total_%s: %" PRId64 "\n", mod->counters[i].name, v);
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        double v;
        memcpy(&v, rec + mod->fcounters_offset + 8 * i, 8);
        fprintf(out, "total_%s: %f\n", mod->fcounters[i].name, v);
    }
}

static void print_file_line(FILE *out, const char *kind, int64_t count, int64_t bytes,
                            int64_t max_offset)
{
    fprintf(out, "# %s: %" PRId64 " %" PRId64 " %" PRId64 "\n", kind, count, bytes, max_offset);
}

/* Bytes moved to and from files of one kind, as one figure. */
static int64_t kind_bytes(const struct iolens_file_counts *c)
{
    return (int64_t)((uint64_t)c->read_bytes + (uint64_t)c->written_bytes);
}

/* --file: how many files of each kind, the bytes they moved, their highest
 * offset. "shared" joins fully and partly shared files (their highest
 * offsets are added, as darshan-parser does). */
static void print_file_counts(FILE *out, const struct iolens_metrics *m)
{
    static const struct { int kind; const char *name; } rows[] = {
        {IOLENS_FILES_ALL, "total"},
        {IOLENS_FILES_READ_ONLY, "read_only"},
        {IOLENS_FILES_WRITE_ONLY, "write_only"},
        {IOLENS_FILES_READ_WRITE, "read_write"},
        {IOLENS_FILES_UNIQUE, "unique"},
    };
    const struct iolens_file_counts *sh = &m->files[IOLENS_FILES_SHARED];
    const struct iolens_file_counts *part = &m->files[IOLENS_FILES_PART_SHARED];

    fprintf(out, "\n# files by kind of access\n"
                 "# ----------------------\n"
                 "#   read_only, write_only, read_write: moved bytes only in, only out, or both\n"
                 "#   unique: one rank's file; shared: files of several or all ranks\n"
                 "#   columns: kind, files, bytes moved, highest offset of one file (-1: not kept)\n"
                 "\n");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct iolens_file_counts *c = &m->files[rows[i].kind];
        print_file_line(out, rows[i].name, c->count, kind_bytes(c), c->max_offset);
    }
    print_file_line(out, "shared", sh->count + part->count,
                    (int64_t)((uint64_t)kind_bytes(sh) + (uint64_t)kind_bytes(part)),
                    (int64_t)((uint64_t)sh->max_offset + (uint64_t)part->max_offset));
}

/* --perf: bytes moved, the slowest rank's time, and the rate they give. */
static void print_perf(FILE *out, const struct iolens_metrics *m)
{
    fprintf(out, "\n# derived performance\n"
                 "# -------------------\n"
                 "# total_bytes: %" PRId64 "\n"
                 "#\n"
                 "# I/O timing for unique files (seconds):\n"
                 "#   (files of one rank: the rank with the most I/O time on them)\n"
                 "# unique files: slowest_rank_io_time: %f\n"
                 "# unique files: slowest_rank_meta_only_time: %f\n"
                 "# unique files: slowest_rank_rw_only_time: %f\n"
                 "# unique files: slowest_rank: %" PRId64 "\n"
                 "#\n"
                 "# I/O timing for shared files (seconds):\n"
                 "#   (summed over shared files: each one's slowest rank)\n"
                 "# shared files: time_by_slowest: %f\n"
                 "#\n"
                 "# Aggregate performance, including both shared and unique files:\n"
                 "#   (both times above added; the rate is total_bytes over that time)\n"
                 "# agg_time_by_slowest: %f # seconds\n"
                 "# agg_perf_by_slowest: %f # MiB/s\n",
            m->total_bytes, m->unique_io_time, m->unique_meta_time, m->unique_rw_time,
            m->unique_slowest_rank, m->shared_io_time, m->agg_time, m->agg_perf);
}

/* Totals, file counts and performance of an accumulated module, as asked. */
static void print_derived(FILE *out, const struct iolens_module_desc *mod,
                          const iolens_accumulator *acc, int mask, void *total)
{
    struct iolens_metrics m;
    iolens_accumulator_emit(acc, &m, total);
    if (mask & SHOW_TOTAL)
        print_totals(out, mod, total);
    if (mask & SHOW_FILE)
        print_file_counts(out, &m);
    if (mask & SHOW_PERF)
        print_perf(out, &m);
}

static void print_partial_note(FILE *out, const char *mod)
{
    fprintf(out, "\n# *WARNING*: the %s module's data is incomplete: the runtime ran out of\n"
                 "#            memory for new records; the records below are those it kept.\n",
            mod);
}

/* Print the records of one module. @return 0, or -1 with the reason in why. */
static int print_module(iolens_log *log, int id, int mask, char *why, size_t why_len)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    const struct iolens_module_desc *mod = iolens_module(id);
    const void *rec;
    iolens_accumulator *acc = NULL;
    void *total = NULL;
    iolens_status st = IOLENS_OK;
    int rc = 0;

    if (mask & SHOW_BASE)
        print_module_legend(stdout, mod);
    if ((mask & SHOW_DERIVED) && has_derived(mod)) {
        st = iolens_accumulator_create(mod, in->job.nprocs, &acc);
        if (st == IOLENS_OK && !(mask & (SHOW_FILE | SHOW_PERF)))
            iolens_accumulator_totals_only(acc);
        else if (st == IOLENS_OK && !(mask & SHOW_FILE))
            iolens_accumulator_no_file_counts(acc);
        if (st == IOLENS_OK && !(total = malloc(mod->record_size)))
            st = IOLENS_ERR_NOMEM;
        if (st != IOLENS_OK) {
            snprintf(why, why_len, "%s totals: %s", mod->name, iolens_strerror(st));
            rc = -1;
            goto done;
        }
    }
    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
        if (mask & SHOW_BASE) {
            struct iolens_record_base b;
            memcpy(&b, rec, sizeof(b));
            struct iolens_print_ctx ctx = cli_print_ctx(log, mod, b.id);
            if (mod->print)
                mod->print(stdout, rec, &ctx);
            else
                iolens_print_counters(stdout, mod, rec, &ctx);
        }
        if (acc && (st = iolens_accumulator_inject(acc, rec)) != IOLENS_OK) {
            snprintf(why, why_len, "%s totals: %s", mod->name, iolens_strerror(st));
            rc = -1;
            goto done;
        }
    }
    if (st != IOLENS_END) {
        snprintf(why, why_len, "%s", iolens_log_error(log));
        rc = -1;
        goto done;
    }
    /* A module of many files is read again for the file counts (bounded memory). */
    if (acc && (st = iolens_accumulator_finish(acc, log, id)) != IOLENS_OK) {
        snprintf(why, why_len, "%s totals: %s", mod->name, iolens_strerror(st));
        rc = -1;
        goto done;
    }
    if (acc)
        print_derived(stdout, mod, acc, mask, total);
done:
    iolens_accumulator_free(acc);
    free(total);
    return rc;
}

static int run(iolens_log *log, int mask, const char *path)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    /* Only --base prints names; totals, perf and file counts work by id. */
    iolens_status st = (mask & SHOW_BASE) ? iolens_log_load_names(log) : IOLENS_OK;
    int empty = 0;
    char why[512] = "";

    if (st != IOLENS_OK)
        return cli_error(path, "%s", iolens_log_error(log));
    cli_print_log_header(stdout, log);
    if (mask & SHOW_BASE)
        print_columns_legend(stdout);

    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        int partial = (in->partial_flags >> id) & 1;
        const char *name = iolens_module_name(id);
        if (in->mod_map[id].len == 0) {
            empty++;
            if (!partial)
                continue;
        } else if (!name) {
            fprintf(stderr, "# warning: module id %d is unknown to this version of iolens; "
                            "skipping it\n", id);
            continue;
        } else if (!iolens_module(id)) {
            fprintf(stderr, "# warning: iolens cannot decode %s records; skipping them\n", name);
            continue;
        } else if (iolens_module(id)->trace) {
            continue; /* traces are printed by 'iolens dxt' */
        } else if (!has_derived(iolens_module(id)) && !(mask & SHOW_BASE)) {
            continue;
        }

        printf("\n# *******************************************************\n");
        printf("# %s module data\n", name ? name : "<UNKNOWN>");
        printf("# *******************************************************\n");
        if (partial) {
            if (!(mask & SHOW_INCOMPLETE)) {
                cli_error(path, "the %s module's data is incomplete (the runtime ran out of "
                          "record memory); --show-incomplete prints what it holds", name);
                return 255;
            }
            print_partial_note(stdout, name);
            if (in->mod_map[id].len == 0)
                continue;
        }
        /* A damaged module does not hide the others; the first reason is
         * reported once, at the end. */
        char module_why[sizeof(why)];
        if (print_module(log, id, mask, module_why, sizeof(module_why)) < 0 && !why[0])
            memcpy(why, module_why, sizeof(why));
    }
    if (empty == IOLENS_MAX_MODS)
        printf("\n# no module data available.\n");
    if (why[0])
        return cli_error(path, "%s", why);
    return 0;
}

/* Print the log at path with the options of mask (an int *). @return its exit status. */
static int parse_one(const char *path, void *mask)
{
    iolens_log *log = cli_open_log(path);
    if (!log)
        return 1;
    int rc = run(log, *(int *)mask, path);
    iolens_log_close(log);
    return rc;
}

static const char parse_usage[] =
    "usage: iolens parse [--base|--total|--perf|--file|--all] [--show-incomplete] LOG...\n"
    "\n"
    "Print Darshan-format logs as darshan-parser does, one after the other (each\n"
    "after a line '# ==> LOG <==' when there are several).\n"
    "  --base             every counter of every record (the default)\n"
    "  --total            counters summed over all records of each module\n"
    "  --perf             derived I/O time and bandwidth figures\n"
    "  --file             counts of files by access type\n"
    "  --all              all of the above, and --show-incomplete\n"
    "  --show-incomplete  print what a partial log holds instead of failing\n"
    "\n"
    "Exit status: 0 when every log was printed, 1 when a log could not be read,\n"
    "2 for wrong usage, 255 for a partial log without --show-incomplete; with\n"
    "several logs, the highest of theirs.\n";

int cli_parse(int argc, char **argv)
{
    /* Sorted by name. */
    static const struct option opts[] = {
        {"all", no_argument, NULL, SHOW_ALL},
        {"base", no_argument, NULL, SHOW_BASE},
        {"file", no_argument, NULL, SHOW_FILE},
        {"perf", no_argument, NULL, SHOW_PERF},
        {"show-incomplete", no_argument, NULL, SHOW_INCOMPLETE},
        {"total", no_argument, NULL, SHOW_TOTAL},
        {NULL, 0, NULL, 0},
    };
    int mask = 0, c;

    optind = 1;
    while ((c = cli_getopt("parse", argc, argv, ":", opts)) != -1) {
        if (c == '?')
            return 2;
        mask |= c;
    }
    if (optind == argc)
        return cli_usage_error("parse", "no log given");
    if (mask == 0 || mask == SHOW_INCOMPLETE)
        mask |= SHOW_BASE;
    return cli_each_log(argc - optind, argv + optind, parse_one, &mask);
}

const struct cli_verb cli_parse_verb = {
    .name = "parse",
    .summary = "print a log's records as darshan-parser does",
    .usage = parse_usage,
    .run = cli_parse,
};
