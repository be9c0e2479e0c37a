/* Bad-input test: truncated and corrupted copies of real logs must give a
 * clean error (one line of detail), never a crash, a hang or a sanitizer report.
 *
 *   bad_input [--iolens BIN] [--tmp DIR] [--large-only] LOGDIR
 *                                                     the real-log sweep
 *   bad_input [--iolens BIN] [--tmp DIR] --expect-fail FILE...
 *                                                     regression logs that must fail
 *
 * In-process part (the library, every case): each log, and copies of it with
 * its regions recompressed as bzip2, zstd and uncompressed, is
 *   - cut at every byte offset of the file (original and bzip2; a sample of the others);
 *   - cut inside each region (the header's length for it shortened), at every
 *     offset of small regions and a sample of large ones;
 *   - corrupted: header bytes flipped at every position, region bytes at a sample.
 * Each case opens the log, loads the names and reads and prints every record of
 * every module the library decodes (ids 0..63), into /dev/null, reading on
 * after errors too. A log with two 1.5 MiB random regions (zlib and zstd) takes
 * the library's threaded decompression path: cut, corrupted, and abandoned
 * half read (--large-only runs just that, e.g. under ThreadSanitizer).
 * CLI part (with --iolens): `iolens parse --all`, `iolens dxt`, `iolens insights`,
 * `iolens report -o -`, `iolens convert`, `iolens export --format json`, `iolens merge OUT`
 * and `iolens diff` (the log against itself) on a sample
 * of the same cases: exit 0, or non-zero with exactly one line
 * `iolens VERB: PATH: reason` on stderr (lines starting "# warning:" aside); never a
 * signal or sanitizer report. With --expect-fail, insights, report, convert and export
 * (which read every record) must exit non-zero. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bad_input_recompress.h"
#include "iolens/log.h"

#define CASE_TIMEOUT_S 10    /* one in-process case */
#define CLI_TIMEOUT_S 20     /* one CLI run */
#define REGION_EVERY 4096    /* regions up to this size are cut at every offset */
#define REGION_SAMPLE 512    /* cut points in larger regions */
#define FLIP_SAMPLE 160      /* flipped positions per region */
#define CLI_SAMPLE 4        /* CLI runs per kind of case per log variant */
#define MAX_REPORTS 40

/* The real logs swept (paths under LOGDIR); each line says why it is here. */
static const char *const sweep_logs[] = {
    "release_logs/mpi-io-test-x86_64-3.0.0.darshan", /* 3.00 */
    "release_logs/mpi-io-test-ppc64-3.0.0.darshan",  /* big-endian 3.00 */
    "release_logs/mpi-io-test-ppc64-3.1.8.darshan",  /* big-endian 3.10 */
    "release_logs/mpi-io-test-x86_64-3.5.0.darshan", /* 3.41: POSIX, MPI-IO, STDIO... */
    "ior_pnetcdf_hdf5/shane_ior-HDF5_id438090-438090_11-9-41522-17417065676046418211_1.darshan",
    "dlio_logs/snyder_python3_id3116902-2110365_12-19-66957-188958432683465822_1.darshan",
    "mpi_io_test_with_dxt/treddy_mpi-io-test_id4373053_6-2-60198-9815401321915095332_1.darshan",
    /* HEATMAP and DXT (one literal: clang warns on split strings in arrays) */
    "runtime_and_dxt_heatmaps_diagonal_write_only/runtime_and_dxt_heatmaps_diagonal_write_only.darshan",
    "stdio_no_posix/laytonjb_test1_id28730_6-7-43012-2131301613401632697_1.darshan",
};

/* Compression variants of every swept log: the original, then these. The
 * uncompressed one puts the damage straight into the parsers and gets the full
 * sweep but for file cuts (which only reach the header checks); the others
 * mostly exercise the decompressors again, and get a thinner one, though every
 * file cut of the bzip2 one. */
static const struct {
    int comp;
    const char *name;
    int every_cut;
    size_t thin;
} variants[] = {{1, "bzip2", 1, 4}, {2, "none", 0, 1}, {3, "zstd", 0, 4}};

