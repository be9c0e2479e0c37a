/* iolens parse: the text darshan-parser prints for a log. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
    SHOW_BASE = 1 << 0,
    SHOW_TOTAL = 1 << 1,
    SHOW_PERF = 1 << 2,
    SHOW_FILE = 1 << 3,
    SHOW_INCOMPLETE = 1 << 7,
    SHOW_ALL = SHOW_BASE | SHOW_TOTAL | SHOW_PERF | SHOW_FILE | SHOW_INCOMPLETE,
};

/* Modules that have totals, file counts and performance figures. */
static int has_derived(int id)
{
    return id == IOLENS_MOD_POSIX || id == IOLENS_MOD_MPIIO || id == IOLENS_MOD_STDIO ||
           id == IOLENS_MOD_DFS || id == IOLENS_MOD_DAOS;
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
static void print_module_legend(FILE *out, const struct iolens_module_desc *mod)
{
    fprintf(out, "\n# description of %s counters:\n", mod->legend_name);
    fprintf(out, "#   (%s)\n", mod->summary);
    for (size_t i = 0; i < mod->ncounters; i++)
        fprintf(out, "#   %s: %s\n", mod->counters[i].name, mod->counters[i].desc);
    for (size_t i = 0; i < mod->nfcounters; i++)
        fprintf(out, "#   %s: %s\n", mod->fcounters[i].name, mod->fcounters[i].desc);
    fprintf(out, "\n#<module>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>"
                 "\t<fs type>\n");
}

static void print_partial_note(FILE *out, const char *mod)
{
    fprintf(out, "\n# *WARNING*: the %s module's data is incomplete: the runtime ran out of\n"
                 "#            memory for new records; the records below are those it kept.\n",
            mod);
}

/* Print the records of one module. @return 0, or -1 after a read error. */
static int print_module(iolens_log *log, int id, int mask, const char *path)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    const struct iolens_module_desc *mod = iolens_module(id);
    const void *rec;
    iolens_status st;

    if (mask & SHOW_BASE)
        print_module_legend(stdout, mod);
    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
        struct iolens_record_base b;
        struct iolens_print_ctx ctx;
        memcpy(&b, rec, sizeof(b));
        ctx.name = iolens_log_name(log, b.id);
        cli_match_mount(in, ctx.name, &ctx.mnt_pt, &ctx.fs_type);
        if (!ctx.name)
            ctx.name = id == IOLENS_MOD_BGQ ? "darshan-bgq-record" : "(null)";
        if (mask & SHOW_BASE) {
            if (mod->print)
                mod->print(stdout, rec, &ctx);
            else
                iolens_print_counters(stdout, mod, rec, &ctx);
        }
    }
    if (st != IOLENS_END) {
        fflush(stdout);
        cli_error(path, "%s", iolens_log_error(log));
        return -1;
    }
    return 0;
}

static int run(iolens_log *log, int mask, const char *path)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    iolens_status st = iolens_log_load_names(log);
    int empty = 0, failed = 0;

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
        } else if (id == IOLENS_MOD_DXT_POSIX || id == IOLENS_MOD_DXT_MPIIO) {
            continue; /* traces are printed by 'iolens dxt' */
        } else if (!has_derived(id) && !(mask & SHOW_BASE)) {
            continue;
        }

        printf("\n# *******************************************************\n");
        printf("# %s module data\n", name ? name : "<UNKNOWN>");
        printf("# *******************************************************\n");
        if (partial) {
            if (!(mask & SHOW_INCOMPLETE)) {
                fflush(stdout);
                cli_error(path, "the %s module's data is incomplete (the runtime ran out of "
                          "record memory); --show-incomplete prints what it holds", name);
                return 255;
            }
            print_partial_note(stdout, name);
            if (in->mod_map[id].len == 0)
                continue;
        }
        if (print_module(log, id, mask, path) < 0)
            failed = 1;
    }
    if (empty == IOLENS_MAX_MODS)
        printf("\n# no module data available.\n");
    return failed;
}

static const char parse_usage[] =
    "usage: iolens parse [--base|--total|--perf|--file|--all] [--show-incomplete] LOG\n"
    "\n"
    "Print a Darshan-format log as darshan-parser does.\n"
    "  --base             every counter of every record (the default)\n"
    "  --total            counters summed over all records of each module\n"
    "  --perf             derived I/O time and bandwidth figures\n"
    "  --file             counts of files by access type\n"
    "  --all              all of the above, and --show-incomplete\n"
    "  --show-incomplete  print what a partial log holds instead of failing\n";

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
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == '?') {
            fputs(parse_usage, stderr);
            return 2;
        }
        mask |= c;
    }
    if (optind != argc - 1) {
        fputs(parse_usage, stderr);
        return 2;
    }
    if (mask == 0 || mask == SHOW_INCOMPLETE)
        mask |= SHOW_BASE;

    iolens_log *log = cli_open_log(argv[optind]);
    if (!log)
        return 1;
    int rc = run(log, mask, argv[optind]);
    iolens_log_close(log);
    if (fflush(stdout) != 0)
        return cli_error("stdout", "write failed");
    return rc;
}

const struct cli_verb cli_parse_verb = {
    .name = "parse",
    .summary = "print a log's records as darshan-parser does",
    .usage = parse_usage,
    .run = cli_parse,
};
