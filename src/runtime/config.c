/* Settings from the environment. The DARSHAN_* names are honoured so that
 * sites keep the settings they already have; the IOLENS_* name wins. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

/* Darshan's default exclusions (darshan-config.c), in the same order. */
static const char *const default_excludes[] = {
    "/etc/", "/dev/", "/usr/", "/bin/", "/boot/", "/lib/",
    "/opt/", "/sbin/", "/sys/", "/proc/", "/var/",
};

const char *iol_config_env(const char *iolens_name, const char *darshan_name)
{
    const char *v = iolens_name ? getenv(iolens_name) : NULL;
    if (v && *v)
        return v;
    v = darshan_name ? getenv(darshan_name) : NULL;
    return (v && *v) ? v : NULL;
}

/* Parse a non-negative decimal number. @return 0 and *out, or -1. */
static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

static void copy_str(char *dst, size_t len, const char *src)
{
    size_t n = strnlen(src, len - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* IOLENS_EXCLUDE_DIRS / DARSHAN_EXCLUDE_DIRS: comma-separated prefixes that
 * replace the defaults; "none" excludes nothing. */
static void load_excludes(struct iol_config *c)
{
    const char *v = iol_config_env("IOLENS_EXCLUDE_DIRS", "DARSHAN_EXCLUDE_DIRS");

    c->nexcludes = 0;
    if (!v) {
        for (size_t i = 0; i < sizeof(default_excludes) / sizeof(*default_excludes); i++)
            c->excludes[c->nexcludes++] = default_excludes[i];
        return;
    }
    c->user_excludes = 1;
    if (strcmp(v, "none") == 0)
        return;
    copy_str(c->exclude_text, sizeof(c->exclude_text), v);
    char *save = NULL;
    for (char *tok = strtok_r(c->exclude_text, ",", &save); tok && c->nexcludes < IOL_MAX_EXCLUDES;
         tok = strtok_r(NULL, ",", &save)) {
        if (*tok)
            c->excludes[c->nexcludes++] = tok;
    }
}

/* A size in MiB from the environment into *out (bytes). */
static void load_mib(const char *iolens_name, const char *darshan_name, size_t *out)
{
    const char *v = iol_config_env(iolens_name, darshan_name);
    uint64_t n;
    if (!v)
        return;
    if (parse_u64(v, &n) == 0 && n > 0 && n < ((uint64_t)1 << 40))
        *out = (size_t)n << 20;
    else
        iol_diag("ignoring %s=%s (expected a number of MiB)", iolens_name, v);
}

void iol_config_load(struct iol_config *c)
{
    const char *v;
    uint64_t n;

    memset(c, 0, sizeof(*c));
    c->name_mem = IOL_DEFAULT_NAME_MEM;
    c->max_records = IOL_DEFAULT_MAX_RECORDS;
    c->mem_alignment = IOL_DEFAULT_MEM_ALIGNMENT;
    /* Memory-backed /dev/shm when usable (creating and removing a file there
     * costs microseconds, on a disk file system milliseconds), else /tmp. */
    copy_str(c->mmap_dir, sizeof(c->mmap_dir), access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp");

    v = iol_config_env("IOLENS_DISABLE", "DARSHAN_DISABLE");
    c->disabled = v && strcmp(v, "0") != 0;
    if ((v = iol_config_env("IOLENS_LOGPATH", "DARSHAN_LOGPATH")))
        copy_str(c->logpath, sizeof(c->logpath), v);
    if ((v = iol_config_env("IOLENS_LOGFILE", "DARSHAN_LOGFILE")))
        copy_str(c->logfile, sizeof(c->logfile), v);
    if ((v = iol_config_env("IOLENS_MMAP_DIR", "DARSHAN_MMAP_LOGPATH")))
        copy_str(c->mmap_dir, sizeof(c->mmap_dir), v);
    if ((v = iol_config_env("IOLENS_JOBID_ENV", "DARSHAN_JOBID")))
        copy_str(c->jobid_env, sizeof(c->jobid_env), v);
    load_mib("IOLENS_MODMEM", "DARSHAN_MODMEM", &c->mod_mem);
    load_mib("IOLENS_NAMEMEM", "DARSHAN_NAMEMEM", &c->name_mem);
    if ((v = iol_config_env("IOLENS_MAX_RECORDS", NULL))) {
        if (parse_u64(v, &n) == 0 && n > 0 && n <= (1u << 24))
            c->max_records = (uint32_t)n;
        else
            iol_diag("ignoring IOLENS_MAX_RECORDS=%s (expected 1 to 16777216)", v);
    }
    if ((v = iol_config_env("IOLENS_MEM_ALIGNMENT", "DARSHAN_MEMALIGN"))) {
        if (parse_u64(v, &n) == 0 && n > 0 && n <= 65536)
            c->mem_alignment = (int)n;
    }
    load_excludes(c);
}
