/* DXT_STDIO (an iolens module id, 63) through the writer and the reader: a
 * log with a STDIO record, a DXT_POSIX trace and two DXT_STDIO traces is
 * written, read back and compared record by record, byte for byte (thread
 * ids alternating between two values).
 * tests/dxt_stdio_log.sh then checks what `iolens dxt` prints of it.
 *
 * usage: dxt_stdio_log OUT.darshan */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/dxt_stdio.h"

#define NREC 3

static struct iolens_dxt_record *make(const char *name, int64_t w, int64_t r, int64_t base)
{
    size_t bytes = sizeof(struct iolens_dxt_record) +
                   (size_t)(w + r) * sizeof(struct iolens_dxt_segment);
    struct iolens_dxt_record *rec = calloc(1, bytes);
    if (!rec)
        exit(1);
    rec->base.id = iolens_record_id(name);
    rec->base.rank = 0;
    memcpy(rec->hostname, "node17", sizeof("node17"));
    rec->write_count = w;
    rec->read_count = r;
    for (int64_t i = 0; i < w + r; i++)
        rec->segments[i] = (struct iolens_dxt_segment){base + 100 * i, 100 + i,
                                                       0.5 + (double)i, 0.75 + (double)i,
                                                       140000 + (uint64_t)(i % 2)};
    return rec;
}

int main(int argc, char **argv)
{
    static const char *const names[NREC] = {"/data/a.bin", "/data/cfg.txt", "/data/out.csv"};
    const int mods[NREC] = {IOLENS_MOD_DXT_POSIX, IOLENS_MOD_DXT_STDIO, IOLENS_MOD_DXT_STDIO};
    struct iolens_dxt_record *recs[NREC] = {make(names[0], 1, 1, 0), make(names[1], 0, 3, 7),
                                            make(names[2], 2, 0, 4096)};
    struct iolens_mount mounts[] = {{"/data", "xfs"}};
    struct iolens_job job = {.uid = 1000, .start_time_sec = 1718000000, .end_time_sec = 1718000010,
                             .nprocs = 1, .jobid = 7};
    iolens_log_writer *w;
    char detail[256] = "";
    iolens_status st;

    if (argc != 2) {
        fprintf(stderr, "usage: dxt_stdio_log OUT.darshan\n");
        return 2;
    }
    if (IOLENS_MOD_DXT_STDIO != 63 || !iolens_module(63) || !iolens_module(63)->trace ||
        strcmp(iolens_module_name(63), "DXT_STDIO") != 0 || iolens_module_name(61)) {
        fprintf(stderr, "FAIL: module id 63 is not DXT_STDIO\n");
        return 1;
    }
    snprintf(job.metadata, sizeof(job.metadata), "lib_ver=iolens-test\n");
    st = iolens_writer_create(argv[1], IOLENS_COMP_ZLIB, &w, detail, sizeof(detail));
    if (st == IOLENS_OK)
        st = iolens_writer_put_job(w, &job, "./stdio_prog", mounts, 1);
    for (int i = 0; i < NREC && st == IOLENS_OK; i++)
        st = iolens_writer_put_name(w, recs[i]->base.id, names[i]);
    for (int i = 0; i < NREC && st == IOLENS_OK; i++)
        st = iolens_writer_put_record(w, mods[i], recs[i]);
    if (st == IOLENS_OK)
        st = iolens_writer_close(w);
    if (st != IOLENS_OK) {
        fprintf(stderr, "FAIL: writing %s: %s\n", argv[1], iolens_strerror(st));
        return 1;
    }

    iolens_log *log;
    st = iolens_log_open(argv[1], &log, detail, sizeof(detail));
    if (st != IOLENS_OK) {
        fprintf(stderr, "FAIL: reading %s: %s %s\n", argv[1], iolens_strerror(st), detail);
        return 1;
    }
    int failures = 0;
    if (iolens_log_get_info(log)->mod_ver[63] != IOLENS_DXT_STDIO_VERSION) {
        fprintf(stderr, "FAIL: DXT_STDIO version %u\n", iolens_log_get_info(log)->mod_ver[63]);
        failures++;
    }
    for (int i = 0; i < NREC; i++) {
        const void *rec;
        st = iolens_log_next_record(log, mods[i], &rec);
        if (st != IOLENS_OK) {
            fprintf(stderr, "FAIL: record %d: %s\n", i, iolens_log_error(log));
            failures++;
            continue;
        }
        if (memcmp(rec, recs[i], iolens_dxt_record_bytes(recs[i])) != 0) {
            fprintf(stderr, "FAIL: record %d differs after the round trip\n", i);
            failures++;
        }
    }
    if (iolens_log_next_record(log, IOLENS_MOD_DXT_STDIO, &(const void *){0}) != IOLENS_END) {
        fprintf(stderr, "FAIL: more DXT_STDIO records than written\n");
        failures++;
    }
    iolens_log_close(log);
    for (int i = 0; i < NREC; i++)
        free(recs[i]);
    return failures ? 1 : 0;
}
