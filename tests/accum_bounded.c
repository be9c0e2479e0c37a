/* The accumulator's bounded file table (src/format/accumulate.c,
 * docs/report.md "Bounds"). On a synthetic log with more files than a small
 * table holds (POSIX, STDIO and MPI-IO records; files read, written, both or
 * neither, of one rank, of several, shared, shared and per rank):
 * 1. each module's metrics and totals counted in many passes equal those of
 *    one pass with a table large enough for every file;
 * 2. the job summary's (iolens report's and insights' data), made without
 *    file counts (no file table, one pass), equal them but for the file
 *    counts, which it leaves zero;
 * 3. counting the STDIO files (120,000) in a table of 16,384 raises the
 *    process's peak RSS by less than BOUND_KIB, where one table for all of
 *    them raises it by more (else the log is too small to tell, a failure).
 *    Not checked under AddressSanitizer, whose allocator keeps freed memory.
 *
 * usage: accum_bounded DIR   (the log is written in DIR and removed) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "iolens/accumulate.h"
#include "iolens/analysis.h"
#include "iolens/log.h"
#include "iolens/modules/mpiio.h"
#include "iolens/modules/posix.h"
#include "iolens/modules/stdio.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#define NPROCS 16
#define BOUND_KIB 2048

static const struct {
    int id;
    long files;     /* files of the module in the log */
    size_t table;   /* files of the small table: several passes */
} modules[] = {
    {IOLENS_MOD_POSIX, 24000, 3000},
    {IOLENS_MOD_MPIIO, 6000, 700},
    {IOLENS_MOD_STDIO, 120000, 16384}, /* the memory check's: small records */
};
#define MEMORY_MODULE 2
#define NMODULES (sizeof(modules) / sizeof(modules[0]))

static int failures;

static void fail(const char *what, const char *mod)
{
    fprintf(stderr, "FAIL %s: %s\n", mod, what);
    failures++;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void set_c(const struct iolens_module_desc *mod, void *rec, iolens_role r, int64_t v)
{
    if (iolens_role_index(r) >= 0)
        memcpy((char *)rec + mod->counters_offset + 8 * (size_t)iolens_role_index(r), &v, 8);
}

static void set_f(const struct iolens_module_desc *mod, void *rec, iolens_role r, double v)
{
    if (iolens_role_index(r) >= 0)
        memcpy((char *)rec + mod->fcounters_offset + 8 * (size_t)iolens_role_index(r), &v, 8);
}

/* Record of file f (0-based) of mod for rank (-1: shared): its kind of
 * access from f % 4, its figures from f, rank and the module. The shared and
 * even ranks' records of every 101st file say -1 for both highest offsets,
 * which resets the offset figures of the file's kinds (accum_counts.h). */
static void fill(const struct iolens_module_desc *mod, void *rec, long f, int64_t rank)
{
    const struct iolens_module_roles *r = mod->roles;
    uint64_t h = mix((uint64_t)f * 131 + (uint64_t)(rank + 1) * 7 + (uint64_t)mod->id);
    int64_t rd = (f % 4 == 0 || f % 4 == 2) ? (int64_t)(h % 100000) + 1 : 0;
    int64_t wr = (f % 4 == 1 || f % 4 == 2) ? (int64_t)(h >> 20) % 300000 + 1 : 0;
    struct iolens_record_base b = {.id = mix((uint64_t)f ^ 0x5eed) | 1, .rank = rank};

    memset(rec, 0, mod->record_size);
    memcpy(rec, &b, sizeof(b));
    set_c(mod, rec, r->c_bytes_read, rd);
    set_c(mod, rec, r->c_bytes_written, wr);
    set_c(mod, rec, r->c_max_byte_read, rd ? rd + (int64_t)(h % 977) : 0);
    set_c(mod, rec, r->c_max_byte_written, wr ? wr - 1 : 0);
    if (f % 101 == 7 && rank % 2 == 0) {
        set_c(mod, rec, r->c_max_byte_read, -1);
        set_c(mod, rec, r->c_max_byte_written, -1);
    }
    set_f(mod, rec, r->f_read_time, rd ? (double)(h % 1000) / 4096.0 : 0);
    set_f(mod, rec, r->f_write_time, wr ? (double)(h % 3000) / 1024.0 : 0);
    set_f(mod, rec, r->f_meta_time, (double)(h % 50) / 8192.0);
    set_f(mod, rec, r->f_slowest_time, (double)(h % 7000) / 2048.0);
}

/* Ranks that have a record of file f, shared (-1) first; how many. Files
 * by f / 4 % 5: one rank; two or three ranks; a shared record; a shared
 * record and a rank's; four ranks. */
static int ranks_of(long f, int64_t *ranks)
{
    int64_t first = (int64_t)(mix((uint64_t)f) % NPROCS);
    switch (f / 4 % 5) {
    case 0: ranks[0] = first; return 1;
    case 1:
        ranks[0] = first;
        ranks[1] = (first + 3) % NPROCS;
        ranks[2] = (first + 5) % NPROCS;
        return f % 2 ? 2 : 3;
    case 2: ranks[0] = -1; return 1;
    case 3: ranks[0] = -1; ranks[1] = first; return 2;
    default:
        for (int i = 0; i < 4; i++)
            ranks[i] = (first + 4 * i) % NPROCS;
        return 4;
    }
}

/* The module's records, shared ones first, then rank by rank as a job log
 * holds them. */
static iolens_status put_module(iolens_log_writer *w, int id, long files)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    void *rec = malloc(mod->record_size);
    iolens_status st = rec ? IOLENS_OK : IOLENS_ERR_NOMEM;
    int64_t ranks[NPROCS];

    for (int64_t rank = -1; rank < NPROCS && st == IOLENS_OK; rank++)
        for (long f = 0; f < files && st == IOLENS_OK; f++) {
            int n = ranks_of(f, ranks);
            for (int i = 0; i < n && st == IOLENS_OK; i++)
                if (ranks[i] == rank) {
                    fill(mod, rec, f, rank);
                    st = iolens_writer_put_record(w, id, rec);
                }
        }
    free(rec);
    return st;
}

