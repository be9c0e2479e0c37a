/* Round trip through the writer: for every log listed in the index.tsv of a
 * folder of real logs (tests/data/darshan-logs), read everything the library
 * can decode, write it back with each compression, read the copy and check
 * that job data, names and every record are identical.
 *
 * usage: roundtrip LOGS_DIR OUT_DIR [--keep]
 * The copies go to OUT_DIR/<log file>.<compression>.darshan and are removed
 * unless --keep is given (to feed them to the reference darshan-parser). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iolens/log.h"

static const struct {
    iolens_compression comp;
    const char *name;
} comps[] = {
    {IOLENS_COMP_ZLIB, "zlib"},
    {IOLENS_COMP_BZIP2, "bzip2"},
    {IOLENS_COMP_ZSTD, "zstd"},
    {IOLENS_COMP_NONE, "none"},
};

static int failures;

static int fail(const char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const char *log, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL %s: ", log);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    failures++;
    return -1;
}

/* Modules copied: those with data and a descriptor. */
static int copied(const struct iolens_log_info *in, int id)
{
    return in->mod_map[id].len != 0 && iolens_module(id) != NULL;
}

struct name_copy {
    iolens_log_writer *w;
    iolens_status st;
};

static int copy_name(uint64_t id, const char *name, void *arg)
{
    struct name_copy *c = arg;
    c->st = iolens_writer_put_name(c->w, id, name);
    return c->st != IOLENS_OK;
}

/* Write everything log holds that the library decodes to out. */
static int write_copy(const char *label, iolens_log *log, const char *out,
                      iolens_compression comp, size_t *nrecords)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    iolens_log_writer *w;
    char detail[256];
    iolens_status st = iolens_writer_create(out, comp, &w, detail, sizeof(detail));

    if (st != IOLENS_OK)
        return fail(label, "create %s: %s (%s)", out, iolens_strerror(st), detail);
    st = iolens_writer_put_job(w, &in->job, in->exe, in->mounts, in->nmounts);
    struct name_copy nc = {w, IOLENS_OK};
    if (st == IOLENS_OK && iolens_log_each_name(log, copy_name, &nc))
        st = nc.st;
    for (int id = 0; id < IOLENS_MAX_MODS && st == IOLENS_OK; id++) {
        const void *rec;
        if ((in->partial_flags >> id) & 1)
            iolens_writer_set_partial(w, id);
        if (!copied(in, id))
            continue;
        iolens_status rs;
        while ((rs = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
            st = iolens_writer_put_record(w, id, rec);
            if (st != IOLENS_OK)
                break;
            (*nrecords)++;
        }
        if (st == IOLENS_OK && rs != IOLENS_END) {
            iolens_writer_abort(w);
            return fail(label, "reading %s records of the original: %s",
                        iolens_module_name(id), iolens_log_error(log));
        }
    }
    if (st != IOLENS_OK) {
        iolens_writer_abort(w);
        return fail(label, "writing %s: %s", out, iolens_strerror(st));
    }
    if ((st = iolens_writer_close(w)) != IOLENS_OK)
        return fail(label, "closing %s: %s", out, iolens_strerror(st));
    return 0;
}

/* The writer gives non-empty metadata a final newline, as Darshan's does. */
static int same_metadata(const char *a, const char *b)
{
    size_t la = strlen(a);
    if (strcmp(a, b) == 0)
        return 1;
    return la > 0 && la < 1023 && a[la - 1] != '\n' && strncmp(a, b, la) == 0 &&
           b[la] == '\n' && b[la + 1] == '\0';
}

