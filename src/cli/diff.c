/* iolens diff: what differs between two logs, record by record (matched by
 * module, record id and rank) and counter by counter, and in the job data.
 * Exit status as diff's: 0 equal, 1 different, 2 trouble. The records' fields
 * come from diff_fields.c. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"

static const char diff_usage[] =
    "usage: iolens diff [--ignore-timers] [--json] A B\n"
    "\n"
    "Compare logs A and B. Records are matched by module, record id and rank; for\n"
    "each pair that differs, one line per counter that differs:\n"
    "  MODULE<TAB>RANK<TAB>ID<TAB>NAME<TAB>COUNTER<TAB>A's value<TAB>B's value\n"
    "a record only one log has:\n"
    "  MODULE<TAB>RANK<TAB>ID<TAB>NAME<TAB>only in A (or: only in B)\n"
    "and before them the job data that differ (uid, job id, start and end time,\n"
    "number of processes, partial modules, command line, each metadata key and\n"
    "each mount point):\n"
    "  job<TAB>FIELD<TAB>A's value<TAB>B's value\n"
    "Integers are printed as they are, floating-point values with as many digits as\n"
    "tell them apart; \"-\": the record has no such field. HEATMAP records compare\n"
    "their bin width, number of bins and each bin (HEATMAP_WRITE_BIN_k,\n"
    "HEATMAP_READ_BIN_k); DXT records their host name, counts and each segment\n"
    "(DXT_WRITE_k_OFFSET, ..._LENGTH, ..._START_TIME, ..._END_TIME, ..._THREAD).\n"
    "How a log is stored (format version, compression, byte order) is not compared:\n"
    "records of older versions are compared as this library reads them. Records of a\n"
    "module this iolens has no definition of are not compared (with a note).\n"
    "  --ignore-timers  leave out the timers: floating-point counters ending in\n"
    "                   _TIME or _TIMESTAMP, DXT segments' start and end times,\n"
    "                   HEATMAP records' bins (bytes per time bin), and the job's\n"
    "                   start and end time\n"
    "  --json           one JSON object: {\"equal\": true|false, \"differences\":\n"
    "                   [{\"kind\": \"job\", \"field\", \"a\", \"b\"}, {\"kind\": \"counter\",\n"
    "                   \"module\", \"rank\", \"id\", \"name\", \"counter\", \"a\", \"b\"},\n"
    "                   {\"kind\": \"record\", \"module\", \"rank\", \"id\", \"name\",\n"
    "                   \"only_in\": \"A\"|\"B\"}]} (values as strings)\n"
    "\n"
    "Exit status: 0 when the logs are equal, 1 when they differ, 2 when a log cannot\n"
    "be read or for wrong usage.\n";

static void start_item(struct diff_out *o, const char *kind)
{
    if (o->json)
        printf("%s{\"kind\": \"%s\"", o->ndiff ? ",\n  " : "\n  ", kind);
    o->ndiff++;
}

static void json_field(const char *key, const char *v)
{
    printf(", \"%s\": ", key);
    cli_json_string(stdout, v ? v : "");
}

void diff_job_line(struct diff_out *o, const char *field, const char *a, const char *b)
{
    start_item(o, "job");
    if (o->json) {
        json_field("field", field);
        json_field("a", a);
        json_field("b", b);
        printf("}");
    } else {
        printf("job\t%s\t%s\t%s\n", field, a, b);
    }
}

/* The columns that name a record. */
static void record_cols(struct diff_out *o, const char *mod, int64_t rank, uint64_t id,
                        const char *name)
{
    char r[32], i[32];
    snprintf(r, sizeof(r), "%lld", (long long)rank);
    snprintf(i, sizeof(i), "%llu", (unsigned long long)id);
    if (o->json) {
        json_field("module", mod);
        printf(", \"rank\": %s, \"id\": \"%s\"", r, i);
        json_field("name", name);
    } else {
        printf("%s\t%s\t%s\t%s\t", mod, r, i, name);
    }
}

static void counter_line(struct diff_out *o, const char *mod, const struct diff_rec *r,
                         const char *name, const char *counter, const char *a, const char *b)
{
    start_item(o, "counter");
    record_cols(o, mod, r->rank, r->id, name);
    if (o->json) {
        json_field("counter", counter);
        json_field("a", a);
        json_field("b", b);
        printf("}");
    } else {
        printf("%s\t%s\t%s\n", counter, a, b);
    }
}

static void only_line(struct diff_out *o, const char *mod, const struct diff_rec *r, const char *name,
                      const char *side)
{
    start_item(o, "record");
    record_cols(o, mod, r->rank, r->id, name);
    if (o->json) {
        json_field("only_in", side);
        printf("}");
    } else {
        printf("only in %s\n", side);
    }
}

static const char *name_of(iolens_log *a, iolens_log *b, uint64_t id)
{
    const char *n = iolens_log_name(a, id);
    return n ? n : (n = iolens_log_name(b, id)) ? n : "(null)";
}

static int cmp_field_name(const void *a, const void *b)
{
    return strcmp((*(const struct diff_field *const *)a)->name,
                  (*(const struct diff_field *const *)b)->name);
}

/* B's field of the name A's field k has: the one at k when the records have
 * the same shape, else found by name in byname (B's fields sorted by name,
 * made at the first need). @return it, or NULL if B has none. */