static int write_log(const char *path)
{
    struct iolens_job job = {.start_time_sec = 1700000000, .end_time_sec = 1700000100,
                             .nprocs = NPROCS, .jobid = 13};
    iolens_log_writer *w;
    char detail[256] = "";
    iolens_status st = iolens_writer_create(path, IOLENS_COMP_ZLIB, &w, detail, sizeof(detail));

    if (st != IOLENS_OK) {
        fprintf(stderr, "FAIL: cannot create %s: %s %s\n", path, iolens_strerror(st), detail);
        return -1;
    }
    st = iolens_writer_put_job(w, &job, "accum_bounded", NULL, 0);
    /* Module regions in increasing id order, as the writer wants them. */
    for (int id = 0; id < IOLENS_MAX_MODS && st == IOLENS_OK; id++)
        for (size_t m = 0; m < NMODULES && st == IOLENS_OK; m++)
            if (modules[m].id == id)
                st = put_module(w, id, modules[m].files);
    if (st != IOLENS_OK) {
        iolens_writer_abort(w);
        fprintf(stderr, "FAIL: writing %s: %s\n", path, iolens_strerror(st));
        return -1;
    }
    if ((st = iolens_writer_close(w)) != IOLENS_OK) {
        fprintf(stderr, "FAIL: closing %s: %s\n", path, iolens_strerror(st));
        return -1;
    }
    return 0;
}

/* Accumulate module id of the log at path with a table of table files (0:
 * totals only), on a handle of its own (reading starts at the first record).
 * @return the accumulator, or NULL after a failure. */
static iolens_accumulator *accumulate(const char *path, int id, size_t table)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    iolens_accumulator *acc = NULL;
    iolens_log *log = NULL;
    const void *rec;
    char detail[256] = "";
    iolens_status st = iolens_log_open(path, &log, detail, sizeof(detail));

    if (st != IOLENS_OK) {
        fprintf(stderr, "FAIL: cannot open %s: %s\n", path, detail);
        failures++;
        return NULL;
    }
    if ((st = iolens_accumulator_create(mod, NPROCS, &acc)) != IOLENS_OK) {
        fail("cannot create an accumulator", mod->name);
        iolens_log_close(log);
        return NULL;
    }
    if (table)
        iolens_accumulator_set_max_files(acc, table);
    else
        iolens_accumulator_totals_only(acc);
    while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK)
        if ((st = iolens_accumulator_inject(acc, rec)) != IOLENS_OK)
            break;
    if (st == IOLENS_END)
        st = iolens_accumulator_finish(acc, log, id);
    if (st != IOLENS_OK) {
        fprintf(stderr, "FAIL %s: %s (%s)\n", mod->name, iolens_strerror(st),
                iolens_log_error(log));
        failures++;
        iolens_accumulator_free(acc);
        acc = NULL;
    }
    iolens_log_close(log);
    return acc;
}

static int same_figures(const struct iolens_module_desc *mod, const struct iolens_metrics *a,
                        const void *ta, const struct iolens_metrics *b, const void *tb)
{
    for (int k = 0; k < IOLENS_FILE_KINDS; k++)
        if (memcmp(&a->files[k], &b->files[k], sizeof(a->files[k])) != 0)
            fprintf(stderr, "  %s kind %d: %lld files %lld read %lld written, against %lld "
                            "%lld %lld\n", mod->name, k, (long long)a->files[k].count,
                    (long long)a->files[k].read_bytes, (long long)a->files[k].written_bytes,
                    (long long)b->files[k].count, (long long)b->files[k].read_bytes,
                    (long long)b->files[k].written_bytes);
    return memcmp(a, b, sizeof(*a)) == 0 && memcmp(ta, tb, mod->record_size) == 0;
}

