/* iolens dxt: the text darshan-dxt-parser prints for a log's DXT traces.
 * After the header that parse also prints, each DXT module's records follow
 * in module order; DXT_POSIX records of files on Lustre also show the file's
 * striping and the OSTs each access touched, from the log's LUSTRE records. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/lustre.h"

/* One LUSTRE record, copied, and its place in the order the log holds them. */
struct lustre_entry {
    uint64_t id;
    size_t seq;
    struct iolens_lustre_record *rec;
};

/* The log's LUSTRE records, sorted by id (then reading order) for lookup. */
struct lustre_set {
    struct lustre_entry *v;
    size_t n, alloc;
};

static void lustre_set_free(struct lustre_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->v[i].rec);
    free(set->v);
}

/* @return 0, or -1 when out of memory. */
static int lustre_set_add(struct lustre_set *set, const struct iolens_lustre_record *rec)
{
    size_t size = iolens_lustre_record_bytes(rec);
    if (set->n == set->alloc) {
        size_t want = set->alloc ? 2 * set->alloc : 64;
        void *p = realloc(set->v, want * sizeof(*set->v));
        if (!p)
            return -1;
        set->v = p;
        set->alloc = want;
    }
    struct iolens_lustre_record *copy = malloc(size);
    if (!copy)
        return -1;
    memcpy(copy, rec, size);
    set->v[set->n] = (struct lustre_entry){rec->base.id, set->n, copy};
    set->n++;
    return 0;
}

static int by_id_then_seq(const void *a, const void *b)
{
    const struct lustre_entry *x = a, *y = b;
    if (x->id != y->id)
        return x->id > y->id ? 1 : -1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The LUSTRE record of a file, or NULL. When several ranks recorded the same
 * file (they describe the same striping), the one read last is used. */
static const struct iolens_lustre_record *lustre_find(const struct lustre_set *set, uint64_t id)
{
    size_t lo = 0, hi = set->n;
    while (lo < hi) { /* find the first entry whose id is greater than id */
        size_t mid = lo + (hi - lo) / 2;
        if (set->v[mid].id <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && set->v[lo - 1].id == id ? set->v[lo - 1].rec : NULL;
}

/* Read every LUSTRE record of the log into set. @return 0, or -1 after an error. */
static int load_lustre(iolens_log *log, struct lustre_set *set, const char *path)
{
    const void *rec;
    iolens_status st;

    while ((st = iolens_log_next_record(log, IOLENS_MOD_LUSTRE, &rec)) == IOLENS_OK) {
        if (lustre_set_add(set, rec) < 0) {
            cli_error(path, "out of memory keeping the LUSTRE records");
            return -1;
        }
    }
    if (st != IOLENS_END) {
        cli_error(path, "%s", iolens_log_error(log));
        return -1;
    }
    qsort(set->v, set->n, sizeof(*set->v), by_id_then_seq);
    return 0;
}

/* Print every record of DXT module id. @return 0, or -1 after a read error. */
static int print_traces(iolens_log *log, int id, const struct lustre_set *set, const char *path)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    const struct iolens_module_desc *mod = iolens_module(id);
    const void *rec;
    iolens_status st;

    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
        const struct iolens_dxt_record *r = rec;
        struct iolens_print_ctx ctx;
        ctx.name = iolens_log_name(log, r->base.id);
        cli_match_mount(in, ctx.name, &ctx.mnt_pt, &ctx.fs_type);
        if (!ctx.name)
            ctx.name = "(null)";
        if (id == IOLENS_MOD_DXT_POSIX)
            iolens_dxt_posix_print(stdout, r, &ctx, lustre_find(set, r->base.id));
        else
            mod->print(stdout, rec, &ctx);
    }
    if (st != IOLENS_END) {
        cli_error(path, "%s", iolens_log_error(log));
        return -1;
    }
    return 0;
}

/* What a partial module means for the traces. @return 0 to go on, 255 to stop. */
static int check_partial(const char *name, int show_incomplete, const char *path)
{
    if (!show_incomplete) {
        cli_error(path, "the %s module's data is incomplete (the runtime ran out of record "
                  "memory); --show-incomplete prints what it holds", name);
        return 255;
    }
    printf("\n# *WARNING*: the %s module's data is incomplete: the runtime ran out of\n"
           "#            memory for new records; the records below are those it kept.\n",
           name);
    return 0;
}

static int run(iolens_log *log, int show_incomplete, const char *path, struct lustre_set *set)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);

    if (iolens_log_load_names(log) != IOLENS_OK)
        return cli_error(path, "%s", iolens_log_error(log));
    cli_print_log_header(stdout, log);
    if (!in->mod_map[IOLENS_MOD_DXT_POSIX].len && !in->mod_map[IOLENS_MOD_DXT_MPIIO].len) {
        printf("\n# this log holds no DXT trace data.\n");
        return 0;
    }

    /* LUSTRE (id 8) comes before the DXT modules, so its records are known
     * by the time the POSIX traces need them. */
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const char *name = iolens_module_name(id);
        int dxt = id == IOLENS_MOD_DXT_POSIX || id == IOLENS_MOD_DXT_MPIIO;
        if (in->mod_map[id].len == 0)
            continue;
        if (!name) {
            fprintf(stderr, "# warning: module id %d is unknown to this version of iolens; "
                            "skipping it\n", id);
            continue;
        }
        if (!dxt && id != IOLENS_MOD_LUSTRE)
            continue;
        if (dxt) {
            printf("\n# ***************************************************\n");
            printf("# %s module data\n", name);
            printf("# ***************************************************\n");
        }
        if ((in->partial_flags >> id) & 1) {
            int rc = check_partial(name, show_incomplete, path);
            if (rc)
                return rc;
        }
        int failed = dxt ? print_traces(log, id, set, path) : load_lustre(log, set, path);
        if (failed)
            return 1;
    }
    return 0;
}

/* Print the traces of the log at path; show_incomplete is an int *.
 * @return its exit status. */
static int dxt_one(const char *path, void *show_incomplete)
{
    struct lustre_set set = {NULL, 0, 0};
    iolens_log *log = cli_open_log(path);
    if (!log)
        return 1;
    int rc = run(log, *(int *)show_incomplete, path, &set);
    lustre_set_free(&set);
    iolens_log_close(log);
    return rc;
}

static const char dxt_usage[] =
    "usage: iolens dxt [--show-incomplete] LOG...\n"
    "\n"
    "Print the DXT traces of logs as darshan-dxt-parser does, one after the other\n"
    "(each after a line '# ==> LOG <==' when there are several).\n"
    "  --show-incomplete  print what a partial log holds instead of failing\n"
    "\n"
    "Exit status: 0 when every log was printed, 1 when a log could not be read,\n"
    "2 for wrong usage, 255 for a partial log without --show-incomplete; with\n"
    "several logs, the highest of theirs.\n";

int cli_dxt(int argc, char **argv)
{
    static const struct option opts[] = {
        {"show-incomplete", no_argument, NULL, 'i'},
        {NULL, 0, NULL, 0},
    };
    int show_incomplete = 0, c;

    optind = 1;
    while ((c = cli_getopt("dxt", argc, argv, ":", opts)) != -1) {
        if (c == '?')
            return 2;
        show_incomplete = 1;
    }
    if (optind == argc)
        return cli_usage_error("dxt", "no log given");
    return cli_each_log(argc - optind, argv + optind, dxt_one, &show_incomplete);
}

const struct cli_verb cli_dxt_verb = {
    .name = "dxt",
    .summary = "print a log's DXT traces as darshan-dxt-parser does",
    .usage = dxt_usage,
    .run = cli_dxt,
};