static const struct diff_field *match(const struct diff_fields *fa, const struct diff_fields *fb,
                                      size_t k, const struct diff_field ***byname)
{
    const struct diff_field *p = &fa->v[k], *key = p;
    if (k < fb->n && strcmp(fb->v[k].name, p->name) == 0)
        return &fb->v[k];
    if (!*byname) {
        if (!(*byname = malloc((fb->n ? fb->n : 1) * sizeof(**byname))))
            return NULL;
        for (size_t i = 0; i < fb->n; i++)
            (*byname)[i] = &fb->v[i];
        qsort(*byname, fb->n, sizeof(**byname), cmp_field_name);
    }
    const struct diff_field **hit = bsearch(&key, *byname, fb->n, sizeof(**byname),
                                            cmp_field_name);
    return hit ? *hit : NULL;
}

/* Compare two records of one id and rank, field by field (matched by name).
 * @return 0, or -1 without memory. */
static int compare_pair(struct diff_out *o, const struct iolens_module_desc *d, const char *name,
                        const struct diff_rec *x, const struct diff_rec *y, int ignore_timers)
{
    struct diff_fields fa, fb;
    const struct diff_field **byname = NULL;
    unsigned char *seen = NULL;

    if (diff_fields(d, x->rec, &fa) != 0)
        return -1;
    if (diff_fields(d, y->rec, &fb) != 0 || !(seen = calloc(fb.n + 1, 1))) {
        diff_fields_free(&fa);
        diff_fields_free(&fb);
        return -1;
    }
    for (size_t k = 0; k < fa.n; k++) {
        const struct diff_field *p = &fa.v[k], *q = match(&fa, &fb, k, &byname);
        if (q)
            seen[q - fb.v] = 1;
        if ((ignore_timers && p->timer) || (q && strcmp(p->value, q->value) == 0))
            continue;
        counter_line(o, d->name, x, name, p->name, p->value, q ? q->value : "-");
    }
    for (size_t k = 0; k < fb.n; k++)
        if (!seen[k] && !(ignore_timers && fb.v[k].timer))
            counter_line(o, d->name, x, name, fb.v[k].name, "-", fb.v[k].value);
    free(seen);
    free(byname);
    diff_fields_free(&fa);
    diff_fields_free(&fb);
    return 0;
}

/* Module m of both logs. @return 0, or -1 if a log cannot be read. */
static int compare_module(struct diff_out *o, iolens_log *a, iolens_log *b, int m, int ignore_timers)
{
    const struct iolens_module_desc *d = iolens_module(m);
    struct diff_recs ra = {0}, rb = {0};
    int rc = -1;

    if (!d) {
        if (iolens_log_get_info(a)->mod_map[m].len || iolens_log_get_info(b)->mod_map[m].len)
            cli_say("note: module id %d not compared: this iolens cannot read its records", m);
        return 0;
    }
    if (diff_read(a, m, &ra) != 0 || diff_read(b, m, &rb) != 0)
        goto out;
    size_t i = 0, j = 0;
    while (i < ra.n || j < rb.n) {
        int c = i == ra.n ? 1 : j == rb.n ? -1 : diff_rec_cmp(&ra.v[i], &rb.v[j]);
        const struct diff_rec *r = c <= 0 ? &ra.v[i] : &rb.v[j];
        const char *name = name_of(a, b, r->id);
        if (c < 0)
            only_line(o, d->name, r, name, "A");
        else if (c > 0)
            only_line(o, d->name, r, name, "B");
        else if (compare_pair(o, d, name, &ra.v[i], &rb.v[j], ignore_timers) != 0)
            goto out;
        i += c <= 0;
        j += c >= 0;
    }
    rc = 0;
out:
    diff_recs_free(&ra);
    diff_recs_free(&rb);
    return rc;
}

int cli_diff(int argc, char **argv)
{
    static const struct option opts[] = {
        {"ignore-timers", no_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {NULL, 0, NULL, 0},
    };
    struct diff_out o = {0};
    int ignore_timers = 0, c, rc = 2;

    optind = 1;
    while ((c = cli_getopt("diff", argc, argv, ":", opts)) != -1) {
        switch (c) {
        case 't': ignore_timers = 1; break;
        case 'j': o.json = 1; break;
        default: return 2;
        }
    }
    if (argc - optind != 2)
        return cli_usage_error("diff", "two logs expected, %d given", argc - optind);
    const char *pa = argv[optind], *pb = argv[optind + 1];
    iolens_log *a = cli_open_log(pa), *b = a ? cli_open_log(pb) : NULL;
    if (!a || !b)
        goto out;
    if (iolens_log_load_names(a) != IOLENS_OK || iolens_log_load_names(b) != IOLENS_OK) {
        cli_error(iolens_log_error(a)[0] ? pa : pb, "%s",
                  iolens_log_error(a)[0] ? iolens_log_error(a) : iolens_log_error(b));
        goto out;
    }
    if (o.json)
        printf("{\"differences\": [");
    diff_job(&o, a, b, ignore_timers);
    for (int m = 0; m < IOLENS_MAX_MODS; m++) {
        if (compare_module(&o, a, b, m, ignore_timers) != 0) {
            int bad_a = iolens_log_error(a)[0] != 0;
            if (o.json)
                printf("]}\n");
            cli_error(bad_a ? pa : pb, "%s", iolens_log_error(bad_a ? a : b)[0]
                                                ? iolens_log_error(bad_a ? a : b)
                                                : "out of memory");
            goto out;
        }
    }
    if (o.json)
        printf("%s], \"equal\": %s}\n", o.ndiff ? "\n" : "", o.ndiff ? "false" : "true");
    rc = fflush(stdout) != 0 ? 2 : o.ndiff ? 1 : 0;
out:
    if (b)
        iolens_log_close(b);
    if (a)
        iolens_log_close(a);
    return rc;
}

const struct cli_verb cli_diff_verb = {
    .name = "diff",
    .summary = "compare two logs record by record and counter by counter",
    .usage = diff_usage,
    .run = cli_diff,
};