static int failures;
static FILE *devnull;
static const char *iolens_bin;
static int cli_on;         /* run the CLI sample on the image being swept */
static int cli_must_fail;  /* --expect-fail: iolens insights must fail */
static size_t thin = 1;    /* divides the sample sizes: light sweeps of some variants */
static int no_print;       /* read records without printing them (the large regions) */
static char tmpdir[512] = "/tmp";
static char cur_case[512]; /* what the in-process case under way is */
static unsigned long n_cases, n_ok, n_err, n_cli;
static double t_cli; /* seconds spent in CLI runs */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    failures++;
    if (failures > MAX_REPORTS)
        return;
    fputs("FAIL: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void on_alarm(int sig)
{
    static const char msg[] = "FAIL: timeout (" "10" " s) in case: ";
    (void)sig;
    if (write(2, msg, sizeof(msg) - 1) < 0 || write(2, cur_case, strlen(cur_case)) < 0 ||
        write(2, "\n", 1) < 0)
        _exit(1);
    _exit(1);
}

/* A detail string must say something, on one line. */
static void check_detail(const char *what, const char *detail)
{
    if (!detail || !detail[0])
        fail("%s: error without a detail message", what);
    else if (strchr(detail, '\n'))
        fail("%s: detail spans several lines: %s", what, detail);
}

struct digest {
    unsigned long records;
    uint64_t sum;
};

static int print_name(uint64_t id, const char *name, void *arg)
{
    struct digest *d = arg;
    d->sum += id + strlen(name);
    return 0;
}

/* What a case reads: everything, or only what its damage can reach. */
enum { SCOPE_ALL = -3, SCOPE_JOB = -2, SCOPE_NAMES = -1 /* >= 0: that module id */ };
static int scope = SCOPE_ALL;

/* Open, load names, read and print every record (within scope). @return the
 * first error, or IOLENS_OK when everything read cleanly. */
static iolens_status read_all(const char *path, struct digest *d)
{
    iolens_log *log = NULL;
    char detail[256];
    iolens_status st, first = IOLENS_OK;

    memset(d, 0, sizeof(*d));
    st = iolens_log_open(path, &log, detail, sizeof(detail));
    if (st != IOLENS_OK) {
        if (log)
            fail("%s: open failed but returned a handle", cur_case);
        check_detail(cur_case, detail);
        return st;
    }
    const struct iolens_log_info *in = iolens_log_get_info(log);
    fprintf(devnull, "%s %s\n", in->version, in->exe);
    for (size_t i = 0; i < in->nmounts; i++)
        fprintf(devnull, "%s %s\n", in->mounts[i].path, in->mounts[i].type);
    if (scope == SCOPE_JOB)
        goto done;
    st = iolens_log_load_names(log);
    if (st != IOLENS_OK) {
        check_detail(cur_case, iolens_log_error(log));
        first = st; /* the records are read all the same: that must be safe too */
    }
    iolens_log_each_name(log, print_name, d);
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        const void *rec;
        if (!mod || in->mod_map[id].len == 0 || (scope >= 0 && scope != id) ||
            scope == SCOPE_NAMES)
            continue;
        while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK) {
            struct iolens_record_base b;
            struct iolens_print_ctx ctx = {.mnt_pt = "UNKNOWN", .fs_type = "UNKNOWN"};
            size_t size = iolens_record_size(mod, rec);
            const unsigned char *p = rec;
            memcpy(&b, rec, sizeof(b));
            ctx.name = iolens_log_name(log, b.id);
            if (!ctx.name)
                ctx.name = "(null)";
            if (no_print)
                ;
            else if (mod->print)
                mod->print(devnull, rec, &ctx);
            else
                iolens_print_counters(devnull, mod, rec, &ctx);
            d->records++;
            for (size_t i = 0; i < size; i++) /* the size must be readable */
                d->sum = d->sum * 31 + p[i];
        }
        if (st != IOLENS_END) {
            check_detail(cur_case, iolens_log_error(log));
            if (first == IOLENS_OK)
                first = st;
            /* A caller may read on after an error: that must not crash either
             * (whatever it returns), nor may the other modules. */
            for (int k = 0; k < 2; k++)
                if (iolens_log_next_record(log, id, &rec) == IOLENS_OK)
                    fprintf(devnull, "%zu\n", iolens_record_size(mod, rec));
        }
    }
