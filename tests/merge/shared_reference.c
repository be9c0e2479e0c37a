/* iolens_combine_shared (what iolens merge reduces a shared file's records
 * with) against the reference runtime: for every shared record of the MPI
 * workloads in ../unit/reduce-data (the four records Darshan 3.5.0's ranks
 * put into its reduction under Open MPI 4.1 and the rank -1 record its log
 * holds; README.md there), the four ranks' records given to
 * iolens_combine_shared must give the log's record bit for bit: every
 * counter, timers, fastest and slowest rank and both variances included.
 *
 *   shared_reference DIR */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/combine.h"
#include "iolens/log.h"

struct rec {
    _Alignas(8) unsigned char b[2048];
};

static int failures;

static const struct iolens_module_desc *mod_named(const char *name)
{
    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        const struct iolens_module_desc *m = iolens_module(id);
        if (m && strcmp(m->name, name) == 0)
            return m;
    }
    return NULL;
}

/* "TAG ID RANK COUNTERS... FCOUNTERS..." into r; rank is set to rank. */
static int parse_rec(const struct iolens_module_desc *m, const char *line, const char *tag,
                     int64_t rank, struct rec *r)
{
    char *end;
    size_t n = strlen(tag);
    struct iolens_record_base b;
    if (strncmp(line, tag, n) != 0 || line[n] != ' ')
        return -1;
    memset(r, 0, sizeof(*r));
    b.id = strtoull(line + n, &end, 10);
    b.rank = strtoll(end, &end, 10);
    if (rank >= 0)
        b.rank = rank;
    memcpy(r->b, &b, sizeof(b));
    for (size_t i = 0; i < m->ncounters + m->nfcounters; i++) {
        const char *p = end;
        if (i < m->ncounters) {
            int64_t v = strtoll(p, &end, 10);
            memcpy(r->b + m->counters_offset + 8 * i, &v, 8);
        } else {
            double v = strtod(p, &end);
            memcpy(r->b + m->fcounters_offset + 8 * (i - m->ncounters), &v, 8);
        }
        if (end == p)
            return -1;
    }
    return 0;
}

/* The first word where a and b differ, named, or NULL. */
static const char *first_difference(const struct iolens_module_desc *m, const struct rec *a,
                                    const struct rec *b)
{
    if (memcmp(a->b, b->b, sizeof(struct iolens_record_base)) != 0)
        return "the base (id, rank)";
    for (size_t i = 0; i < m->ncounters; i++)
        if (memcmp(a->b + m->counters_offset + 8 * i, b->b + m->counters_offset + 8 * i, 8))
            return m->counters[i].name;
    for (size_t i = 0; i < m->nfcounters; i++)
        if (memcmp(a->b + m->fcounters_offset + 8 * i, b->b + m->fcounters_offset + 8 * i, 8))
            return m->fcounters[i].name;
    return NULL;
}

/* One workload's file: count its shared records per module, then reduce each. */
static size_t check_file(const char *dir, const char *file)
{
    static char line[65536];
    char path[4096], name[4096], modname[32];
    size_t nshared[IOLENS_MAX_MODS] = {0}, checked = 0;
    snprintf(path, sizeof(path), "%s/%s.txt", dir, file);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        printf("FAIL: cannot open %s\n", path);
        failures++;
        return 0;
    }
    /* The message size (and so the order) depends on how many records of the
     * module were reduced together: those here, and the standard streams'
     * STDIO records named in the remarks. */
    while (fgets(line, sizeof(line), fp)) {
        const struct iolens_module_desc *m;
        if (sscanf(line, "record %31s", modname) == 1 && (m = mod_named(modname)))
            nshared[m->id]++;
        else if (line[0] == '#' && strstr(line, "STDIO"))
            nshared[IOLENS_MOD_STDIO]++;
    }
    rewind(fp);
    while (fgets(line, sizeof(line), fp)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        const struct iolens_module_desc *m = NULL;
        struct rec in[4], want, got;
        const void *ops[4];
        int bad = sscanf(line, "record %31s %4095[^\n]", modname, name) != 2 ||
                  !(m = mod_named(modname));
        for (int k = 0; k < 5 && !bad; k++) {
            char tag[8];
            snprintf(tag, sizeof(tag), k < 4 ? "in%d" : "out", k);
            bad = !fgets(line, sizeof(line), fp) ||
                  parse_rec(m, line, tag, k < 4 ? k : -1, k < 4 ? &in[k] : &want) != 0;
        }
        if (bad) {
            printf("FAIL: %s: malformed near: %.60s\n", path, line);
            failures++;
            break;
        }
        for (int k = 0; k < 4; k++)
            ops[k] = in[k].b;
        memset(&got, 0, sizeof(got));
        if (iolens_combine_shared(m, ops, 4, nshared[m->id], got.b) != IOLENS_OK) {
            printf("FAIL: %s: %s: iolens_combine_shared refused %s\n", file, name, m->name);
            failures++;
            continue;
        }
        const char *diff = first_difference(m, &got, &want);
        if (diff) {
            printf("FAIL: %s: %s %s: %s differs from the reference's\n", file, m->name, name,
                   diff);
            failures++;
        }
        checked++;
    }
    fclose(fp);
    return checked;
}

int main(int argc, char **argv)
{
    static const char *const files[] = {"indep_at", "coll_at",    "strided_view", "nonblocking",
                                        "shared_fp", "fortran_io", "mixed"};
    size_t n = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: shared_reference DIR\n");
        return 2;
    }
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++)
        n += check_file(argv[1], files[f]);
    if (n < 20) {
        printf("FAIL: only %zu shared records checked (expected at least 20)\n", n);
        failures++;
    }
    printf("%zu shared records reduced as the reference runtime reduced them, %d failure(s)\n",
           n, failures);
    return failures ? 1 : 0;
}
