/* Logs for Darshan 3.5.0's tools (IOLENS_COMPAT_DARSHAN_3_5) through the log
 * library: the versions iolens_module_compat_version gives; a log with
 * DXT_POSIX, DXT_MPIIO and DXT_STDIO records written for those tools holds
 * DXT_POSIX 1 and DXT_MPIIO 2 (32-byte segments, read back with thread ids
 * IOLENS_DXT_NO_THREAD, every other field as written) and no DXT_STDIO;
 * iolens_log_records_bytes lays a record out at version 1 and refuses
 * versions no descriptor writes.
 *
 * usage: dxt_compat_log OUT.darshan */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"
#include "iolens/log_parts.h"
#include "iolens/modules/dxt_mpiio.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/dxt_stdio.h"
#include "iolens/modules/posix.h"

#define NREC 3

static int failures;

#define EXPECT(cond)                                                        \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "FAIL: %s (line %d)\n", #cond, __LINE__);       \
            failures++;                                                     \
        }                                                                   \
    } while (0)

static struct iolens_dxt_record *make(const char *name, int64_t w, int64_t r)
{
    size_t bytes = sizeof(struct iolens_dxt_record) +
                   (size_t)(w + r) * sizeof(struct iolens_dxt_segment);
    struct iolens_dxt_record *rec = calloc(1, bytes);
    if (!rec)
        exit(1);
    rec->base.id = iolens_record_id(name);
    rec->base.rank = 3;
    memcpy(rec->hostname, "node17", sizeof("node17"));
    rec->write_count = w;
    rec->read_count = r;
    for (int64_t i = 0; i < w + r; i++)
        rec->segments[i] = (struct iolens_dxt_segment){4096 * i + 7, 100 + i, 0.5 + (double)i,
                                                       0.75 + (double)i, 140000 + (uint64_t)i};
    return rec;
}

/* The versions a log for each compat holds. */
static void check_versions(void)
{
    iolens_log_compat old = IOLENS_COMPAT_DARSHAN_3_5, newest = IOLENS_COMPAT_NEWEST;
    EXPECT(iolens_module_compat_version(&iolens_dxt_posix_module, old) == 1);
    EXPECT(iolens_module_compat_version(&iolens_dxt_mpiio_module, old) == 2);
    EXPECT(iolens_module_compat_version(&iolens_dxt_stdio_module, old) == 0);
    EXPECT(iolens_module_compat_version(&iolens_posix_module, old) == IOLENS_POSIX_VERSION);
    EXPECT(iolens_module_compat_version(&iolens_dxt_posix_module, newest) ==
           IOLENS_DXT_POSIX_VERSION);
    EXPECT(iolens_module_compat_version(&iolens_dxt_stdio_module, newest) ==
           IOLENS_DXT_STDIO_VERSION);
}

/* One record laid out at version 1: the head, then each segment's first 32
 * bytes; versions no descriptor writes are refused. */
static void check_parts(const struct iolens_dxt_record *rec)
{
    unsigned char *out = NULL;
    size_t len = 0, n = (size_t)(rec->write_count + rec->read_count);

    EXPECT(iolens_log_records_bytes(IOLENS_MOD_DXT_POSIX, 1, rec, 1, 0, &out, &len) ==
           IOLENS_OK);
    EXPECT(len == sizeof(*rec) + 32 * n);
    for (size_t i = 0; out && len == sizeof(*rec) + 32 * n && i < n; i++)
        EXPECT(memcmp(out + sizeof(*rec) + 32 * i, &rec->segments[i], 32) == 0);
    free(out);
    EXPECT(iolens_log_records_bytes(IOLENS_MOD_DXT_POSIX, 3, rec, 1, 0, &out, &len) ==
           IOLENS_ERR_VERSION);
    EXPECT(iolens_log_records_bytes(IOLENS_MOD_DXT_STDIO, 1, rec, 1, 0, &out, &len) ==
           IOLENS_ERR_VERSION);
    struct iolens_posix_record p = {.base = {1, 0}};
    EXPECT(iolens_log_records_bytes(IOLENS_MOD_POSIX, 3, &p, 1, sizeof(p), &out, &len) ==
           IOLENS_ERR_VERSION);
}

