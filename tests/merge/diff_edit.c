/* Make a changed copy of a log for iolens diff's test, and print the lines
 * iolens diff must print for it: in the first module of fixed-size records,
 * the first record's first counter is raised by one and the last record is
 * left out; everything else is copied as it is (at the newest version).
 *
 *   diff_edit IN OUT > expected */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"

struct line {
    uint64_t id;
    int64_t rank;
    char text[4400];
};

static int cmp_line(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int copy_names(uint64_t id, const char *name, void *w)
{
    return iolens_writer_put_name(w, id, name) != IOLENS_OK;
}

/* The records of module m, the chosen module's first changed and last left
 * out (chosen only with two records or more). @return 0, 1 if chosen has too
 * few records, -1 on an error. */
static int copy_module(iolens_log *log, iolens_log_writer *w, int m, int chosen,
                       struct line out[2])
{
    const struct iolens_module_desc *d = iolens_module(m);
    unsigned char **recs = NULL;
    size_t n = 0, cap = 0;
    const void *rec;
    iolens_status st;
    int rc = -1;

    while ((st = iolens_log_next_record(log, m, &rec)) == IOLENS_OK) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            unsigned char **more = realloc(recs, cap * sizeof(*recs));
            if (!more)
                goto out;
            recs = more;
        }
        if (!(recs[n] = malloc(iolens_record_size(d, rec))))
            goto out;
        memcpy(recs[n++], rec, iolens_record_size(d, rec));
    }
    if (st != IOLENS_END)
        goto out;
    if (chosen && n < 2) {
        chosen = 0;
        rc = 1;
    }
    for (size_t k = 0; k < n; k++) {
        const struct iolens_record_base *b = (const void *)recs[k];
        const char *name = iolens_log_name(log, b->id);
        if (chosen && (k == 0 || k == n - 1)) {
            struct line *l = &out[k == 0 ? 0 : 1];
            l->id = b->id;
            l->rank = b->rank;
            if (k == n - 1) {
                snprintf(l->text, sizeof(l->text), "%s\t%lld\t%llu\t%s\tonly in A\n", d->name,
                         (long long)b->rank, (unsigned long long)b->id,
                         name ? name : "(null)");
                continue;
            }
            int64_t v, v1;
            memcpy(&v, recs[k] + d->counters_offset, 8);
            v1 = v + 1;
            memcpy(recs[k] + d->counters_offset, &v1, 8);
            snprintf(l->text, sizeof(l->text), "%s\t%lld\t%llu\t%s\t%s\t%lld\t%lld\n", d->name,
                     (long long)b->rank, (unsigned long long)b->id, name ? name : "(null)",
                     d->counters[0].name, (long long)v, (long long)v1);
        }
        if (iolens_writer_put_record(w, m, recs[k]) != IOLENS_OK)
            goto out;
    }
    if (rc != 1)
        rc = 0;
out:
    for (size_t k = 0; k < n; k++)
        free(recs[k]);
    free(recs);
    return rc;
}

int main(int argc, char **argv)
{
    iolens_log *log;
    iolens_log_writer *w;
    char detail[256];
    struct line lines[2];
    int chosen = -1;

    if (argc != 3) {
        fprintf(stderr, "usage: diff_edit IN OUT\n");
        return 2;
    }
    if (iolens_log_open(argv[1], &log, detail, sizeof(detail)) != IOLENS_OK ||
        iolens_log_load_names(log) != IOLENS_OK) {
        fprintf(stderr, "diff_edit: %s: cannot read\n", argv[1]);
        return 1;
    }
    const struct iolens_log_info *in = iolens_log_get_info(log);
    if (iolens_writer_create(argv[2], IOLENS_COMP_ZLIB, &w, detail, sizeof(detail)) !=
            IOLENS_OK ||
        iolens_writer_put_job(w, &in->job, in->exe, in->mounts, in->nmounts) != IOLENS_OK ||
        iolens_log_each_name(log, copy_names, w) != 0) {
        fprintf(stderr, "diff_edit: %s: cannot write\n", argv[2]);
        return 1;
    }
    for (int m = 0; m < IOLENS_MAX_MODS; m++) {
        const struct iolens_module_desc *d = iolens_module(m);
        if (!d || !in->mod_map[m].len)
            continue;
        int pick = chosen < 0 && d->record_size && d->ncounters;
        int rc = copy_module(log, w, m, pick, lines);
        if (rc < 0) {
            fprintf(stderr, "diff_edit: %s: cannot copy module %s\n", argv[1], d->name);
            return 1;
        }
        if (pick && rc == 0)
            chosen = m;
        if (in->partial_flags & (1ULL << m))
            iolens_writer_set_partial(w, m);
    }
    if (chosen < 0 || iolens_writer_close(w) != IOLENS_OK) {
        fprintf(stderr, "diff_edit: %s: no module with two records, or cannot write\n",
                argv[1]);
        return 1;
    }
    qsort(lines, 2, sizeof(lines[0]), cmp_line);
    fputs(lines[0].text, stdout);
    fputs(lines[1].text, stdout);
    iolens_log_close(log);
    return 0;
}