done:
    iolens_log_close(log);
    return first;
}

/* One in-process case on the image now in the scratch file. */
static iolens_status run_case(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static iolens_status run_case(const char *path, const char *fmt, ...)
{
    va_list ap;
    struct digest d;
    va_start(ap, fmt);
    vsnprintf(cur_case, sizeof(cur_case), fmt, ap);
    va_end(ap);
    alarm(CASE_TIMEOUT_S);
    iolens_status st = read_all(path, &d);
    alarm(0);
    n_cases++;
    if (st == IOLENS_OK)
        n_ok++;
    else
        n_err++;
    return st;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    size_t done = 0;
    if (ftruncate(fd, 0) != 0)
        return -1;
    while (done < n) {
        ssize_t w = pwrite(fd, p + done, n - done, (off_t)done);
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

static int slurp(const char *path, unsigned char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f)
        return -1;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return -1;
    }
    *out = malloc((size_t)n + 1);
    if (!*out || fread(*out, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(*out);
        return -1;
    }
    fclose(f);
    *len = (size_t)n;
    return 0;
}

/* ---- the CLI ---- */

/* Where `iolens convert` writes the log of a case. */
static void convert_out_path(char *buf, size_t len)
{
    snprintf(buf, len, "%s/bad_input_convert.%ld.darshan", tmpdir, (long)getpid());
}

/* The verbs that read logs, run on each case of the CLI's sample. */
static const char *const cli_verbs[] = {"parse",   "dxt",    "insights", "report",
                                        "convert", "export", "merge",    "diff"};
#define N_CLI_VERBS (sizeof(cli_verbs) / sizeof(cli_verbs[0]))

/* One verb's run on a case: started by cli_start, judged by cli_check. */
struct cli_run {
    const char *verb;
    pid_t pid; /* -1: not started */
    char errpath[600];
};

/* Where `iolens merge` writes the log of a case. */
static void merge_out_path(char *buf, size_t len)
{
    snprintf(buf, len, "%s/bad_input_merged.%ld", tmpdir, (long)getpid());
}

/* Start `iolens VERB ... path`, its stderr into a file of its own. */
static void cli_start(struct cli_run *r, const char *verb, const char *path)
{
    char convert_out[600], merge_out[600];
    convert_out_path(convert_out, sizeof(convert_out));
    merge_out_path(merge_out, sizeof(merge_out));
    r->verb = verb;
    snprintf(r->errpath, sizeof(r->errpath), "%s/bad_input_stderr.%ld.%s", tmpdir,
             (long)getpid(), verb);
    r->pid = fork();
    if (r->pid < 0) {
        fail("fork: %s", strerror(errno));
        return;
    }
    if (r->pid == 0) {
        const char *errpath = r->errpath;
        int out = open("/dev/null", O_WRONLY);
        int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0)
            _exit(126);
        dup2(out, 1);
        dup2(err, 2);
        alarm(CLI_TIMEOUT_S); /* survives exec: a hang ends in SIGALRM */
        if (!strcmp(verb, "parse"))
            execl(iolens_bin, iolens_bin, "parse", "--all", path, (char *)NULL);
        else if (!strcmp(verb, "convert")) /* into a scratch log, removed after */
            execl(iolens_bin, iolens_bin, "convert", path, convert_out, (char *)NULL);
        else if (!strcmp(verb, "export")) /* the JSON document to stdout, /dev/null */
            execl(iolens_bin, iolens_bin, "export", "--format", "json", path, (char *)NULL);
        else if (!strcmp(verb, "report")) /* the page to stdout, /dev/null */
            execl(iolens_bin, iolens_bin, "report", "-o", "-", path, (char *)NULL);
        else if (!strcmp(verb, "merge")) /* into a log beside it, removed below */
            execl(iolens_bin, iolens_bin, "merge", merge_out, path, (char *)NULL);
        else if (!strcmp(verb, "diff")) /* the log against itself */
            execl(iolens_bin, iolens_bin, "diff", path, path, (char *)NULL);
        else
            execl(iolens_bin, iolens_bin, verb, path, (char *)NULL);
        _exit(127);
    }
}

/* Wait for run r on path (the case what) and check its exit and stderr. */
static void cli_check(struct cli_run *r, const char *path, const char *what)
{
    const char *verb = r->verb, *errpath = r->errpath;
    int status = 0;
    if (r->pid < 0)
        return;
    while (waitpid(r->pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fail("waitpid: %s", strerror(errno));
            return;
        }
    }
    n_cli++;

    unsigned char *err = NULL;
    size_t errlen = 0;
    if (slurp(errpath, &err, &errlen) < 0) {
        fail("cannot read %s", errpath);
        return;
    }
    err[errlen] = '\0';
    unlink(errpath);

    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        fail("iolens %s on %s: no exit after %d s", verb, what, CLI_TIMEOUT_S);
    } else if (WIFSIGNALED(status)) {
        fail("iolens %s on %s: killed by signal %d; stderr: %s", verb, what, WTERMSIG(status),
             (char *)err);
    } else if (strstr((char *)err, "Sanitizer") || strstr((char *)err, "runtime error:")) {
        fail("iolens %s on %s: sanitizer report:\n%s", verb, what, (char *)err);
    } else if (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127) {
        fail("iolens %s: could not run %s", verb, iolens_bin);
    } else if (WEXITSTATUS(status) == 0 && cli_must_fail &&
               (!strcmp(verb, "insights") || !strcmp(verb, "report") ||
                !strcmp(verb, "convert") || !strcmp(verb, "export"))) {
        fail("iolens %s on %s: exit 0, expected a one-line failure", verb, what);
    } else if (WEXITSTATUS(status) != 0) {
        /* Exactly one "iolens VERB: PATH: reason" line; "# warning:" lines allowed. */
        char prefix[700];
        int nerr = 0, other = 0;
        snprintf(prefix, sizeof(prefix), "iolens %s: %s: ", verb, path);
        for (char *line = (char *)err, *nl; *line; line = nl + 1) {
            nl = strchr(line, '\n');
            if (!nl) {
                other++; /* unterminated line */
                break;
            }
            *nl = '\0';
            if (!strncmp(line, prefix, strlen(prefix)) && line[strlen(prefix)] != '\0')
                nerr++;
            else if (strncmp(line, "# warning:", 10) != 0)
                other++;
            *nl = '\n';
        }
        if (nerr != 1 || other != 0)
            fail("iolens %s on %s: exit %d with %d error line(s) and %d other line(s) on "
                 "stderr, expected exactly one 'iolens VERB: PATH: reason':\n%s",
                 verb, what, WEXITSTATUS(status), nerr, other, (char *)err);
    }
    free(err);
}