static int compare_job(const char *label, const struct iolens_log_info *a,
                       const struct iolens_log_info *b)
{
    const struct iolens_job *x = &a->job, *y = &b->job;
    if (x->uid != y->uid || x->start_time_sec != y->start_time_sec ||
        x->start_time_nsec != y->start_time_nsec || x->end_time_sec != y->end_time_sec ||
        x->end_time_nsec != y->end_time_nsec || x->nprocs != y->nprocs || x->jobid != y->jobid)
        return fail(label, "job fields differ");
    if (!same_metadata(x->metadata, y->metadata))
        return fail(label, "job metadata differs");
    if (strcmp(a->exe, b->exe) != 0)
        return fail(label, "command line differs: '%s' vs '%s'", a->exe, b->exe);
    if (a->nmounts != b->nmounts)
        return fail(label, "%zu mounts vs %zu", a->nmounts, b->nmounts);
    for (size_t i = 0; i < a->nmounts; i++)
        if (strcmp(a->mounts[i].path, b->mounts[i].path) ||
            strcmp(a->mounts[i].type, b->mounts[i].type))
            return fail(label, "mount %zu differs", i);
    if (a->partial_flags != b->partial_flags)
        return fail(label, "partial flags differ");
    return 0;
}

static int check_name(uint64_t id, const char *name, void *arg)
{
    const char *other = iolens_log_name(arg, id);
    return !other || strcmp(other, name) != 0;
}

/* Records of module id, pairwise. @return the record count, or -1. */
static long compare_module(const char *label, iolens_log *a, iolens_log *b, int id)
{
    const struct iolens_module_desc *mod = iolens_module(id);
    long n = 0;
    for (;;) {
        const void *ra, *rb;
        iolens_status sa = iolens_log_next_record(a, id, &ra);
        iolens_status sb = iolens_log_next_record(b, id, &rb);
        if (sa == IOLENS_END && sb == IOLENS_END)
            return n;
        if (sa != IOLENS_OK || sb != IOLENS_OK)
            return fail(label, "%s record %ld: original %s, copy %s (%s)", mod->name, n,
                        iolens_strerror(sa), iolens_strerror(sb), iolens_log_error(b));
        size_t za = iolens_record_size(mod, ra), zb = iolens_record_size(mod, rb);
        if (za != zb || memcmp(ra, rb, za) != 0)
            return fail(label, "%s record %ld differs", mod->name, n);
        n++;
    }
}

static int compare_logs(const char *label, const char *orig, const char *copy,
                        iolens_compression comp)
{
    iolens_log *a = NULL, *b = NULL;
    char detail[256];
    int rc = -1;

    if (iolens_log_open(orig, &a, detail, sizeof(detail)) != IOLENS_OK ||
        iolens_log_open(copy, &b, detail, sizeof(detail)) != IOLENS_OK) {
        fail(label, "reopen: %s", detail);
        goto out;
    }
    const struct iolens_log_info *ia = iolens_log_get_info(a), *ib = iolens_log_get_info(b);
    if (strcmp(ib->version, IOLENS_LOG_VERSION) != 0 || ib->compression != comp ||
        ib->byte_swapped) {
        fail(label, "copy has version %s, compression %d", ib->version, ib->compression);
        goto out;
    }
    if (compare_job(label, ia, ib) < 0)
        goto out;
    if (iolens_log_load_names(a) != IOLENS_OK || iolens_log_load_names(b) != IOLENS_OK) {
        fail(label, "names: %s", iolens_log_error(b));
        goto out;
    }
    if (iolens_log_name_count(a) != iolens_log_name_count(b) ||
        iolens_log_each_name(a, check_name, b)) {
        fail(label, "name records differ (%zu vs %zu)", iolens_log_name_count(a),
             iolens_log_name_count(b));
        goto out;
    }
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        if (!copied(ia, id)) {
            if (ib->mod_map[id].len != 0) {
                fail(label, "copy has module %d the original lacks", id);
                goto out;
            }
            continue;
        }
        if (ib->mod_ver[id] != iolens_module(id)->version) {
            fail(label, "%s written at version %u", iolens_module_name(id), ib->mod_ver[id]);
            goto out;
        }
        if (compare_module(label, a, b, id) < 0)
            goto out;
    }
    rc = 0;
