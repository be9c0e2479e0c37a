/* The writer's parallel compression: a log whose name and POSIX regions are
 * many times the chunk is written with 1, 2 and 4 threads (and with bzip2,
 * which stays one stream), read back, and must hold exactly the names and
 * records given, in order. The single-thread log must be one stream per
 * region; the others one stream per chunk, after a first stream of
 * IOL_REGION_PAR_MIN bytes, or from the first byte when the writer was told
 * the regions' sizes (iol_writer_expect, as the runtime does). A small log
 * must come out byte for byte the same whatever the thread count.
 *
 * usage: writer_threads OUT_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "format/log_internal.h"
#include "format/region_write.h"
#include "iolens/log.h"
#include "iolens/modules/posix.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                 \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void name_of(char *buf, size_t len, long i)
{
    snprintf(buf, len, "/scratch/project/run-with-a-long-directory-name/dir%03ld/file-%07ld.dat",
             i % 97, i);
}

/* Record i: mostly zeros, a few counters and timestamps, as the runtime's. */
static void record_of(struct iolens_posix_record *r, long i)
{
    char name[128];
    memset(r, 0, sizeof(*r));
    name_of(name, sizeof(name), i);
    r->base.id = iolens_record_id(name);
    r->base.rank = 0;
    r->counters[POSIX_OPENS] = 1 + i % 3;
    r->counters[POSIX_WRITES] = i % 7;
    r->counters[POSIX_BYTES_WRITTEN] = 16 * (i % 7);
    r->counters[POSIX_MODE] = 0644;
    r->fcounters[POSIX_F_OPEN_START_TIMESTAMP] = (double)i * 0x1p-12;
    r->fcounters[POSIX_F_CLOSE_END_TIMESTAMP] = (double)(i + 3) * 0x1p-12;
}

/* Bytes of the name region of n names. */
static uint64_t name_bytes(long n)
{
    char name[128];
    uint64_t sum = 0;
    for (long i = 0; i < n; i++) {
        name_of(name, sizeof(name), i);
        sum += 8 + strlen(name) + 1;
    }
    return sum;
}

/* Write a log of n names and records; expect: tell the writer each region's size. */
static int write_log(const char *path, long n, int threads, iolens_compression comp, int expect)
{
    iolens_log_writer *w;
    struct iolens_job job = {.uid = 1, .start_time_sec = 100, .end_time_sec = 200, .nprocs = 1,
                             .jobid = 42};
    struct iolens_posix_record r;
    char name[128];

    if (iolens_writer_create(path, comp, &w, NULL, 0) != IOLENS_OK)
        return -1;
    iolens_writer_set_threads(w, threads);
    iolens_status st = iolens_writer_put_job(w, &job, "./prog", NULL, 0);
    if (expect)
        iol_writer_expect(w, name_bytes(n));
    for (long i = 0; i < n && st == IOLENS_OK; i++) {
        name_of(name, sizeof(name), i);
        st = iolens_writer_put_name(w, iolens_record_id(name), name);
    }
    if (expect)
        iol_writer_expect(w, (uint64_t)n * sizeof(r));
    for (long i = 0; i < n && st == IOLENS_OK; i++) {
        record_of(&r, i);
        st = iolens_writer_put_record(w, IOLENS_MOD_POSIX, &r);
    }
    if (st != IOLENS_OK) {
        iolens_writer_abort(w);
        return -1;
    }
    return iolens_writer_close(w) == IOLENS_OK ? 0 : -1;
}

/* Complete zlib streams in the region [off, off + len) of the file. */
static int count_streams(const char *path, uint64_t off, uint64_t len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = malloc(len ? len : 1), out[65536];
    int n = 0;
    if (!f || !buf || fseek(f, (long)off, SEEK_SET) != 0 || fread(buf, 1, len, f) != len) {
        n = -1;
        goto done;
    }
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit(&z) != Z_OK) {
        n = -1;
        goto done;
    }
    z.next_in = buf;
    z.avail_in = (uInt)len;
    while (z.avail_in > 0) {
        z.next_out = out;
        z.avail_out = sizeof(out);
        int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            n++;
            inflateReset(&z);
        } else if (rc != Z_OK) {
            n = -1;
            break;
        }
    }
    inflateEnd(&z);
done:
    if (f)
        fclose(f);
    free(buf);
    return n;
}

/* How a region's input was cut into streams. */
enum cut { ONE_STREAM, FIRST_PAR_MIN, CHUNKS };