/* Write the image to a real file and run the verbs that read logs on it, all
 * at once (each is a process of its own: the sample runs in a fraction of the
 * time on several CPUs). */
static void cli_case(const unsigned char *img, size_t len, const char *what)
{
    char path[600];
    struct cli_run runs[N_CLI_VERBS];
    if (!iolens_bin || !cli_on)
        return;
    snprintf(path, sizeof(path), "%s/bad_input_case.%ld.darshan", tmpdir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write_all(fd, img, len) < 0) {
        fail("cannot write %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    close(fd);
    double t0 = now();
    for (size_t i = 0; i < N_CLI_VERBS; i++)
        cli_start(&runs[i], cli_verbs[i], path);
    for (size_t i = 0; i < N_CLI_VERBS; i++)
        cli_check(&runs[i], path, what);
    t_cli += now() - t0;
    unlink(path);
    convert_out_path(path, sizeof(path));
    unlink(path);
    merge_out_path(path, sizeof(path));
    unlink(path);
}

/* Is case i of n one of the CLI's sample? */
static int sampled(size_t i, size_t n)
{
    size_t step = n / CLI_SAMPLE + 1;
    return i % step == step / 2;
}

/* ---- the sweeps ---- */

static void sweep_truncate(int fd, const char *path, const unsigned char *img, size_t len,
                           int every, const char *name)
{
    size_t n = every || len <= REGION_SAMPLE / thin ? len : REGION_SAMPLE / thin;
    if (write_all(fd, img, len) < 0) {
        fail("%s: cannot write scratch file", name);
        return;
    }
    for (size_t i = n; i-- > 0;) {
        size_t cut = n == len ? i : i * len / n;
        if (ftruncate(fd, (off_t)cut) != 0) {
            fail("ftruncate: %s", strerror(errno));
            return;
        }
        run_case(path, "%s cut at %zu of %zu bytes", name, cut, len);
        if (sampled(i, n)) {
            char what[600];
            snprintf(what, sizeof(what), "%s cut at %zu", name, cut);
            cli_case(img, cut, what);
        }
    }
}

/* Offset in the header of the 8-byte length of region slot (-1: name region). */
static size_t len_field(const struct bi_header *h, int slot)
{
    size_t maps = h->wide ? 32 : 24;
    return maps + 8 + (size_t)(slot + 1) * 16;
}

static void put64(unsigned char *p, uint64_t v, int swap)
{
    if (swap)
        v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

/* Cut one region short by shortening its length in the header. */
static void sweep_region_cuts(int fd, const char *path, unsigned char *img, size_t len,
                              const struct bi_header *h, int slot, uint64_t rlen,
                              const char *name)
{
    size_t at = len_field(h, slot);
    unsigned char saved[8];
    memcpy(saved, img + at, 8);
    int every = thin == 1 && rlen <= REGION_EVERY;
    size_t n = every ? (size_t)rlen : REGION_SAMPLE / thin;
    if (n > rlen)
        n = (size_t)rlen;
    for (size_t i = 0; i < n; i++) {
        uint64_t cut = every ? i : (uint64_t)i * rlen / n;
        put64(img + at, cut, h->swap);
        if (pwrite(fd, img + at, 8, (off_t)at) != 8) {
            fail("pwrite: %s", strerror(errno));
            break;
        }
        run_case(path, "%s region %d cut to %llu of %llu bytes", name, slot,
                 (unsigned long long)cut, (unsigned long long)rlen);
        if (sampled(i, n)) {
            char what[600];
            snprintf(what, sizeof(what), "%s region %d cut to %llu", name, slot,
                     (unsigned long long)cut);
            cli_case(img, len, what);
        }
    }
    memcpy(img + at, saved, 8);
    if (pwrite(fd, img + at, 8, (off_t)at) != 8)
        fail("pwrite: %s", strerror(errno));
}

/* Corrupt the bytes at positions [start, start+span) (every one, or a sample). */
static void sweep_flips(int fd, const char *path, unsigned char *img, size_t len, size_t start,
                        size_t span, int every, const char *name, const char *where)
{
    static const unsigned char xors[] = {0xff, 0x01, 0x80};
    size_t n = every || span <= FLIP_SAMPLE / thin ? span : FLIP_SAMPLE / thin;
    for (size_t i = 0; i < n; i++) {
        size_t pos = start + (n == span ? i : i * span / n);
        unsigned char orig = img[pos];
        for (size_t k = 0; k < sizeof(xors); k++) {
            /* In the header every byte gets 0xff; the other patterns on a sample. */
            if (every && k > 0 && i % 7 != 0)
                continue;
            img[pos] = orig ^ xors[k];
            if (pwrite(fd, img + pos, 1, (off_t)pos) != 1) {
                fail("pwrite: %s", strerror(errno));
                return;
            }
            run_case(path, "%s %s byte %zu ^ 0x%02x", name, where, pos, xors[k]);
            if (k == 0 && sampled(i, n)) {
                char what[600];
                snprintf(what, sizeof(what), "%s %s byte %zu ^ 0x%02x", name, where, pos,
                         xors[k]);
                cli_case(img, len, what);
            }
        }
        img[pos] = orig;
        if (pwrite(fd, img + pos, 1, (off_t)pos) != 1) {
            fail("pwrite: %s", strerror(errno));
            return;
        }
    }
}

/* Today's module id of header slot i (older logs lack the H5D and PNETCDF_VAR slots). */
static int slot_to_id(const struct bi_header *h, int i)
{
    char v[9] = {0};
    memcpy(v, h->version, 8);
    int minor = (int)strtol(v + 2, NULL, 10);
    if (minor < 20 && i >= IOLENS_MOD_H5D)
        i++;
    if (minor < 41 && i >= IOLENS_MOD_PNETCDF_VAR)
        i++;
    return i;
}

/* Every sweep on one image; every_cut: cut the file at every offset and flip every
 * header byte (else a sample of each). */
static void sweep_image(int fd, const char *path, unsigned char *img, size_t len,
                        const char *name, const struct digest *want, int every_cut)
{
    struct bi_header h;
    struct digest d;

    if (bi_read_header(img, len, &h) < 0) {
        fail("%s: the test cannot read its header", name);
        return;
    }
    if (write_all(fd, img, len) < 0) {
        fail("%s: cannot write scratch file", name);
        return;
    }
    snprintf(cur_case, sizeof(cur_case), "%s intact", name);
    iolens_status st = read_all(path, &d);
    if (st != IOLENS_OK)
        fail("%s: the intact log does not read: %s", name, iolens_strerror(st));
    else if (want && (d.records != want->records || d.sum != want->sum))
        fail("%s: reads %lu records (digest %llx), the original %lu (digest %llx)", name,
             d.records, (unsigned long long)d.sum, want->records,
             (unsigned long long)want->sum);
    cli_case(img, len, name);

    /* Damage to one region is read back through that region only. */
    sweep_flips(fd, path, img, len, 0, h.size, every_cut && thin == 1, name, "header");
    scope = SCOPE_JOB;
    sweep_flips(fd, path, img, len, h.job_off, h.job_len, 0, name, "job region");
    scope = SCOPE_NAMES;
    if (h.name_len) {
        sweep_flips(fd, path, img, len, h.name_off, h.name_len, 0, name, "name region");
        sweep_region_cuts(fd, path, img, len, &h, -1, h.name_len, name);
    }
    for (int i = 0; i < h.nslots; i++) {
        if (!h.mod_len[i])
            continue;
        char where[32];
        snprintf(where, sizeof(where), "region %d", i);
        scope = slot_to_id(&h, i);
        sweep_flips(fd, path, img, len, h.mod_off[i], h.mod_len[i], 0, name, where);
        sweep_region_cuts(fd, path, img, len, &h, i, h.mod_len[i], name);
    }
    scope = SCOPE_ALL;
    sweep_truncate(fd, path, img, len, every_cut, name);
}

static int sweep_log(int fd, const char *path, const char *dir, const char *rel)
{
    char file[1024], name[128];
    unsigned char *img;
    size_t len;
    struct digest want;

    snprintf(file, sizeof(file), "%s/%s", dir, rel);
    if (slurp(file, &img, &len) < 0) {
        fail("cannot read real log %s: %s", file, strerror(errno));
        return -1;
    }
    const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    snprintf(name, sizeof(name), "%.60s", base);
    if (write_all(fd, img, len) < 0)
        return -1;
    snprintf(cur_case, sizeof(cur_case), "%s intact", name);
    if (read_all(path, &want) != IOLENS_OK)
        fail("%s: the real log does not read", name);
    cli_on = 1;
    sweep_image(fd, path, img, len, name, NULL, 1);

    for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
        unsigned char *re;
        size_t relen;
        snprintf(name, sizeof(name), "%.60s[%s]", base, variants[v].name);
        if (bi_recompress(img, len, variants[v].comp, &re, &relen) < 0) {
            fail("%s: cannot recompress", name);
            continue;
        }
        cli_on = 0; /* the CLI sample runs on the original only */
        thin = variants[v].thin;
        sweep_image(fd, path, re, relen, name, &want, variants[v].every_cut);
        thin = 1;
        free(re);
    }
    free(img);
    return 0;
}

/* ---- a large region: the threaded decompression path ---- */

#define BIG_REGION_BYTES ((size_t)3 << 19) /* 1.5 MiB: past the library's prefetch threshold */
#define BIG_CASES 24

/* Read a few records of each big module in turn, switching back and forth,
 * then close with the region half read: a decompressing thread must stop
 * cleanly wherever the reader leaves it. */
static void switch_midway(const char *path, int a, int b)
{
    iolens_log *log = NULL;
    const void *rec;
    char detail[256];
    if (iolens_log_open(path, &log, detail, sizeof(detail)) != IOLENS_OK)
        return;
    int ids[] = {a, b, a, b};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
        for (int k = 0; k < 7; k++)
            if (iolens_log_next_record(log, ids[i], &rec) != IOLENS_OK)
                break;
    iolens_log_close(log);
}

/* A log whose POSIX and STDIO regions hold 1.5 MiB of random records each
 * (incompressible, so the compressed regions are as large): intact, cut short,
 * corrupted, and abandoned half read. */
static void sweep_big(int fd, const char *path, const char *dir, int comp, const char *cname)
{
    static const int big[] = {IOLENS_MOD_POSIX, IOLENS_MOD_STDIO};
    char file[1024], name[64];
    unsigned char *img = NULL, *job = NULL, *mods[64] = {0}, *out = NULL;
    size_t len, job_len, mod_lens[64] = {0}, out_len;
    struct bi_header h, src;
    uint64_t x = 88172645463325252ULL;

    snprintf(name, sizeof(name), "large-regions[%s]", cname);
    snprintf(file, sizeof(file), "%s/%s", dir, sweep_logs[3]);
    if (slurp(file, &img, &len) < 0 || bi_read_header(img, len, &src) < 0 ||
        bi_decompress(src.comp, img + src.job_off, src.job_len, &job, &job_len) < 0) {
        fail("%s: cannot read %s", name, file);
        goto done;
    }
    memset(&h, 0, sizeof(h));
    memcpy(h.version, "3.41", 5);
    h.wide = 1;
    for (size_t m = 0; m < sizeof(big) / sizeof(big[0]); m++) {
        const struct iolens_module_desc *mod = iolens_module(big[m]);
        if (!mod || !mod->record_size)
            continue;
        size_t n = BIG_REGION_BYTES / mod->record_size * mod->record_size;
        if (!(mods[big[m]] = malloc(n)))
            goto done;
        for (size_t i = 0; i < n; i++) { /* xorshift: the same bytes every run */
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            mods[big[m]][i] = (unsigned char)x;
        }
        mod_lens[big[m]] = n;
        h.mod_ver[big[m]] = mod->version;
    }
    if (bi_build(&h, comp, job, job_len, NULL, 0, mods, mod_lens, &out, &out_len) < 0 ||
        bi_read_header(out, out_len, &h) < 0 || write_all(fd, out, out_len) < 0) {
        fail("%s: cannot build", name);
        goto done;
    }
    if (run_case(path, "%s intact", name) != IOLENS_OK)
        fail("%s: the intact log does not read: %s", name, cur_case);
    switch_midway(path, big[0], big[1]);
    cli_on = 1;
    cli_case(out, out_len, name);
    cli_on = 0;
    no_print = 1;
    for (size_t m = 0; m < sizeof(big) / sizeof(big[0]); m++) {
        int slot = big[m]; /* 3.41: slots are ids */
        if (!h.mod_len[slot])
            continue;
        scope = slot;
        thin = REGION_SAMPLE / BIG_CASES;
        sweep_region_cuts(fd, path, out, out_len, &h, slot, h.mod_len[slot], name);
        sweep_flips(fd, path, out, out_len, h.mod_off[slot], h.mod_len[slot], 0, name,
                    "large region");
        thin = 1;
        scope = SCOPE_ALL;
    }
    no_print = 0;
    /* Cut the file inside the first large region, then switch modules midway. */
    if (write_all(fd, out, out_len) == 0 && ftruncate(fd, (off_t)(h.mod_off[big[0]] + 4096)) == 0)
        switch_midway(path, big[0], big[1]);
done:
    free(img);
    free(job);
    free(out);
    for (int i = 0; i < 64; i++)
        free(mods[i]);
}

/* Regression logs: each must fail cleanly in the library and in the CLI. */
static void expect_fail(int fd, const char *path, const char *file)
{
    unsigned char *img;
    size_t len;
    if (slurp(file, &img, &len) < 0) {
        fail("cannot read %s: %s", file, strerror(errno));
        return;
    }
    if (write_all(fd, img, len) < 0) {
        fail("cannot write scratch file");
        free(img);
        return;
    }
    cli_on = 1;
    cli_must_fail = 1;
    iolens_status st = run_case(path, "%s", file);
    if (st == IOLENS_OK)
        fail("%s: reads without error, expected a clean failure", file);
    cli_case(img, len, file);
    free(img);
}

int main(int argc, char **argv)
{
    int a = 1, regress = 0, large_only = 0;
    struct timespec t0, t1;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--iolens") && a + 1 < argc)
            iolens_bin = argv[++a];
        else if (!strcmp(argv[a], "--tmp") && a + 1 < argc)
            snprintf(tmpdir, sizeof(tmpdir), "%s", argv[++a]);
        else if (!strcmp(argv[a], "--expect-fail"))
            regress = 1;
        else if (!strcmp(argv[a], "--large-only"))
            large_only = 1; /* only the large-region sweep (e.g. under ThreadSanitizer) */
        else {
            fprintf(stderr, "bad_input: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (a >= argc) {
        fprintf(stderr, "usage: bad_input [--iolens BIN] [--tmp DIR] [--large-only] LOGDIR\n"
                        "       bad_input [--iolens BIN] [--tmp DIR] --expect-fail FILE...\n");
        return 2;
    }
    devnull = fopen("/dev/null", "w");
    int fd = memfd_create("bad_input", MFD_CLOEXEC);
    if (!devnull || fd < 0) {
        fprintf(stderr, "bad_input: cannot set up: %s\n", strerror(errno));
        return 1;
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    signal(SIGALRM, on_alarm);

    if (regress) {
        for (; a < argc; a++)
            expect_fail(fd, path, argv[a]);
    } else {
        struct stat sb;
        if (stat(argv[a], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "FAIL: the real Darshan logs are missing: %s is not a folder "
                            "(the repository has them in tests/data/darshan-logs)\n",
                    argv[a]);
            return 1;
        }
        for (size_t i = 0; !large_only && i < sizeof(sweep_logs) / sizeof(sweep_logs[0]); i++) {
            struct timespec l0, l1;
            unsigned long before = n_cases;
            clock_gettime(CLOCK_MONOTONIC, &l0);
            sweep_log(fd, path, argv[a], sweep_logs[i]);
            clock_gettime(CLOCK_MONOTONIC, &l1);
            printf("%-60.60s %7lu cases %6.2f s\n", sweep_logs[i], n_cases - before,
                   (double)(l1.tv_sec - l0.tv_sec) + (double)(l1.tv_nsec - l0.tv_nsec) / 1e9);
            fflush(stdout);
        }
        static const struct {
            int comp;
            const char *name;
        } bigs[] = {{0, "zlib"}, {3, "zstd"}};
        for (size_t i = 0; i < sizeof(bigs) / sizeof(bigs[0]); i++) {
            unsigned long before = n_cases;
            double b0 = now();
            sweep_big(fd, path, argv[a], bigs[i].comp, bigs[i].name);
            printf("%-60.60s %7lu cases %6.2f s\n", bigs[i].name, n_cases - before, now() - b0);
            fflush(stdout);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("bad_input: %lu cases (%lu read cleanly, %lu failed cleanly), %lu CLI runs "
           "(%.1f s), %.1f s in all, %d failure(s)\n",
           n_cases, n_ok, n_err, n_cli, t_cli,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, failures);
    if (failures > MAX_REPORTS)
        fprintf(stderr, "(%d more failures not shown)\n", failures - MAX_REPORTS);
    close(fd);
    fclose(devnull);
    return failures ? 1 : 0;
}