out:
    iolens_log_close(a);
    iolens_log_close(b);
    return rc;
}

/* Modules of log, each marked "(skipped)" if the library cannot decode it. */
static void describe_modules(const char *orig, char *out, size_t len)
{
    iolens_log *log;
    size_t used = 0;
    out[0] = '\0';
    if (iolens_log_open(orig, &log, NULL, 0) != IOLENS_OK)
        return;
    const struct iolens_log_info *in = iolens_log_get_info(log);
    for (int id = 0; id < IOLENS_MAX_MODS && used < len; id++)
        if (in->mod_map[id].len)
            used += (size_t)snprintf(out + used, len - used, " %s%s",
                                     iolens_module_name(id) ? iolens_module_name(id) : "?",
                                     copied(in, id) ? "" : "(skipped)");
    iolens_log_close(log);
}

/* One log, every compression; one line of output when all pass. */
static void round_trip(const char *dir, const char *rel, const char *outdir, int keep)
{
    char orig[4096], copy[4096], mods[512];
    const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    size_t nrec = 0;
    int before = failures;

    snprintf(orig, sizeof(orig), "%s/%s", dir, rel);
    for (size_t c = 0; c < sizeof(comps) / sizeof(comps[0]); c++) {
        iolens_log *log;
        char detail[256], label[1100];
        snprintf(copy, sizeof(copy), "%s/%s.%s.darshan", outdir, base, comps[c].name);
        snprintf(label, sizeof(label), "%s [%s]", rel, comps[c].name);
        if (iolens_log_open(orig, &log, detail, sizeof(detail)) != IOLENS_OK) {
            fail(label, "open: %s", detail);
            return;
        }
        int ok = 0;
        nrec = 0;
        if (iolens_log_load_names(log) != IOLENS_OK)
            fail(label, "names: %s", iolens_log_error(log));
        else
            ok = write_copy(label, log, copy, comps[c].comp, &nrec) == 0;
        iolens_log_close(log);
        if (ok)
            compare_logs(label, orig, copy, comps[c].comp);
        if (!keep)
            remove(copy);
    }
    if (failures == before) {
        describe_modules(orig, mods, sizeof(mods));
        printf("ok   %s: %zu records;%s\n", rel, nrec, mods[0] ? mods : " no modules");
    }
}

/* No file at path, and no temporary file of it (path.*.tmp) in dir. */
static int absent(const char *dir, const char *path)
{
    struct stat sb;
    struct dirent *e;
    int tmp = 0;
    DIR *d = opendir(dir);
    if (stat(path, &sb) == 0 || !d) {
        if (d)
            closedir(d);
        return 0;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t blen = strlen(base);
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        tmp |= n > blen + 4 && strncmp(e->d_name, base, blen) == 0 &&
               strcmp(e->d_name + n - 4, ".tmp") == 0;
    }
    closedir(d);
    return !tmp;
}

