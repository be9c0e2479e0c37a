/* Job data, collected once at start-up. */
#include "job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "real.h"

/* Darshan keeps the command line in what is left of a 4 KiB job region. */
#define EXE_MAX 3015

/* Leading decimal number of s, as sscanf("%lld") would read it (blanks, a
 * sign, digits), read by hand: the runtime may start inside a sanitizer's
 * initialisation, where calling its strtoll interceptor aborts the process.
 * @return 0 and *out, or -1 (no digits, or out of range). */
static int leading_number(const char *s, int64_t *out)
{
    int neg = 0;
    uint64_t v = 0, max = (uint64_t)INT64_MAX;

    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > max + (uint64_t)neg)
            return -1;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

/* Flux prints job ids in its "f58" base-58 form, prefixed by "ƒ" or 'f'. */
static int flux_f58(const char *s, int64_t *out)
{
    static const char digits[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    uint64_t v = 0;

    if ((unsigned char)s[0] == 0xc6 && (unsigned char)s[1] == 0x92)
        s += 2;
    else if (s[0] == 'f')
        s += 1;
    else
        return -1;
    if (!*s)
        return -1;
    for (; *s; s++) {
        const char *d = strchr(digits, *s);
        if (!d || v > (UINT64_MAX - 57) / 58)
            return -1;
        v = v * 58 + (uint64_t)(d - digits);
    }
    *out = (int64_t)v;
    return 0;
}

int64_t iol_job_id(const struct iol_config *cfg, int64_t fallback)
{
    static const char *const vars[] = {
        "SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "FLUX_JOB_ID", "COBALT_JOBID",
    };
    int64_t id;

    if (cfg->jobid_env[0]) {
        const char *v = getenv(cfg->jobid_env);
        return (v && leading_number(v, &id) == 0) ? id : fallback;
    }
    for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        if (leading_number(v, &id) == 0 || flux_f58(v, &id) == 0)
            return id;
    }
    return fallback;
}

int64_t iol_job_run(char *dir, size_t len, int64_t pid)
{
    const char *d = getenv("IOLENS_RUN_DIR"), *id = getenv("IOLENS_RUN_JOBID");
    int64_t v;

    dir[0] = '\0';
    if (d && d[0] == '/' && iol_fmt(dir, len, "%s", d) >= len)
        dir[0] = '\0';
    return id && leading_number(id, &v) == 0 && v > 0 ? v : pid;
}

/* Set by iol_job_set_args, taken by the next fill. */
static int start_argc;
static char **start_argv;

void iol_job_set_args(int argc, char **argv)
{
    start_argc = argc;
    start_argv = argv;
}

/* Are the arguments where the kernel put them, each string right after the
 * previous one's NUL? Their bytes are then /proc/self/cmdline's. */
static int args_in_place(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!argv[i] || argv[i] != argv[i - 1] + strlen(argv[i - 1]) + 1)
            return 0;
    return argv[0] != NULL;
}

/* The arguments as /proc/self/cmdline shows them (each with its NUL), at most
 * len - 1 bytes, NUL-terminated: from the arguments iol_job_set_args gave
 * when they are still in place, else from the file (a program that has
 * rewritten them, as for a process title). @return the bytes, or -1. */
static ssize_t args_bytes(char *buf, size_t len)
{
    int argc = start_argc;
    char **argv = start_argv;

    start_argv = NULL;
    if (!argv || argc <= 0 || len == 0 || !args_in_place(argc, argv))
        return iol_sys_read_file("/proc/self/cmdline", buf, len);
    const char *last = argv[argc - 1];
    size_t n = (size_t)(last + strlen(last) + 1 - argv[0]);
    if (n > len - 1)
        n = len - 1;
    memcpy(buf, argv[0], n);
    buf[n] = '\0';
    return (ssize_t)n;
}

/* The command line: NUL-separated arguments joined by spaces. */
static void fill_exe(char *exe, size_t len)
{
    static const char cut[] = "<TRUNCATED>";
    char buf[EXE_MAX + 2];
    ssize_t n = args_bytes(buf, sizeof(buf));

    if (n <= 0) {
        iol_fmt(exe, len, "%s <unknown args>", program_invocation_name);
        return;
    }
    while (n > 0 && buf[n - 1] == '\0')
        n--;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    if ((size_t)n > EXE_MAX) {
        n = EXE_MAX;
        memcpy(buf + EXE_MAX - (sizeof(cut) - 1), cut, sizeof(cut) - 1);
    }
    if ((size_t)n >= len)
        n = (ssize_t)len - 1;
    memcpy(exe, buf, (size_t)n);
    exe[n] = '\0';
}

/* The first of the named variables holding a number. @return it, or -1. */
static int64_t first_number(const char *const *names, size_t n)
{
    int64_t v;
    for (size_t i = 0; i < n; i++) {
        const char *s = getenv(names[i]);
        if (s && *s && leading_number(s, &v) == 0)
            return v;
    }
    return -1;
}

static void fill_metadata(char *meta, size_t len, pid_t fork_parent)
{
    static const char *const rank_vars[] = {
        "SLURM_PROCID", "PMIX_RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "RANK",
    };
    static const char *const size_vars[] = {
        "SLURM_NTASKS", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "WORLD_SIZE",
    };
    size_t used = iol_fmt(meta, len, "lib_ver=%s\nruntime=iolens\n", IOLENS_VERSION_STRING);
    if (fork_parent && used < len)
        used += iol_fmt(meta + used, len - used, "fork_parent=%d\n", (int)fork_parent);
    int64_t rank = first_number(rank_vars, sizeof(rank_vars) / sizeof(*rank_vars));
    int64_t size = first_number(size_vars, sizeof(size_vars) / sizeof(*size_vars));
    if (rank >= 0 && used < len)
        used += iol_fmt(meta + used, len - used, "rank=%lld\n", (long long)rank);
    if (size > 0 && used < len)
        iol_fmt(meta + used, len - used, "world_size=%lld\n", (long long)size);
}

void iol_job_fill(struct iol_map_header *h, int64_t jobid, pid_t fork_parent)
{
    h->uid = (int64_t)getuid();
    h->jobid = jobid;
    h->nprocs = 1;
    fill_exe(h->exe, sizeof(h->exe));
    fill_metadata(h->metadata, sizeof(h->metadata), fork_parent);
}
