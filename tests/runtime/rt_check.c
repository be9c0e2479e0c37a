/* Checks the logs a run of rt_prog left, with the log library.
 *
 *   rt_check MODE DIR LOG...
 *
 * MODE is rt_prog's mode, DIR the directory it ran in (record names are
 * DIR/...). Prints one line per failed check; exit status 1 if any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"
#include "iolens/modules/posix.h"

#define MAX_RECS 64

struct rec {
    char name[4096];
    struct iolens_posix_record r;
};

struct logdata {
    struct iolens_job job;
    char exe[4096];
    uint64_t partial;
    size_t n;                /* records kept in recs */
    size_t total;            /* POSIX records in the log */
    size_t race, race_uneven; /* fdrace's files, and those not opened and written 4 times */
    struct rec recs[MAX_RECS];
};

static int failed;
static const char *dir;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "rt_check: " __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                                   \
            failed = 1;                                                                            \
        }                                                                                          \
    } while (0)

static int load(const char *path, struct logdata *d)
{
    iolens_log *log;
    char why[256];
    const void *p;
    memset(d, 0, sizeof(*d));
    if (iolens_log_open(path, &log, why, sizeof why) != IOLENS_OK) {
        CHECK(0, "%s: %s", path, why);
        return -1;
    }
    const struct iolens_log_info *in = iolens_log_get_info(log);
    d->job = in->job;
    snprintf(d->exe, sizeof d->exe, "%s", in->exe ? in->exe : "");
    d->partial = in->partial_flags;
    CHECK(iolens_log_load_names(log) == IOLENS_OK, "%s: names", path);
    while (iolens_log_next_record(log, IOLENS_MOD_POSIX, &p) == IOLENS_OK) {
        const struct iolens_posix_record *pr = p;
        const char *name = iolens_log_name(log, pr->base.id);
        if (name && strstr(name, "/race/f")) {
            d->race++;
            d->race_uneven += pr->counters[POSIX_OPENS] != 4 || pr->counters[POSIX_WRITES] != 4;
        }
        if (d->total++ >= MAX_RECS)
            continue;
        struct rec *r = &d->recs[d->n++];
        memcpy(&r->r, p, sizeof r->r);
        snprintf(r->name, sizeof r->name, "%s", name ? name : "?");
    }
    iolens_log_close(log);
    return 0;
}

static const struct iolens_posix_record *find(const struct logdata *d, const char *file)
{
    char want[4096];
    snprintf(want, sizeof want, "%s/%s", dir, file);
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->recs[i].name, want))
            return &d->recs[i].r;
    return NULL;
}

static void eq(const struct iolens_posix_record *r, const char *what, int c, int64_t want)
{
    CHECK(r->counters[c] == want, "%s: counter %d is %lld, expected %lld", what, c,
          (long long)r->counters[c], (long long)want);
}

/* The basic pattern: 10 writes of 100 bytes, lseek 0, 10 reads of 100 bytes. */
static void check_basic(const struct logdata *d, const char *file, int closed)
{
    const struct iolens_posix_record *r = find(d, file);
    CHECK(r != NULL, "no record for %s/%s", dir, file);
    if (!r)
        return;
    eq(r, file, POSIX_OPENS, 1);
    eq(r, file, POSIX_WRITES, 10);
    eq(r, file, POSIX_READS, 10);
    eq(r, file, POSIX_SEEKS, 1);
    eq(r, file, POSIX_BYTES_WRITTEN, 1000);
    eq(r, file, POSIX_BYTES_READ, 1000);
    eq(r, file, POSIX_MAX_BYTE_WRITTEN, 999);
    eq(r, file, POSIX_MAX_BYTE_READ, 999);
    eq(r, file, POSIX_SEQ_WRITES, 9);
    eq(r, file, POSIX_CONSEC_WRITES, 9);
    eq(r, file, POSIX_SEQ_READS, 9);
    eq(r, file, POSIX_CONSEC_READS, 9);
    eq(r, file, POSIX_RW_SWITCHES, 1);
    eq(r, file, POSIX_SIZE_WRITE_0_100, 10);
    eq(r, file, POSIX_SIZE_WRITE_100_1K, 0);
    eq(r, file, POSIX_SIZE_READ_0_100, 10);
    eq(r, file, POSIX_ACCESS1_ACCESS, 100);
    eq(r, file, POSIX_ACCESS1_COUNT, 20);
    eq(r, file, POSIX_ACCESS2_COUNT, 0);
    eq(r, file, POSIX_STRIDE1_COUNT, 0);
    eq(r, file, POSIX_MODE, 0644);
    eq(r, file, POSIX_MEM_ALIGNMENT, 8);
    eq(r, file, POSIX_MMAPS, 0);
    eq(r, file, POSIX_MAX_WRITE_TIME_SIZE, 100);
    const double *f = r->fcounters;
    CHECK(f[POSIX_F_OPEN_START_TIMESTAMP] > 0, "%s: no open time", file);
    CHECK(f[POSIX_F_OPEN_START_TIMESTAMP] <= f[POSIX_F_WRITE_START_TIMESTAMP] &&
              f[POSIX_F_WRITE_START_TIMESTAMP] <= f[POSIX_F_WRITE_END_TIMESTAMP] &&
              f[POSIX_F_WRITE_END_TIMESTAMP] <= f[POSIX_F_READ_START_TIMESTAMP] &&
              f[POSIX_F_READ_START_TIMESTAMP] <= f[POSIX_F_READ_END_TIMESTAMP],
          "%s: timestamps out of order", file);
    CHECK(f[POSIX_F_WRITE_TIME] > 0 && f[POSIX_F_READ_TIME] > 0 && f[POSIX_F_META_TIME] > 0,
          "%s: zero times", file);
    if (closed)
        CHECK(f[POSIX_F_CLOSE_END_TIMESTAMP] >= f[POSIX_F_READ_END_TIMESTAMP],
              "%s: close time", file);
}