#define EXPECT(cond)                                                        \
    do {                                                                    \
        if (!(cond))                                                        \
            fail("writer rules", "line %d: %s", __LINE__, #cond);           \
    } while (0)

/* Call order, atomic creation and clean failure of the writer. */
static void check_writer_rules(const char *top)
{
    char outdir[2048], path[4096], detail[256];
    iolens_log_writer *w;
    struct iolens_job job = {.uid = 1, .nprocs = 1};
    unsigned char rec[4096] = {0};

    /* A directory of its own, so files left by an earlier crash do not count. */
    snprintf(outdir, sizeof(outdir), "%s/rules.%ld", top, (long)getpid());
    if (mkdir(outdir, 0755) != 0) {
        fail("writer rules", "cannot create %s: %s", outdir, strerror(errno));
        return;
    }
    snprintf(path, sizeof(path), "%s/rules.darshan", outdir);
    EXPECT(iolens_writer_create(path, IOLENS_COMP_ZLIB, &w, detail, sizeof(detail)) == 0);
    EXPECT(iolens_writer_put_name(w, 1, "a") == IOLENS_ERR_ORDER);
    EXPECT(iolens_writer_put_record(w, IOLENS_MOD_POSIX, rec) == IOLENS_ERR_ORDER);
    EXPECT(iolens_writer_put_job(w, &job, "exe", NULL, 0) == IOLENS_OK);
    EXPECT(iolens_writer_put_job(w, &job, "exe", NULL, 0) == IOLENS_ERR_ORDER);
    EXPECT(iolens_writer_put_name(w, 1, "a") == IOLENS_OK);
    EXPECT(iolens_writer_put_record(w, IOLENS_MOD_POSIX, rec) == IOLENS_OK);
    EXPECT(iolens_writer_put_name(w, 2, "b") == IOLENS_ERR_ORDER);
    EXPECT(iolens_writer_put_record(w, IOLENS_MOD_NULL, rec) == IOLENS_ERR_ORDER);
    EXPECT(iolens_writer_put_record(w, IOLENS_MAX_MODS, rec) == IOLENS_ERR_ARGUMENT);
    EXPECT(!absent(outdir, path)); /* written under a temporary name until close */
    EXPECT(access(path, F_OK) != 0);
    EXPECT(iolens_writer_close(w) == IOLENS_OK);
    EXPECT(access(path, F_OK) == 0);
    remove(path);

    EXPECT(iolens_writer_create(path, IOLENS_COMP_BZIP2, &w, NULL, 0) == 0);
    EXPECT(iolens_writer_put_job(w, &job, "exe", NULL, 0) == IOLENS_OK);
    iolens_writer_abort(w);
    EXPECT(absent(outdir, path));

    EXPECT(iolens_writer_create(path, IOLENS_COMP_ZSTD, &w, NULL, 0) == 0);
    EXPECT(iolens_writer_close(w) == IOLENS_ERR_ORDER); /* no job region */
    EXPECT(absent(outdir, path));

    snprintf(path, sizeof(path), "%s/no/such/dir/x.darshan", outdir);
    EXPECT(iolens_writer_create(path, IOLENS_COMP_ZLIB, &w, detail, sizeof(detail)) ==
           IOLENS_ERR_IO);
    EXPECT(detail[0] != '\0');
    EXPECT(iolens_writer_create(path, (iolens_compression)9, &w, NULL, 0) ==
           IOLENS_ERR_COMPRESSION);
    EXPECT(rmdir(outdir) == 0);
}

int main(int argc, char **argv)
{
    char path[4096], line[1024];
    struct stat sb;
    int keep = argc > 3 && strcmp(argv[3], "--keep") == 0, nlogs = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: roundtrip LOGS_DIR OUT_DIR [--keep]\n");
        return 2;
    }
    snprintf(path, sizeof(path), "%s/index.tsv", argv[1]);
    FILE *idx = fopen(path, "r");
    if (!idx) {
        fprintf(stderr, "FAIL: cannot read %s: %s\n"
                        "FAIL: %s must be a folder of real Darshan logs with index.tsv "
                        "(the repository has them in tests/data/darshan-logs)\n",
                path, strerror(errno), argv[1]);
        return 1;
    }
    if (mkdir(argv[2], 0755) != 0 && !(errno == EEXIST && stat(argv[2], &sb) == 0)) {
        fprintf(stderr, "FAIL: cannot create %s: %s\n", argv[2], strerror(errno));
        fclose(idx);
        return 1;
    }
    check_writer_rules(argv[2]);
    while (fgets(line, sizeof(line), idx)) {
        line[strcspn(line, "\t\r\n")] = '\0';
        if (line[0] == '\0' || strcmp(line, "log") == 0)
            continue;
        round_trip(argv[1], line, argv[2], keep);
        nlogs++;
    }
    fclose(idx);
    if (nlogs == 0)
        fail(path, "lists no logs");
    printf("%d logs, %d failures\n", nlogs, failures);
    return failures ? 1 : 0;
}