int main(int argc, char **argv)
{
    static const char *const names[NREC] = {"/data/a.bin", "/data/b.bin", "/data/cfg.txt"};
    const int mods[NREC] = {IOLENS_MOD_DXT_POSIX, IOLENS_MOD_DXT_MPIIO, IOLENS_MOD_DXT_STDIO};
    struct iolens_dxt_record *recs[NREC] = {make(names[0], 2, 1), make(names[1], 1, 2),
                                            make(names[2], 1, 1)};
    struct iolens_job job = {.uid = 1000, .start_time_sec = 1718000000, .end_time_sec = 1718000010,
                             .nprocs = 4, .jobid = 7};
    iolens_log_writer *w;
    char detail[256] = "";
    iolens_status st;

    if (argc != 2) {
        fprintf(stderr, "usage: dxt_compat_log OUT.darshan\n");
        return 2;
    }
    check_versions();
    check_parts(recs[0]);

    st = iolens_writer_create(argv[1], IOLENS_COMP_ZLIB, &w, detail, sizeof(detail));
    if (st == IOLENS_OK) {
        iolens_writer_set_compat(w, IOLENS_COMPAT_DARSHAN_3_5);
        st = iolens_writer_put_job(w, &job, "./mpi_prog", NULL, 0);
    }
    for (int i = 0; i < NREC && st == IOLENS_OK; i++)
        st = iolens_writer_put_name(w, recs[i]->base.id, names[i]);
    for (int i = 0; i < NREC && st == IOLENS_OK; i++)
        st = iolens_writer_put_record(w, mods[i], recs[i]);
    if (st == IOLENS_OK)
        st = iolens_writer_close(w);
    if (st != IOLENS_OK) {
        fprintf(stderr, "FAIL: writing %s: %s %s\n", argv[1], iolens_strerror(st), detail);
        return 1;
    }

    iolens_log *log;
    if ((st = iolens_log_open(argv[1], &log, detail, sizeof(detail))) != IOLENS_OK) {
        fprintf(stderr, "FAIL: reading %s: %s %s\n", argv[1], iolens_strerror(st), detail);
        return 1;
    }
    const struct iolens_log_info *in = iolens_log_get_info(log);
    EXPECT(in->mod_ver[IOLENS_MOD_DXT_POSIX] == 1);
    EXPECT(in->mod_ver[IOLENS_MOD_DXT_MPIIO] == 2);
    EXPECT(in->mod_map[IOLENS_MOD_DXT_STDIO].len == 0 && in->mod_ver[IOLENS_MOD_DXT_STDIO] == 0);
    for (int i = 0; i < 2; i++) {
        const struct iolens_dxt_record *got;
        if (iolens_log_next_record(log, mods[i], (const void **)&got) != IOLENS_OK) {
            fprintf(stderr, "FAIL: record %d: %s\n", i, iolens_log_error(log));
            failures++;
            continue;
        }
        EXPECT(iolens_dxt_record_bytes(got) == iolens_dxt_record_bytes(recs[i]));
        EXPECT(memcmp(got, recs[i], sizeof(*got)) == 0);
        for (int64_t k = 0; k < got->write_count + got->read_count; k++) {
            struct iolens_dxt_segment want = recs[i]->segments[k];
            want.thread_id = IOLENS_DXT_NO_THREAD;
            EXPECT(memcmp(&got->segments[k], &want, sizeof(want)) == 0);
        }
        EXPECT(iolens_log_next_record(log, mods[i], (const void **)&got) == IOLENS_END);
    }
    iolens_log_close(log);
    for (int i = 0; i < NREC; i++)
        free(recs[i]);
    if (!failures)
        printf("ok: DXT_POSIX 1, DXT_MPIIO 2, no DXT_STDIO\n");
    return failures ? 1 : 0;
}