/* 1: many passes against one, module by module. */
static void check_passes(const char *path)
{
    for (size_t m = 0; m < NMODULES; m++) {
        const struct iolens_module_desc *mod = iolens_module(modules[m].id);
        iolens_accumulator *one = accumulate(path, modules[m].id, SIZE_MAX);
        iolens_accumulator *many = accumulate(path, modules[m].id, modules[m].table);
        struct iolens_metrics m1, m2;
        void *t1 = calloc(1, mod->record_size), *t2 = calloc(1, mod->record_size);

        if (one && many && t1 && t2) {
            int passes = iolens_accumulator_passes(many);
            if (iolens_accumulator_passes(one) != 1)
                fail("a table for every file took more than one pass", mod->name);
            if (passes < 3)
                fail("the small table took fewer than 3 passes: nothing tested", mod->name);
            if (iolens_accumulator_emit(one, &m1, t1) != IOLENS_OK ||
                iolens_accumulator_emit(many, &m2, t2) != IOLENS_OK)
                fail("emit failed", mod->name);
            else if (m1.files[IOLENS_FILES_ALL].count != modules[m].files)
                fail("not every file counted", mod->name);
            else if (!same_figures(mod, &m1, t1, &m2, t2))
                fail("figures of several passes differ from one pass's", mod->name);
            else
                printf("%s: %ld files, %d passes of at most %zu files: same figures\n",
                       mod->name, modules[m].files, passes, modules[m].table);
        }
        free(t1);
        free(t2);
        iolens_accumulator_free(one);
        iolens_accumulator_free(many);
    }
}

/* The summary of the log at path. @return IOLENS_OK or an error. */
static iolens_status summarise(const char *path, struct iolens_summary **out)
{
    iolens_log *log = NULL;
    char detail[256] = "";
    iolens_status st = iolens_log_open(path, &log, detail, sizeof(detail));

    *out = NULL;
    if (st == IOLENS_OK)
        st = iolens_summary_build(log, NULL, out);
    iolens_log_close(log);
    return st;
}

/* 2: the summary's metrics against one pass's, without the file counts. */
static void check_summary(const char *path)
{
    struct iolens_summary *s = NULL;
    int before = failures;

    if (summarise(path, &s) != IOLENS_OK) {
        fail("summary failed", "summary");
        return;
    }
    for (size_t m = 0; m < NMODULES; m++) {
        int id = modules[m].id;
        const struct iolens_module_desc *mod = iolens_module(id);
        const struct iolens_module_summary *ms = &s->modules[id];
        iolens_accumulator *one = accumulate(path, id, SIZE_MAX);
        struct iolens_metrics want;
        void *total = calloc(1, mod->record_size);

        if (!one || !total || iolens_accumulator_emit(one, &want, total) != IOLENS_OK)
            fail("emit failed", mod->name);
        else if (!ms->metrics || !ms->total)
            fail("the summary has no metrics", mod->name);
        else if (memset(want.files, 0, sizeof(want.files)),
                 !same_figures(mod, ms->metrics, ms->total, &want, total))
            fail("the summary's figures differ from the accumulator's", mod->name);
        free(total);
        iolens_accumulator_free(one);
    }
    if (failures == before)
        printf("summary: same figures, no file counts\n");
    iolens_summary_free(s);
}

#ifndef UNDER_ASAN
static long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}
#endif

/* 3: the peak RSS a bounded table adds, then an unbounded one. First, while
 * the process's peak is still low. */
static void check_memory(const char *path)
{
#ifdef UNDER_ASAN
    (void)path;
    printf("peak RSS not checked under AddressSanitizer (it keeps freed memory)\n");
#else
    /* One pass first, so that the reader's buffers are in the peak. */
    int id = modules[MEMORY_MODULE].id;
    size_t table = modules[MEMORY_MODULE].table;
    iolens_accumulator_free(accumulate(path, id, 0));
    long base = peak_kib();
    iolens_accumulator *acc = accumulate(path, id, table);
    long bounded = peak_kib() - base;
    int passes = iolens_accumulator_passes(acc);
    iolens_accumulator_free(acc);
    base = peak_kib();
    iolens_accumulator_free(accumulate(path, id, SIZE_MAX));
    long unbounded = peak_kib() - base;

    printf("peak RSS added counting %ld %s files: %ld KiB with a table of %zu (%d passes), "
           "%ld KiB with one for all; bound %d KiB\n", modules[MEMORY_MODULE].files,
           iolens_module(id)->name, bounded, table, passes, unbounded, BOUND_KIB);
    if (bounded >= BOUND_KIB)
        fail("the bounded table raised the peak RSS past the bound", iolens_module(id)->name);
    if (unbounded < BOUND_KIB)
        fail("one table for every file stays under the bound: the log is too small to tell",
             iolens_module(id)->name);
#endif
}

int main(int argc, char **argv)
{
    char path[4096];

    if (argc != 2) {
        fprintf(stderr, "usage: accum_bounded DIR\n");
        return 2;
    }
    snprintf(path, sizeof(path), "%s/accum_bounded.darshan", argv[1]);
    if (write_log(path) < 0)
        return 1;
    check_memory(path);
    check_passes(path);
    check_summary(path);
    remove(path);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
