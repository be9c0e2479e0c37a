/* Turn what capture.so recorded of one reference job, and the job's log,
 * into one test data file of test_reduce (see README.md).
 *
 *   mkdata CAPTURE_DIR LOG DIR > NAME.txt
 *
 * CAPTURE_DIR holds red.0 ... red.3, LOG is the job's log, DIR the directory
 * the job ran in (written as @DIR@ in record names). For every shared record
 * of POSIX, MPI-IO and STDIO, in the order the ranks sent them, it prints the
 * four ranks' prepared records and the rank -1 record of the log. Not built
 * by CMake: it serves only to remake the data. Build from the checkout:
 *   cc -Iinclude -Isrc -o mkdata tests/unit/reduce-data/mkdata.c \
 *      build/lib/libiolens-log-static.a -lz -lbz2 -lzstd -lpthread */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"
#include "iolens/module.h"

#define NRANKS 4
#define MAXREC 64

static const int mods[] = {IOLENS_MOD_POSIX, IOLENS_MOD_MPIIO, IOLENS_MOD_STDIO};

/* The send buffer of one rank's record reduction of one module. */
struct sent {
    unsigned char *buf;
    int count;
};

static void die(const char *what)
{
    fprintf(stderr, "mkdata: %s\n", what);
    exit(1);
}

/* Find the send buffer of records of esize bytes in rank's capture. */
static struct sent find_sent(const char *dir, int rank, size_t esize)
{
    char path[4096], line[128];
    struct sent s = {NULL, 0};
    snprintf(path, sizeof(path), "%s/red.%d", dir, rank);
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open a capture file");
    while (fgets(line, sizeof(line), f)) {
        int seq, sz, count;
        char what[8];
        if (sscanf(line, "%d %7s %d %d", &seq, what, &sz, &count) != 4)
            die("bad capture header");
        unsigned char *buf = malloc((size_t)sz * (size_t)count);
        if (!buf || fread(buf, (size_t)sz, (size_t)count, f) != (size_t)count)
            die("short capture");
        if (strcmp(what, "send") == 0 && (size_t)sz == esize) {
            s.buf = buf;
            s.count = count;
        } else {
            free(buf);
        }
    }
    fclose(f);
    return s;
}

/* One record as a line: id, rank, counters, fcounters (hex floats, exact). */
static void print_record(const struct iolens_module_desc *d, const char *tag,
                         const unsigned char *r)
{
    struct iolens_record_base b;
    memcpy(&b, r, sizeof(b));
    printf("%s %" PRIu64 " %" PRId64, tag, b.id, b.rank);
    for (size_t i = 0; i < d->ncounters; i++) {
        int64_t v;
        memcpy(&v, r + d->counters_offset + 8 * i, 8);
        printf(" %" PRId64, v);
    }
    for (size_t i = 0; i < d->nfcounters; i++) {
        double v;
        memcpy(&v, r + d->fcounters_offset + 8 * i, 8);
        if (v == 0 && !signbit(v))
            printf(" 0");
        else
            printf(" %a", v);
    }
    printf("\n");
}

/* Copy the rank -1 record of id in module d of the log into out.
 * @return 1 if found, 0 if the log has none (an unused standard stream's
 *         record is reduced, then dropped). */
static int find_shared(const char *logpath, const struct iolens_module_desc *d, uint64_t id,
                        unsigned char *out)
{
    iolens_log *log;
    const void *rec;
    if (iolens_log_open(logpath, &log, NULL, 0) != IOLENS_OK)
        die("cannot open the log");
    while (iolens_log_next_record(log, d->id, &rec) == IOLENS_OK) {
        struct iolens_record_base b;
        memcpy(&b, rec, sizeof(b));
        if (b.id == id && b.rank == -1) {
            memcpy(out, rec, d->record_size);
            iolens_log_close(log);
            return 1;
        }
    }
    iolens_log_close(log);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        die("usage: mkdata CAPTURE_DIR LOG DIR");
    iolens_log *log;
    if (iolens_log_open(argv[2], &log, NULL, 0) != IOLENS_OK ||
        iolens_log_load_names(log) != IOLENS_OK)
        die("cannot read the log's names");
    size_t dirlen = strlen(argv[3]);

    for (size_t m = 0; m < sizeof(mods) / sizeof(mods[0]); m++) {
        const struct iolens_module_desc *d = iolens_module(mods[m]);
        struct sent s[NRANKS];
        for (int r = 0; r < NRANKS; r++) {
            s[r] = find_sent(argv[1], r, d->record_size);
            if (s[r].count != s[0].count)
                die("ranks sent different numbers of records");
        }
        for (int i = 0; i < s[0].count; i++) {
            struct iolens_record_base b;
            memcpy(&b, s[0].buf + (size_t)i * d->record_size, sizeof(b));
            const char *name = iolens_log_name(log, b.id);
            unsigned char out[1024];
            if (!name)
                die("a shared record has no name");
            if (d->record_size > sizeof(out))
                die("record too large");
            if (!find_shared(argv[2], d, b.id, out)) {
                printf("# %s %s: reduced, then left out of the log\n", d->name, name);
                continue;
            }
            if (strncmp(name, argv[3], dirlen) == 0)
                printf("record %s @DIR@%s\n", d->name, name + dirlen);
            else
                printf("record %s %s\n", d->name, name);
            for (int r = 0; r < NRANKS; r++) {
                char tag[16];
                snprintf(tag, sizeof(tag), "in%d", r);
                print_record(d, tag, s[r].buf + (size_t)i * d->record_size);
            }
            print_record(d, "out", out);
        }
        for (int r = 0; r < NRANKS; r++)
            free(s[r].buf);
    }
    iolens_log_close(log);
    return 0;
}
