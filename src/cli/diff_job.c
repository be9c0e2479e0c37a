/* The job data iolens diff compares: the job's numbers,
 * the modules marked partial, the command line, each metadata key and each
 * mount point. */
#include <stdio.h>
#include <string.h>

#include "diff.h"

static void compare_text(struct diff_out *o, const char *field, const char *a, const char *b)
{
    if (strcmp(a, b) != 0)
        diff_job_line(o, field, a, b);
}

static void compare_int(struct diff_out *o, const char *field, int64_t a, int64_t b)
{
    char x[32], y[32];
    snprintf(x, sizeof(x), "%lld", (long long)a);
    snprintf(y, sizeof(y), "%lld", (long long)b);
    compare_text(o, field, x, y);
}

static void compare_time(struct diff_out *o, const char *field, int64_t as, int64_t an,
                         int64_t bs, int64_t bn)
{
    char x[48], y[48];
    snprintf(x, sizeof(x), "%lld.%09lld", (long long)as, (long long)an);
    snprintf(y, sizeof(y), "%lld.%09lld", (long long)bs, (long long)bn);
    compare_text(o, field, x, y);
}

/* The names of the modules whose bit is set, comma-separated ("-": none). */
static void partial_names(uint64_t flags, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int m = 0; m < IOLENS_MAX_MODS && used < len; m++) {
        if (!(flags & (1ULL << m)))
            continue;
        const char *n = iolens_module_name(m);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
                                 n ? n : "?");
    }
    if (!buf[0])
        snprintf(buf, len, "-");
}

/* The value of key (klen bytes) among metadata lines m, into v. @return 1 if there. */
static int meta_value(const char *m, const char *key, size_t klen, char *v, size_t len)
{
    for (const char *p = m; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > klen && p[klen] == '=' && strncmp(p, key, klen) == 0) {
            snprintf(v, len, "%.*s", (int)(n - klen - 1), p + klen + 1);
            return 1;
        }
        p += n + (p[n] == '\n');
    }
    return 0;
}

/* Each key of from's metadata whose value other lacks or has otherwise;
 * from_is_a: from is A. With from B, keys A has were compared already. */
static void compare_metadata(struct diff_out *o, const char *from, const char *other,
                             int from_is_a)
{
    for (const char *p = from; *p;) {
        size_t n = strcspn(p, "\n"), k = strcspn(p, "=");
        char field[160], v[1024], w[1024];
        if (k < n) {
            int in_other = meta_value(other, p, k, w, sizeof(w));
            meta_value(from, p, k, v, sizeof(v));
            snprintf(field, sizeof(field), "metadata %.*s", (int)(k < 100 ? k : 100), p);
            if (from_is_a && (!in_other || strcmp(v, w) != 0))
                diff_job_line(o, field, v, in_other ? w : "-");
            else if (!from_is_a && !in_other)
                diff_job_line(o, field, "-", v);
        }
        p += n + (p[n] == '\n');
    }
}

/* Is there a mount of path and type in in? */
static int has_mount(const struct iolens_log_info *in, const struct iolens_mount *m)
{
    for (size_t i = 0; i < in->nmounts; i++)
        if (!strcmp(in->mounts[i].path, m->path) && !strcmp(in->mounts[i].type, m->type))
            return 1;
    return 0;
}

static void compare_mounts(struct diff_out *o, const struct iolens_log_info *a,
                           const struct iolens_log_info *b)
{
    char field[4200];
    for (size_t i = 0; i < a->nmounts; i++)
        if (!has_mount(b, &a->mounts[i])) {
            snprintf(field, sizeof(field), "mount %s", a->mounts[i].path);
            diff_job_line(o, field, a->mounts[i].type, "-");
        }
    for (size_t i = 0; i < b->nmounts; i++)
        if (!has_mount(a, &b->mounts[i])) {
            snprintf(field, sizeof(field), "mount %s", b->mounts[i].path);
            diff_job_line(o, field, "-", b->mounts[i].type);
        }
}

void diff_job(struct diff_out *o, iolens_log *la, iolens_log *lb, int ignore_timers)
{
    const struct iolens_log_info *a = iolens_log_get_info(la), *b = iolens_log_get_info(lb);
    const struct iolens_job *x = &a->job, *y = &b->job;
    char pa[512], pb[512];

    compare_int(o, "uid", x->uid, y->uid);
    compare_int(o, "jobid", x->jobid, y->jobid);
    if (!ignore_timers) {
        compare_time(o, "start_time", x->start_time_sec, x->start_time_nsec, y->start_time_sec,
                     y->start_time_nsec);
        compare_time(o, "end_time", x->end_time_sec, x->end_time_nsec, y->end_time_sec,
                     y->end_time_nsec);
    }
    compare_int(o, "nprocs", x->nprocs, y->nprocs);
    partial_names(a->partial_flags, pa, sizeof(pa));
    partial_names(b->partial_flags, pb, sizeof(pb));
    compare_text(o, "partial", pa, pb);
    compare_text(o, "exe", a->exe ? a->exe : "", b->exe ? b->exe : "");
    compare_metadata(o, x->metadata, y->metadata, 1);
    compare_metadata(o, y->metadata, x->metadata, 0);
    compare_mounts(o, a, b);
}