static void check_job(const struct logdata *d)
{
    CHECK(d->job.nprocs == 1, "nprocs %lld", (long long)d->job.nprocs);
    CHECK(d->job.jobid > 0, "jobid %lld", (long long)d->job.jobid);
    CHECK(strstr(d->exe, "rt_prog") != NULL, "exe \"%s\"", d->exe);
    CHECK(strstr(d->job.metadata, "lib_ver=") != NULL, "metadata \"%s\"", d->job.metadata);
    CHECK(d->job.end_time_sec >= d->job.start_time_sec, "end before start");
}

static void check_threads(const struct logdata *d)
{
    char name[64];
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "thread%d.dat", i);
        const struct iolens_posix_record *r = find(d, name);
        CHECK(r != NULL, "no record for %s", name);
        if (!r)
            continue;
        eq(r, name, POSIX_WRITES, 20000);
        eq(r, name, POSIX_BYTES_WRITTEN, 20000 * 64);
        eq(r, name, POSIX_CONSEC_WRITES, 19999);
        eq(r, name, POSIX_MAX_BYTE_WRITTEN, 20000 * 64 - 1);
        eq(r, name, POSIX_ACCESS1_COUNT, 20000);
    }
    const struct iolens_posix_record *s = find(d, "shared.dat");
    CHECK(s != NULL, "no record for shared.dat");
    if (s) {
        eq(s, "shared.dat", POSIX_WRITES, 4 * 20000);
        eq(s, "shared.dat", POSIX_BYTES_WRITTEN, 4 * 20000 * 64);
        eq(s, "shared.dat", POSIX_MAX_BYTE_WRITTEN, 4 * 20000 * 64 - 1);
        eq(s, "shared.dat", POSIX_ACCESS1_COUNT, 4 * 20000);
        eq(s, "shared.dat", POSIX_SIZE_WRITE_0_100, 4 * 20000);
    }
}

/* The clock run: the span of the writes in the log is the span the program
 * measured (clock.txt), within a few ticks of 2^-22 s (rt_prog clock_span). */
static void check_clock(const struct logdata *d)
{
    const struct iolens_posix_record *r = find(d, "clock.dat");
    char path[4096];
    long long ns = -1;
    snprintf(path, sizeof path, "%s/clock.txt", dir);
    FILE *f = fopen(path, "r");
    CHECK(f && fscanf(f, "%lld", &ns) == 1, "cannot read %s", path);
    if (f)
        fclose(f);
    CHECK(r != NULL, "no record for clock.dat");
    if (!r || ns < 0)
        return;
    eq(r, "clock.dat", POSIX_WRITES, 5);
    double span = r->fcounters[POSIX_F_WRITE_END_TIMESTAMP] -
                  r->fcounters[POSIX_F_WRITE_START_TIMESTAMP];
    double want = (double)ns * 1e-9;
    /* The program's span holds the log's, plus two clock reads and what
     * comes before the first write's clock read: the log's span can only be
     * a little shorter (more if the program was preempted there). A clock
     * running 0.05% fast is 150 us too long here. */
    CHECK(span <= want + 4e-6 && span >= want - 1e-3, "write span %.9f s, measured %.9f s",
          span, want);
    CHECK(r->fcounters[POSIX_F_WRITE_TIME] >= 0 && r->fcounters[POSIX_F_WRITE_TIME] < 0.05,
          "write time %.9f s", r->fcounters[POSIX_F_WRITE_TIME]);
    CHECK(r->fcounters[POSIX_F_OPEN_START_TIMESTAMP] <=
              r->fcounters[POSIX_F_WRITE_START_TIMESTAMP],
          "open after the first write");
}

