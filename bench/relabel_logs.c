/* Write N distinct logs from a few real ones, for bench/ingest.sh: log i is
 * input i mod K rewritten through the library with job id i + 1 (so each
 * has its own content, as the logs of N jobs would).
 *
 * usage: relabel_logs N OUTDIR LOG... */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "iolens/log.h"

static int put_name(uint64_t id, const char *name, void *w)
{
    return iolens_writer_put_name(w, id, name) != IOLENS_OK;
}

/* Rewrite log as out with job id jobid. @return 0, or 1 (said). */
static int relabel(iolens_log *log, const char *out, int64_t jobid)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    struct iolens_job job = in->job;
    iolens_log_writer *w;
    char why[256] = "";
    job.jobid = jobid;
    if (iolens_writer_create(out, IOLENS_COMP_ZLIB, &w, why, sizeof(why)) != IOLENS_OK) {
        fprintf(stderr, "relabel_logs: %s: %s\n", out, why);
        return 1;
    }
    iolens_writer_set_threads(w, 1);
    iolens_status st = iolens_writer_put_job(w, &job, in->exe, in->mounts, in->nmounts);
    if (st == IOLENS_OK && iolens_log_each_name(log, put_name, w))
        st = IOLENS_ERR_IO;
    for (int id = 0; id < IOLENS_MAX_MODS && st == IOLENS_OK; id++) {
        const void *rec;
        iolens_status rs;
        if ((in->partial_flags >> id) & 1)
            iolens_writer_set_partial(w, id);
        if (in->mod_map[id].len == 0 || !iolens_module(id))
            continue;
        while (st == IOLENS_OK && (rs = iolens_log_next_record(log, id, &rec)) == IOLENS_OK)
            st = iolens_writer_put_record(w, id, rec);
    }
    if (st != IOLENS_OK) {
        iolens_writer_abort(w);
        fprintf(stderr, "relabel_logs: %s: %s\n", out, iolens_strerror(st));
        return 1;
    }
    return iolens_writer_close(w) != IOLENS_OK;
}

/* Open path with its names. @return the handle, or NULL (said). */
static iolens_log *open_log(const char *path)
{
    iolens_log *log = NULL;
    char why[256] = "";
    if (iolens_log_open(path, &log, why, sizeof(why)) != IOLENS_OK ||
        iolens_log_load_names(log) != IOLENS_OK) {
        fprintf(stderr, "relabel_logs: %s: %s\n", path, log ? iolens_log_error(log) : why);
        iolens_log_close(log);
        return NULL;
    }
    return log;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: relabel_logs N OUTDIR LOG...\n");
        return 2;
    }
    long n = strtol(argv[1], NULL, 10);
    int k = argc - 3;
    for (long i = 0; i < n; i++) {
        char out[4096];
        /* 1,000 logs per folder, as a site's log tree has them per day */
        snprintf(out, sizeof(out), "%s/%03ld", argv[2], i / 1000);
        if (i % 1000 == 0 && mkdir(out, 0755) != 0 && errno != EEXIST) {
            perror(out);
            return 1;
        }
        snprintf(out, sizeof(out), "%s/%03ld/job%06ld.darshan", argv[2], i / 1000, i);
        iolens_log *log = open_log(argv[3 + i % k]);
        if (!log || relabel(log, out, i + 1)) {
            iolens_log_close(log);
            return 1;
        }
        iolens_log_close(log);
    }
    return 0;
}
