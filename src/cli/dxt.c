/* iolens dxt: the text darshan-dxt-parser prints for a log's DXT traces.
 * After the header that parse also prints, the records of each trace module
 * (the descriptor's trace) follow in module order. A trace module may name a
 * layout module (DXT_POSIX: LUSTRE) whose record of the same file its
 * printer shows too (the file's striping and the OSTs each access touched);
 * those records are read first, as a layout module's id is the lower. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One record of a layout module, copied, and its place in the order the log
 * holds that module's records. */
struct layout_entry {
    int mod;
    uint64_t id;
    size_t seq;
    void *rec;
};

/* The log's layout records, sorted by module, id, then reading order, for lookup. */
struct layout_set {
    struct layout_entry *v;
    size_t n, alloc;
};

static void layout_set_free(struct layout_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->v[i].rec);
    free(set->v);
}

/* @return 0, or -1 when out of memory. */
static int layout_set_add(struct layout_set *set, const struct iolens_module_desc *mod,
                          const void *rec)
{
    size_t size = iolens_record_size(mod, rec);
    if (set->n == set->alloc) {
        size_t want = set->alloc ? 2 * set->alloc : 64;
        void *p = realloc(set->v, want * sizeof(*set->v));
        if (!p)
            return -1;
        set->v = p;
        set->alloc = want;
    }
    void *copy = malloc(size);
    if (!copy)
        return -1;
    memcpy(copy, rec, size);
    set->v[set->n] = (struct layout_entry){mod->id, ((const struct iolens_record_base *)rec)->id,
                                           set->n, copy};
    set->n++;
    return 0;
}

static int by_mod_id_seq(const void *a, const void *b)
{
    const struct layout_entry *x = a, *y = b;
    if (x->mod != y->mod)
        return x->mod > y->mod ? 1 : -1;
    if (x->id != y->id)
        return x->id > y->id ? 1 : -1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The record of module mod for a file, or NULL. When several ranks recorded
 * the same file (they describe the same layout), the one read last is used. */
static const void *layout_find(const struct layout_set *set, int mod, uint64_t id)
{
    size_t lo = 0, hi = set->n;
    while (lo < hi) { /* find the first entry past (mod, id) */
        size_t mid = lo + (hi - lo) / 2;
        const struct layout_entry *e = &set->v[mid];
        if (e->mod < mod || (e->mod == mod && e->id <= id))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || set->v[lo - 1].mod != mod || set->v[lo - 1].id != id)
        return NULL;
    return set->v[lo - 1].rec;
}

/* Is module id the layout module of some trace module? */
static int is_layout_module(int id)
{
    for (int t = 0; t < IOLENS_MAX_MODS; t++) {
        const struct iolens_module_desc *mod = iolens_module(t);
        if (mod && mod->trace && mod->layout_module != IOLENS_MOD_NULL &&
            (int)mod->layout_module == id)
            return 1;
    }
    return 0;
}

/* Read every record of layout module id into set. @return 0, or -1 after an error. */
static int load_layouts(iolens_log *log, int id, struct layout_set *set, const char *path)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    const void *rec;
    iolens_status st;

    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
        if (layout_set_add(set, mod, rec) < 0) {
            cli_error(path, "out of memory keeping the %s records", mod->name);
            return -1;
        }
    }
    if (st != IOLENS_END) {
        cli_error(path, "%s", iolens_log_error(log));
        return -1;
    }
    qsort(set->v, set->n, sizeof(*set->v), by_mod_id_seq);
    return 0;
}

/* Print every record of trace module id. @return 0, or -1 after a read error. */
static int print_traces(iolens_log *log, int id, const struct layout_set *set, const char *path)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    const void *rec;
    iolens_status st;

    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
        uint64_t file = ((const struct iolens_record_base *)rec)->id;
        struct iolens_print_ctx ctx = cli_print_ctx(log, mod, file);
        if (mod->layout_module != IOLENS_MOD_NULL)
            ctx.layout = layout_find(set, mod->layout_module, file);
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

/* Does the log hold records of a trace module? */
static int has_traces(const struct iolens_log_info *in)
{
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        if (mod && mod->trace && in->mod_map[id].len)
            return 1;
    }
    return 0;
}

static int run(iolens_log *log, int show_incomplete, const char *path, struct layout_set *set)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);

    if (iolens_log_load_names(log) != IOLENS_OK)
        return cli_error(path, "%s", iolens_log_error(log));
    cli_print_log_header(stdout, log);
    if (!has_traces(in)) {
        printf("\n# this log holds no DXT trace data.\n");
        return 0;
    }

    /* A layout module's id is below those of the traces that use it, so its
     * records are known by the time they are needed. */
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const char *name = iolens_module_name(id);
        const struct iolens_module_desc *mod = iolens_module(id);
        int trace = mod && mod->trace;
        if (in->mod_map[id].len == 0)
            continue;
        if (!name) {
            fprintf(stderr, "# warning: module id %d is unknown to this version of iolens; "
                            "skipping it\n", id);
            continue;
        }
        if (!trace && !is_layout_module(id))
            continue;
        if (trace) {
            printf("\n# ***************************************************\n");
            printf("# %s module data\n", name);
            printf("# ***************************************************\n");
        }
        if ((in->partial_flags >> id) & 1) {
            int rc = check_partial(name, show_incomplete, path);
            if (rc)
                return rc;
        }
        int failed = trace ? print_traces(log, id, set, path) : load_layouts(log, id, set, path);
        if (failed)
            return 1;
    }
    return 0;
}

/* Print the traces of the log at path; show_incomplete is an int *.
 * @return its exit status. */
static int dxt_one(const char *path, void *show_incomplete)
{
    struct layout_set set = {NULL, 0, 0};
    iolens_log *log = cli_open_log(path);
    if (!log)
        return 1;
    int rc = run(log, *(int *)show_incomplete, path, &set);
    layout_set_free(&set);
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