/* rt_prog namekeys: two pairs of names sharing a name-cache tag; in each,
 * one name opened twice, written once and statted 3 times, the other
 * opened twice, written twice and statted 5 times. A pair taken for one
 * name would show one record of 4 opens, 3 writes and 8 stats. */
static void check_namekeys(const struct logdata *d)
{
    char prefix[4096];
    int small = 0, large = 0;
    snprintf(prefix, sizeof prefix, "%s/k", dir);
    for (size_t i = 0; i < d->n; i++) {
        const struct iolens_posix_record *r = &d->recs[i].r;
        if (strncmp(d->recs[i].name, prefix, strlen(prefix)))
            continue;
        int64_t writes = r->counters[POSIX_WRITES], stats = r->counters[POSIX_STATS];
        if (writes == 1 && stats == 3)
            small++;
        else if (writes == 2 && stats == 5)
            large++;
        else
            CHECK(0, "%s: %lld writes and %lld stats, expected 1 and 3 or 2 and 5",
                  d->recs[i].name, (long long)writes, (long long)stats);
        eq(r, d->recs[i].name, POSIX_OPENS, 2);
    }
    CHECK(small == 2 && large == 2, "%d and %d records of the two kinds, expected 2 and 2", small,
          large);
}

int main(int argc, char **argv)
{
    static struct logdata logs[4];
    if (argc < 3) {
        fprintf(stderr, "usage: rt_check MODE DIR LOG...\n");
        return 2;
    }
    const char *mode = argv[1];
    dir = argv[2];
    int n = argc - 3;
    if (n > 4)
        n = 4;
    for (int i = 0; i < n; i++)
        if (load(argv[3 + i], &logs[i]) == 0)
            check_job(&logs[i]);
    /* execpath: the execs that failed leave no log of their own; an image
     * without records leaves none before its exec */
    int want_logs = !strcmp(mode, "fork") || !strcmp(mode, "exec") || !strcmp(mode, "execpath")
                        ? 2 : 1;
    CHECK(n == want_logs, "%d logs, expected %d", n, want_logs);
    if (failed || n != want_logs)
        return 1;

    if (!strcmp(mode, "basic") || !strcmp(mode, "segv") || !strcmp(mode, "sigchain") ||
        !strcmp(mode, "live")) {
        check_basic(&logs[0], "basic.dat", 1);
        CHECK(logs[0].partial == 0, "partial flags %llx", (unsigned long long)logs[0].partial);
    } else if (!strcmp(mode, "kill")) {
        check_basic(&logs[0], "basic.dat", 0);
        /* No record was lost: not partial; but the log says the process was killed. */
        CHECK(logs[0].partial == 0, "recovered log marked partial (%llx)",
              (unsigned long long)logs[0].partial);
        CHECK(strstr(logs[0].job.metadata, "iolens_killed=1\n") != NULL,
              "recovered log without iolens_killed=1 in its metadata");
    } else if (!strcmp(mode, "threads")) {
        check_threads(&logs[0]);
    } else if (!strcmp(mode, "errno")) {
        CHECK(find(&logs[0], "errno.dat") != NULL, "no record for errno.dat");
        CHECK(logs[0].n == 1, "%zu records, expected only errno.dat", logs[0].n);
    } else if (!strcmp(mode, "execpath_empty")) {
        check_basic(&logs[0], "basic2.dat", 1);
    } else if (!strcmp(mode, "exec") || !strcmp(mode, "execpath")) {
        int first = find(&logs[0], "basic.dat") != NULL ? 0 : 1;
        check_basic(&logs[first], "basic.dat", 1);
        check_basic(&logs[1 - first], "basic2.dat", 1);
        CHECK(logs[0].job.jobid == logs[1].job.jobid, "exec changed the job id");
    } else if (!strcmp(mode, "fork")) {
        int parent = strstr(logs[0].job.metadata, "fork_parent=") ? 1 : 0;
        const struct logdata *c = &logs[1 - parent];
        check_basic(&logs[parent], "basic.dat", 1);
        const struct iolens_posix_record *inh = find(c, "basic.dat");
        const struct iolens_posix_record *own = find(c, "child.dat");
        CHECK(inh && own, "child log lacks basic.dat or child.dat");
        if (inh && own) {
            eq(inh, "child basic.dat", POSIX_OPENS, 1);
            eq(inh, "child basic.dat", POSIX_WRITES, 1);
            eq(inh, "child basic.dat", POSIX_BYTES_WRITTEN, 50);
            eq(inh, "child basic.dat", POSIX_MAX_BYTE_WRITTEN, 1049);
            eq(own, "child.dat", POSIX_OPENS, 1);
            eq(own, "child.dat", POSIX_BYTES_WRITTEN, 70);
        }
        const struct iolens_posix_record *thr = find(c, "forked.dat");
        CHECK(thr != NULL, "child log lacks forked.dat");
        if (thr) {
            eq(thr, "child forked.dat", POSIX_WRITES, 4 * 500);
            eq(thr, "child forked.dat", POSIX_BYTES_WRITTEN, 4 * 500 * 8);
        }
    } else if (!strcmp(mode, "million")) {
        /* The first names fill the default pool; the log says it is partial. */
        CHECK(logs[0].total == 131072, "%zu POSIX records, expected the default limit 131072",
              logs[0].total);
        CHECK(logs[0].partial & (1u << IOLENS_MOD_POSIX), "POSIX not marked partial");
        const struct iolens_posix_record *r = find(&logs[0], "t/f000");
        CHECK(r != NULL, "no record for the first file");
        if (r)
            eq(r, "t/f000", POSIX_OPENS, 1);
    } else if (!strcmp(mode, "namekeys")) {
        check_namekeys(&logs[0]);
    } else if (!strcmp(mode, "fdrace")) {
        /* A close that forgot its descriptor after the real close could take
         * the mapping another thread had just made for the same number: its
         * writes then went to a record of another file. */
        CHECK(logs[0].race == 20000, "%zu records of race/f*, expected 20000", logs[0].race);
        CHECK(logs[0].race_uneven == 0, "%zu of them not opened and written 4 times",
              logs[0].race_uneven);
    } else if (!strcmp(mode, "chdir")) {
        /* The record file grew (reopened by name) after the chdir: every
         * file has its record, and the log is where LOGPATH named at start. */
        CHECK(logs[0].partial == 0, "log marked partial (0x%llx)",
              (unsigned long long)logs[0].partial);
        CHECK(logs[0].total >= 3001, "%zu POSIX records, expected first.dat and 3000 files",
              logs[0].total);
        const struct iolens_posix_record *r = find(&logs[0], "first.dat");
        CHECK(r != NULL, "no record for first.dat");
        if (r)
            eq(r, "first.dat", POSIX_WRITES, 1);
    } else if (!strcmp(mode, "sigrecords")) {
        /* Every file made has its record, whole; the handler's I/O that
         * found its own thread making a record was skipped, not counted as
         * dropped (the log is not partial). */
        CHECK(logs[0].partial == 0, "log marked partial (0x%llx)",
              (unsigned long long)logs[0].partial);
        CHECK(logs[0].total >= 10001, "%zu POSIX records, expected 10000 files and sig.dat",
              logs[0].total);
        const struct iolens_posix_record *sig = find(&logs[0], "sig.dat");
        CHECK(sig && sig->counters[POSIX_WRITES] > 0, "no writes to sig.dat recorded");
        char prefix[4096];
        snprintf(prefix, sizeof prefix, "%s/r", dir);
        for (size_t i = 0; i < logs[0].n; i++) {
            if (strncmp(logs[0].recs[i].name, prefix, strlen(prefix)))
                continue;
            eq(&logs[0].recs[i].r, logs[0].recs[i].name, POSIX_OPENS, 1);
            eq(&logs[0].recs[i].r, logs[0].recs[i].name, POSIX_WRITES, 1);
        }
    } else if (!strcmp(mode, "clock")) {
        check_clock(&logs[0]);
    } else {
        CHECK(0, "unknown mode %s", mode);
    }
    return failed;
}