/* Streams a region of bytes of input is cut into. */
static long streams_of(uint64_t bytes, enum cut cut)
{
    if (cut == ONE_STREAM)
        return 1;
    if (cut == FIRST_PAR_MIN)
        return 1 + (long)((bytes - IOL_REGION_PAR_MIN + IOL_REGION_CHUNK - 1) / IOL_REGION_CHUNK);
    return (long)((bytes + IOL_REGION_CHUNK - 1) / IOL_REGION_CHUNK);
}

static void check_log(const char *path, long n, enum cut cut)
{
    iolens_log *log;
    const void *rec;
    struct iolens_posix_record want;
    char name[128];
    long got = 0;

    if (iolens_log_open(path, &log, NULL, 0) != IOLENS_OK) {
        CHECK(0, "%s does not open", path);
        return;
    }
    const struct iolens_log_info *info = iolens_log_get_info(log);
    CHECK(iolens_log_load_names(log) == IOLENS_OK, "%s: names", path);
    CHECK(iolens_log_name_count(log) == (size_t)n, "%s: %zu names", path,
          iolens_log_name_count(log));
    for (long i = 0; i < n; i += 997) {
        name_of(name, sizeof(name), i);
        const char *got_name = iolens_log_name(log, iolens_record_id(name));
        CHECK(got_name && strcmp(got_name, name) == 0, "%s: name %ld", path, i);
    }
    while (iolens_log_next_record(log, IOLENS_MOD_POSIX, &rec) == IOLENS_OK) {
        record_of(&want, got);
        if (memcmp(rec, &want, sizeof(want)) != 0) {
            CHECK(0, "%s: record %ld differs", path, got);
            break;
        }
        got++;
    }
    CHECK(got == n, "%s: %ld records of %ld", path, got, n);
    if (info->compression == IOLENS_COMP_ZLIB) {
        int names = count_streams(path, info->name_map.off, info->name_map.len);
        int posix = count_streams(path, info->mod_map[IOLENS_MOD_POSIX].off,
                                  info->mod_map[IOLENS_MOD_POSIX].len);
        long want_names = streams_of(name_bytes(n), cut);
        long want_posix = streams_of((uint64_t)n * sizeof(want), cut);
        CHECK(names == want_names && posix == want_posix,
              "%s: %d name streams, %d POSIX streams; expected %ld and %ld", path, names, posix,
              want_names, want_posix);
    }
    iolens_log_close(log);
}

static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

int main(int argc, char **argv)
{
    char path[4096], small1[4096], small4[4096];
    const long big = 30000; /* ~21 MB of POSIX records, ~2.5 MB of names */
    const int threads[] = {1, 2, 4};

    if (argc != 2) {
        fprintf(stderr, "usage: writer_threads OUT_DIR\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof(threads) / sizeof(*threads); i++) {
        for (int expect = 0; expect < 2; expect++) {
            snprintf(path, sizeof(path), "%s/threads%d-%d.darshan", argv[1], threads[i], expect);
            CHECK(write_log(path, big, threads[i], IOLENS_COMP_ZLIB, expect) == 0, "writing %s",
                  path);
            check_log(path, big, threads[i] == 1 ? ONE_STREAM : expect ? CHUNKS : FIRST_PAR_MIN);
            unlink(path);
        }
    }
    snprintf(path, sizeof(path), "%s/threads-bzip2.darshan", argv[1]);
    CHECK(write_log(path, 5000, 4, IOLENS_COMP_BZIP2, 1) == 0, "writing %s", path);
    check_log(path, 5000, ONE_STREAM);
    unlink(path);

    snprintf(small1, sizeof(small1), "%s/small1.darshan", argv[1]);
    snprintf(small4, sizeof(small4), "%s/small4.darshan", argv[1]);
    CHECK(write_log(small1, 1000, 1, IOLENS_COMP_ZLIB, 0) == 0, "writing %s", small1);
    CHECK(write_log(small4, 1000, 4, IOLENS_COMP_ZLIB, 1) == 0, "writing %s", small4);
    check_log(small4, 1000, ONE_STREAM);
    CHECK(same_bytes(small1, small4), "small logs differ with 1 and 4 threads");
    unlink(small1);
    unlink(small4);

    if (failures)
        fprintf(stderr, "writer_threads: %d failures\n", failures);
    else
        printf("writer_threads: ok\n");
    return failures != 0;
}
