/* What parse and dxt share: opening logs one after the other, the job
 * summary, region table and mount table they print first, and the name and
 * file system printed beside each record. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* darshan-parser reports the size of the current header layout for every log. */
#define CURRENT_HEADER_BYTES 1328

iolens_log *cli_open_log(const char *path)
{
    iolens_log *log = NULL;
    char why[256];
    iolens_status st = iolens_log_open(path, &log, why, sizeof(why));
    if (st != IOLENS_OK) {
        cli_error(path, "%s", why[0] ? why : iolens_strerror(st));
        return NULL;
    }
    return log;
}

int cli_each_log(int n, char **paths, int (*one)(const char *path, void *arg), void *arg)
{
    int worst = 0;
    for (int i = 0; i < n; i++) {
        if (n > 1)
            printf("%s# ==> %s <==\n", i ? "\n" : "", paths[i]);
        int rc = one(paths[i], arg);
        worst = rc > worst ? rc : worst;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("stdout", "write failed");
        worst = worst > 1 ? worst : 1;
    }
    return worst;
}

void cli_match_mount(const struct iolens_log_info *in, const char *name, const char **mnt_pt,
                     const char **fs_type)
{
    *mnt_pt = "UNKNOWN";
    *fs_type = "UNKNOWN";
    if (!name)
        return;
    for (size_t i = 0; i < in->nmounts; i++) {
        if (!strncmp(in->mounts[i].path, name, strlen(in->mounts[i].path))) {
            *mnt_pt = in->mounts[i].path;
            *fs_type = in->mounts[i].type;
            return;
        }
    }
}

struct iolens_print_ctx cli_print_ctx(const iolens_log *log, const struct iolens_module_desc *mod,
                                      uint64_t id)
{
    struct iolens_print_ctx ctx = {.name = iolens_log_name(log, id)};
    cli_match_mount(iolens_log_get_info(log), ctx.name, &ctx.mnt_pt, &ctx.fs_type);
    if (!ctx.name)
        ctx.name = mod->default_name ? mod->default_name : "(null)";
    return ctx;
}

static const char *compression_name(iolens_compression c)
{
    switch (c) {
    case IOLENS_COMP_ZLIB: return "ZLIB";
    case IOLENS_COMP_BZIP2: return "BZIP2";
    case IOLENS_COMP_NONE: return "NONE";
    case IOLENS_COMP_ZSTD: return "ZSTD";
    }
    return "UNKNOWN";
}

/* "key=value" lines of the job metadata, split at the first '='. */
static void print_metadata(FILE *out, const char *metadata)
{
    const char *p = metadata;
    while (*p) {
        size_t len = strcspn(p, "\n");
        const char *eq = memchr(p, '=', len);
        if (eq)
            fprintf(out, "# metadata: %.*s = %.*s\n", (int)(eq - p), p,
                    (int)(len - (size_t)(eq - p) - 1), eq + 1);
        p += len;
        p += strspn(p, "\n");
    }
}

static void print_time(FILE *out, const char *label, int64_t sec)
{
    time_t t = (time_t)sec;
    char buf[64];
    struct tm tm;
    fprintf(out, "# %s: %" PRId64 "\n", label, sec);
    if (localtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
        fprintf(out, "# %s_asci: %s\n", label, buf);
    else
        fprintf(out, "# %s_asci: ?\n", label);
}

void cli_print_log_header(FILE *out, const iolens_log *log)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    const struct iolens_job *job = &in->job;
    double run_time = iolens_log_run_time(in);

    fprintf(out, "# darshan log version: %s\n", in->version);
    fprintf(out, "# compression method: %s\n", compression_name(in->compression));
    fprintf(out, "# exe: %s\n", in->exe);
    fprintf(out, "# uid: %" PRId64 "\n", job->uid);
    fprintf(out, "# jobid: %" PRId64 "\n", job->jobid);
    print_time(out, "start_time", job->start_time_sec);
    print_time(out, "end_time", job->end_time_sec);
    fprintf(out, "# nprocs: %" PRId64 "\n", job->nprocs);
    fprintf(out, "# run time: %.4f\n", run_time);
    print_metadata(out, job->metadata);

    fprintf(out, "\n# log file regions\n");
    fprintf(out, "# -------------------------------------------------------\n");
    fprintf(out, "# header: %d bytes (uncompressed)\n", CURRENT_HEADER_BYTES);
    fprintf(out, "# job data: %" PRIu64 " bytes (compressed)\n", in->job_map.len);
    fprintf(out, "# record table: %" PRIu64 " bytes (compressed)\n", in->name_map.len);
    for (int i = 0; i < IOLENS_MAX_MODS; i++) {
        if (!in->mod_map[i].len && !(in->partial_flags & (1ULL << i)))
            continue;
        const char *name = iolens_module_name(i);
        if (name)
            fprintf(out, "# %s module: %" PRIu64 " bytes (compressed), ver=%u\n", name,
                    in->mod_map[i].len, in->mod_ver[i]);
        else
            fprintf(out, "# <UNKNOWN> module (id %d): %" PRIu64 " bytes (compressed), ver=%u\n",
                    i, in->mod_map[i].len, in->mod_ver[i]);
    }

    fprintf(out, "\n# mounted file systems (mount point and fs type)\n");
    fprintf(out, "# -------------------------------------------------------\n");
    for (size_t i = 0; i < in->nmounts; i++)
        fprintf(out, "# mount entry:\t%s\t%s\n", in->mounts[i].path, in->mounts[i].type);
}
