/* Settings: defaults, then the config file (IOLENS_CONFIG_PATH or
 * DARSHAN_CONFIG_PATH), then the environment. The file takes Darshan 3.5's
 * keys so that sites can reuse their files; the DARSHAN_* variables are
 * honoured too, and the IOLENS_* name wins over the DARSHAN_* one.
 * Everything is parsed once at start; only regcomp allocates. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "diag.h"
#include "fmt.h"
#include "paths.h"
#include "real.h"
#include "common/recfile.h"

/* Darshan's default exclusions, in the same order, and its one inclusion. */
static const char *const default_excludes[] = {
    "/etc/", "/dev/", "/usr/", "/bin/", "/boot/", "/lib/",
    "/opt/", "/sbin/", "/sys/", "/proc/", "/var/",
};
static const char default_include[] = "/var/opt/cray/dws/mounts/";

/* Module names as the config file writes them (the log's names). */
static const char *const mod_names[] = {
#define IOL_X_NAME(suffix, name) name,
    IOLENS_MODULE_IDS(IOL_X_NAME)
#undef IOL_X_NAME
};
#define ALL_MODS ((((uint64_t)1 << IOLENS_MOD_KNOWN_COUNT) - 1) & ~(uint64_t)1)
#define MOD_BIT(id) ((uint64_t)1 << (id))

/* Largest config file read; the rest is ignored (with a diagnostic). */
#define CONFIG_FILE_MAX (64u << 10)
/* Longest variable name JOBID names. */
#define JOBID_ENV_MAX 64
/* Longest list value (comma-separated) parsed. */
#define LIST_MAX 4096

/* Held while matching name expressions (see iol_config_name_excluded). */
static _Atomic uint64_t match_lock;

/* Most IOLENS_* and DARSHAN_* variables gathered (more: getenv is used). */
#define ENV_KEPT_MAX 64

/* State of one load (the flags combine only at the end). The environment's
 * IOLENS_* and DARSHAN_* entries are gathered in one pass, so that the ~35
 * settings are looked up among those few, not each in the whole environment. */
static struct {
    uint64_t disable, enable; /* MOD_DISABLE, MOD_ENABLE */
    size_t nenv;
    int env_all;              /* 1: more than ENV_KEPT_MAX, use getenv */
    const char *env[ENV_KEPT_MAX];
} L;

/* The config file's text (a page is touched only when there is a file). */
static char file_text[CONFIG_FILE_MAX];

static const char *const empty = "";

static void gather_env(void)
{
    L.nenv = 0;
    L.env_all = 0;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "IOLENS_", 7) != 0 && strncmp(*e, "DARSHAN_", 8) != 0)
            continue;
        if (L.nenv == ENV_KEPT_MAX) {
            L.env_all = 1;
            return;
        }
        L.env[L.nenv++] = *e;
    }
}

static const char *env_get(const char *name)
{
    if (L.env_all)
        return getenv(name);
    size_t n = strlen(name);
    for (size_t i = 0; i < L.nenv; i++)
        if (strncmp(L.env[i], name, n) == 0 && L.env[i][n] == '=')
            return L.env[i] + n + 1;
    return NULL;
}

/* An environment variable by its iolens name, then its Darshan name.
 * @return the value, or NULL if neither is set (or both are empty). */
static const char *config_env(const char *iolens_name, const char *darshan_name)
{
    const char *v = iolens_name ? env_get(iolens_name) : NULL;
    if (v && *v)
        return v;
    v = darshan_name ? env_get(darshan_name) : NULL;
    return (v && *v) ? v : NULL;
}

/* ---- values ---- */

/* A non-negative decimal integer. @return 0 and *out, or -1. */
static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || s[0] == '-' || s[0] == '+')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

/* A number, possibly with a fraction (Darshan reads its numbers so). */
static int parse_double(const char *s, double *out)
{
    char *end;
    if (!s)
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v == v))
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

/* A copy of s[0..n) in the config's string area. @return it, or NULL if full. */
static const char *keep(struct iol_config *c, const char *s, size_t n)
{
    if (c->strings_used + n + 1 > sizeof(c->strings)) {
        iol_diag("config: settings longer than %zu bytes in all; some are ignored",
                 sizeof(c->strings));
        return NULL;
    }
    char *p = c->strings + c->strings_used;
    memcpy(p, s, n);
    p[n] = '\0';
    c->strings_used += n + 1;
    return p;
}

/* Split a comma-separated list into a scratch copy.
 * @return the number of non-empty items put in item[] (at most max). */
static size_t split_list(const char *where, const char *list, char *buf, size_t len,
                         char **item, size_t max)
{
    size_t n = 0;
    char *save = NULL;

    if (strnlen(list, len) >= len)
        iol_diag("%s: list longer than %zu bytes, cut", where, len - 1);
    copy_str(buf, len, list);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!*tok)
            continue;
        if (n == max) {
            iol_diag("%s: more than %zu items; \"%s\" and the rest ignored", where, max, tok);
            break;
        }
        item[n++] = tok;
    }
    return n;
}

/* A module list ("POSIX,STDIO", or "*" for all) as flags. Unknown names are
 * reported and skipped. */
static uint64_t parse_mods(const char *where, const char *list)
{
    char buf[512];
    char *item[64];
    uint64_t flags = 0;
    size_t n = split_list(where, list, buf, sizeof(buf), item, 64);

    for (size_t i = 0; i < n; i++) {
        if (strcmp(item[i], "*") == 0) {
            flags |= ALL_MODS;
            continue;
        }
        int found = 0;
        for (int id = 1; id < IOLENS_MOD_KNOWN_COUNT; id++) {
            if (strcasecmp(item[i], mod_names[id]) == 0) {
                flags |= MOD_BIT(id);
                found = 1;
            }
        }
        if (!found)
            iol_diag("%s: unknown module \"%s\" ignored", where, item[i]);
    }
    return flags;
}

/* A size in MiB (fractions allowed) into *out, in bytes. */
static void set_mib(const char *where, const char *v, size_t *out)
{
    double mib;
    if (parse_double(v, &mib) == 0 && mib > 0 && mib < (double)((uint64_t)1 << 40)) {
        size_t bytes = (size_t)(mib * (1 << 20));
        *out = bytes ? bytes : 1;
    } else {
        iol_diag("%s: ignoring \"%s\" (expected a number of MiB)", where, v ? v : "");
    }
}

static void set_max_records(const char *where, const char *v, uint32_t *out)
{
    uint64_t n;
    if (parse_u64(v, &n) == 0 && n > 0 && n <= IOL_MAX_MAX_RECORDS)
        *out = (uint32_t)n;
    else
        iol_diag("%s: ignoring \"%s\" (expected 1 to %u records)", where, v ? v : "",
                 IOL_MAX_MAX_RECORDS);
}

static void set_alignment(const char *where, const char *v, int *out)
{
    double n;
    if (parse_double(v, &n) == 0 && n >= 1 && n <= 65536)
        *out = (int)n;
    else
        iol_diag("%s: ignoring \"%s\" (expected 1 to 65536 bytes)", where, v ? v : "");
}

static void set_fraction(const char *where, const char *v, double *out)
{
    double f;
    if (parse_double(v, &f) == 0 && f >= 0 && f <= 1)
        *out = f;
    else
        iol_diag("%s: ignoring \"%s\" (expected a fraction from 0 to 1)", where, v ? v : "");
}

/* *dst = a kept copy of v, at most len - 1 bytes long. */
static void set_path(struct iol_config *c, const char *where, const char *v, const char **dst,
                     size_t len)
{
    const char *p;
    if (!v || strnlen(v, len) >= len)
        iol_diag("%s: ignoring a missing or too long value", where);
    else if ((p = keep(c, v, strlen(v))))
        *dst = p;
}

/* ---- lists ---- */

/* Add a comma-separated list of path prefixes to the exclusions (include 0)
 * or the inclusions (include 1); "none" empties the list. The first list that
 * comes from a setting replaces the defaults. */
static void add_prefixes(struct iol_config *c, const char *where, const char *list, int include)
{
    const char **arr = include ? c->includes : c->excludes;
    size_t *n = include ? &c->nincludes : &c->nexcludes;
    size_t max = include ? IOL_MAX_INCLUDES : IOL_MAX_EXCLUDES;
    int *user = include ? &c->user_includes : &c->user_excludes;
    char buf[LIST_MAX];
    char *item[IOL_MAX_EXCLUDES];

    if (!*user) {
        *user = 1;
        *n = 0;
    }
    if (strcmp(list, "none") == 0) {
        *n = 0;
        return;
    }
    size_t k = split_list(where, list, buf, sizeof(buf), item, IOL_MAX_EXCLUDES);
    for (size_t i = 0; i < k; i++) {
        if (*n == max) {
            iol_diag("%s: more than %zu prefixes; \"%s\" and the rest ignored", where, max,
                     item[i]);
            return;
        }
        const char *p = keep(c, item[i], strlen(item[i]));
        if (p)
            arr[(*n)++] = p;
    }
}

/* Compile the expressions of a comma-separated list into rules[]. */
static void add_rules(struct iol_config *c, const char *where, const char *list, uint64_t mods,
                      int include, struct iol_rule *rules, size_t *n, size_t max)
{
    char buf[LIST_MAX];
    char *item[IOL_MAX_NAME_RULES];
    size_t k = split_list(where, list, buf, sizeof(buf), item, IOL_MAX_NAME_RULES);

    for (size_t i = 0; i < k; i++) {
        if (*n == max) {
            iol_diag("%s: more than %zu expressions; \"%s\" and the rest ignored", where, max,
                     item[i]);
            return;
        }
        struct iol_rule *r = &rules[*n];
        int rc = regcomp(&r->re, item[i], REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[128];
            regerror(rc, &r->re, msg, sizeof(msg));
            iol_diag("%s: bad regular expression \"%s\" (%s); ignored", where, item[i], msg);
            continue;
        }
        r->mods = mods;
        r->include = include;
        r->src = keep(c, item[i], strlen(item[i]));
        if (!r->src)
            r->src = "?";
        (*n)++;
    }
}

static void clear_rules(struct iol_rule *rules, size_t *n)
{
    for (size_t i = 0; i < *n; i++)
        regfree(&rules[i].re);
    *n = 0;
}

/* Append a comma-separated list to a kept string (RANK_EXCLUDE repeats). */
static void append_list(struct iol_config *c, const char **dst, const char *v)
{
    char buf[LIST_MAX];
    if (!v)
        return;
    if (*dst)
        iol_fmt(buf, sizeof(buf), "%s,%s", *dst, v);
    else
        copy_str(buf, sizeof(buf), v);
    const char *p = keep(c, buf, strlen(buf));
    if (p)
        *dst = p;
}

/* ---- the config file ---- */

/* One setting of the file: key and up to two values. */
static void file_setting(struct iol_config *c, const char *where, const char *key,
                         const char *v1, const char *v2)
{
    if (!strcmp(key, "MODMEM"))
        set_mib(where, v1, &c->mod_mem);
    else if (!strcmp(key, "NAMEMEM") || !strcmp(key, "NAME_MEM"))
        set_mib(where, v1, &c->name_mem);
    else if (!strcmp(key, "MEM_ALIGNMENT") || !strcmp(key, "MEMALIGN"))
        set_alignment(where, v1, &c->mem_alignment);
    else if (!strcmp(key, "JOBID"))
        set_path(c, where, v1, &c->jobid_env, JOBID_ENV_MAX);
    else if (!strcmp(key, "LOGHINTS"))
        c->log_hints = keep(c, v1 ? v1 : "", v1 ? strlen(v1) : 0);
    else if (!strcmp(key, "LOGPATH"))
        set_path(c, where, v1, &c->logpath, PATH_MAX);
    else if (!strcmp(key, "LOGFILE"))
        set_path(c, where, v1, &c->logfile, PATH_MAX);
    else if (!strcmp(key, "MMAP_LOGPATH"))
        set_path(c, where, v1, &c->mmap_dir, PATH_MAX);
    else if (!strcmp(key, "EXCLUDE_DIRS") && v1)
        add_prefixes(c, where, v1, 0);
    else if (!strcmp(key, "INCLUDE_DIRS") && v1)
        add_prefixes(c, where, v1, 1);
    else if ((!strcmp(key, "APP_EXCLUDE") || !strcmp(key, "APP_INCLUDE")) && v1)
        add_rules(c, where, v1, 0, key[4] == 'I', c->app_rules, &c->napp_rules,
                  IOL_MAX_APP_RULES);
    else if ((!strcmp(key, "NAME_EXCLUDE") || !strcmp(key, "NAME_INCLUDE")) && v1)
        add_rules(c, where, v1, v2 ? parse_mods(where, v2) : ALL_MODS, key[5] == 'I',
                  c->name_rules, &c->nname_rules, IOL_MAX_NAME_RULES);
    else if (!strcmp(key, "RANK_EXCLUDE") && v1)
        append_list(c, &c->rank_exclude, v1);
    else if (!strcmp(key, "RANK_INCLUDE") && v1)
        append_list(c, &c->rank_include, v1);
    else if (!strcmp(key, "MOD_DISABLE") && v1)
        L.disable |= parse_mods(where, v1);
    else if (!strcmp(key, "MOD_ENABLE") && v1)
        L.enable |= parse_mods(where, v1);
    else if (!strcmp(key, "MAX_RECORDS") && v1) {
        uint32_t n = 0;
        set_max_records(where, v1, &n);
        uint64_t mods = v2 ? parse_mods(where, v2) : ALL_MODS;
        for (int id = 1; n && id < IOLENS_MOD_KNOWN_COUNT; id++)
            if (mods & MOD_BIT(id))
                c->mod_max_records[id] = n;
    } else if (!strcmp(key, "DXT_SMALL_IO_TRIGGER"))
        set_fraction(where, v1, &c->dxt_small_io_trigger);
    else if (!strcmp(key, "DXT_UNALIGNED_IO_TRIGGER"))
        set_fraction(where, v1, &c->dxt_unaligned_io_trigger);
    else if (!strcmp(key, "DUMP_CONFIG"))
        c->dump_config = 1;
    else if (!strcmp(key, "INTERNAL_TIMING"))
        c->internal_timing = 1;
    else if (!strcmp(key, "DISABLE_SHARED_REDUCTION"))
        c->disable_shared_reduction = 1;
    else
        iol_diag("%s: %s \"%s\" ignored", where, v1 ? "unknown setting" : "setting without a value",
                 key);
}

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* The next whitespace-separated word of *p (NUL-terminated in place). */
static char *next_word(char **p)
{
    char *s = *p;
    while (is_blank(*s))
        s++;
    if (!*s)
        return NULL;
    char *w = s;
    while (*s && !is_blank(*s))
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return w;
}

/* Read and apply the config file named by IOLENS_CONFIG_PATH or
 * DARSHAN_CONFIG_PATH: one setting per line, "KEY [VALUE [MODULES]]"
 * separated by blanks; '#' starts a comment line. */
static void load_file(struct iol_config *c)
{
    const char *path = config_env("IOLENS_CONFIG_PATH", "DARSHAN_CONFIG_PATH");
    char where[160];

    if (!path)
        return;
    set_path(c, "config", path, &c->config_path, PATH_MAX);
    ssize_t len = iol_sys_read_file(path, file_text, sizeof(file_text));
    if (len < 0) {
        iol_diag("config: cannot read %s (errno %d); using defaults", path, errno);
        return;
    }
    if ((size_t)len == sizeof(file_text) - 1) {
        iol_diag("config: %s is longer than %u bytes; the rest is ignored", path,
                 CONFIG_FILE_MAX - 1);
        char *nl = strrchr(file_text, '\n');
        if (nl)
            nl[1] = '\0';
    }
    unsigned lineno = 0;
    for (char *line = file_text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        char *p = line;
        char *key = next_word(&p);
        if (key && key[0] != '#') {
            char *v1 = next_word(&p);
            char *v2 = v1 ? next_word(&p) : NULL;
            char *extra = v2 ? next_word(&p) : NULL;
            iol_fmt(where, sizeof(where), "config %s:%u", path, lineno);
            if (extra)
                iol_diag("%s: \"%s\" and what follows ignored", where, extra);
            file_setting(c, where, key, v1, v2);
        }
        line = nl ? nl + 1 : NULL;
    }
}

/* ---- the environment ---- */

static void env_mib(const char *iolens_name, const char *darshan_name, size_t *out)
{
    const char *v = config_env(iolens_name, darshan_name);
    if (v)
        set_mib(iolens_name, v, out);
}

static void env_path(struct iol_config *c, const char *iolens_name, const char *darshan_name,
                     const char **dst, size_t len)
{
    const char *v = config_env(iolens_name, darshan_name);
    if (v)
        set_path(c, iolens_name, v, dst, len);
}

static int env_flag(const char *iolens_name, const char *darshan_name)
{
    const char *v = config_env(iolens_name, darshan_name);
    return v && strcmp(v, "0") != 0;
}

/* Lists and rules: a variable replaces what the file said. */
static void load_env_lists(struct iol_config *c)
{
    const char *v, *w;

    if ((v = config_env("IOLENS_EXCLUDE_DIRS", "DARSHAN_EXCLUDE_DIRS"))) {
        c->user_excludes = 0;
        add_prefixes(c, "IOLENS_EXCLUDE_DIRS", v, 0);
    }
    if ((v = config_env("IOLENS_INCLUDE_DIRS", "DARSHAN_INCLUDE_DIRS"))) {
        c->user_includes = 0;
        add_prefixes(c, "IOLENS_INCLUDE_DIRS", v, 1);
    }
    v = config_env("IOLENS_APP_EXCLUDE", "DARSHAN_APP_EXCLUDE");
    w = config_env("IOLENS_APP_INCLUDE", "DARSHAN_APP_INCLUDE");
    if (v || w)
        clear_rules(c->app_rules, &c->napp_rules);
    if (v)
        add_rules(c, "IOLENS_APP_EXCLUDE", v, 0, 0, c->app_rules, &c->napp_rules,
                  IOL_MAX_APP_RULES);
    if (w)
        add_rules(c, "IOLENS_APP_INCLUDE", w, 0, 1, c->app_rules, &c->napp_rules,
                  IOL_MAX_APP_RULES);
    v = config_env("IOLENS_NAME_EXCLUDE", NULL);
    w = config_env("IOLENS_NAME_INCLUDE", NULL);
    if (v || w)
        clear_rules(c->name_rules, &c->nname_rules);
    if (v)
        add_rules(c, "IOLENS_NAME_EXCLUDE", v, ALL_MODS, 0, c->name_rules, &c->nname_rules,
                  IOL_MAX_NAME_RULES);
    if (w)
        add_rules(c, "IOLENS_NAME_INCLUDE", w, ALL_MODS, 1, c->name_rules, &c->nname_rules,
                  IOL_MAX_NAME_RULES);
    v = config_env("IOLENS_MOD_DISABLE", "DARSHAN_MOD_DISABLE");
    w = config_env("IOLENS_MOD_ENABLE", "DARSHAN_MOD_ENABLE");
    if (v || w)
        L.disable = L.enable = 0;
    if (v)
        L.disable |= parse_mods("IOLENS_MOD_DISABLE", v);
    if (w)
        L.enable |= parse_mods("IOLENS_MOD_ENABLE", w);
    if (getenv("DXT_ENABLE_IO_TRACE"))
        L.enable |= MOD_BIT(IOLENS_MOD_DXT_POSIX) | MOD_BIT(IOLENS_MOD_DXT_MPIIO);
    v = config_env("IOLENS_RANK_EXCLUDE", "DARSHAN_RANK_EXCLUDE");
    w = config_env("IOLENS_RANK_INCLUDE", "DARSHAN_RANK_INCLUDE");
    if (v || w)
        c->rank_exclude = c->rank_include = NULL;
    append_list(c, &c->rank_exclude, v);
    append_list(c, &c->rank_include, w);
}

static void load_env(struct iol_config *c)
{
    const char *v;

    if (env_flag("IOLENS_DISABLE", "DARSHAN_DISABLE"))
        c->disabled = 1;
    env_path(c, "IOLENS_LOGPATH", "DARSHAN_LOGPATH", &c->logpath, PATH_MAX);
    env_path(c, "IOLENS_LOGFILE", "DARSHAN_LOGFILE", &c->logfile, PATH_MAX);
    env_path(c, "IOLENS_MMAP_DIR", "DARSHAN_MMAP_LOGPATH", &c->mmap_dir, PATH_MAX);
    env_path(c, "IOLENS_JOBID_ENV", "DARSHAN_JOBID", &c->jobid_env, JOBID_ENV_MAX);
    env_mib("IOLENS_MODMEM", "DARSHAN_MODMEM", &c->mod_mem);
    env_mib("IOLENS_NAMEMEM", "DARSHAN_NAMEMEM", &c->name_mem);
    if ((v = config_env("IOLENS_MAX_RECORDS", NULL))) {
        /* One limit for every module: the file's per-module limits go. */
        uint32_t n = 0;
        set_max_records("IOLENS_MAX_RECORDS", v, &n);
        if (n) {
            c->max_records = n;
            memset(c->mod_max_records, 0, sizeof(c->mod_max_records));
        }
    }
    if ((v = config_env("IOLENS_MEM_ALIGNMENT", "DARSHAN_MEMALIGN")))
        set_alignment("IOLENS_MEM_ALIGNMENT", v, &c->mem_alignment);
    /* An empty LOGHINTS is a value (no hints at all), as in Darshan. */
    if ((v = env_get("IOLENS_LOGHINTS")) || (v = env_get("DARSHAN_LOGHINTS")))
        c->log_hints = keep(c, v, strlen(v));
    if ((v = config_env("IOLENS_DXT_SMALL_IO_TRIGGER", "DARSHAN_DXT_SMALL_IO_TRIGGER")))
        set_fraction("IOLENS_DXT_SMALL_IO_TRIGGER", v, &c->dxt_small_io_trigger);
    if ((v = config_env("IOLENS_DXT_UNALIGNED_IO_TRIGGER",
                            "DARSHAN_DXT_UNALIGNED_IO_TRIGGER")))
        set_fraction("IOLENS_DXT_UNALIGNED_IO_TRIGGER", v, &c->dxt_unaligned_io_trigger);
    if (env_flag("IOLENS_DUMP_CONFIG", "DARSHAN_DUMP_CONFIG"))
        c->dump_config = 1;
    if (env_flag("IOLENS_INTERNAL_TIMING", "DARSHAN_INTERNAL_TIMING"))
        c->internal_timing = 1;
    if (env_flag("IOLENS_DISABLE_SHARED_REDUCTION", "DARSHAN_DISABLE_SHARED_REDUCTION"))
        c->disable_shared_reduction = 1;
    load_env_lists(c);
}

/* ---- decisions ---- */

/* Is the program excluded by APP_EXCLUDE (and not taken back by APP_INCLUDE)?
 * Matched against argv[0], as Darshan matches the first word of the
 * command line. */
static int app_excluded(const struct iol_config *c, const char *app)
{
    int excluded = 0;
    for (size_t i = 0; i < c->napp_rules && !excluded; i++)
        excluded = !c->app_rules[i].include && regexec(&c->app_rules[i].re, app, 0, NULL, 0) == 0;
    for (size_t i = 0; i < c->napp_rules && excluded; i++)
        excluded = !(c->app_rules[i].include && regexec(&c->app_rules[i].re, app, 0, NULL, 0) == 0);
    return excluded;
}

void iol_config_load(struct iol_config *c)
{
    L.disable = L.enable = 0;
    gather_env();
    c->config_path = c->logpath = c->logfile = c->mmap_dir = c->jobid_env = empty;
    c->name_mem = IOL_DEFAULT_NAME_MEM;
    c->max_records = IOL_DEFAULT_MAX_RECORDS;
    c->mem_alignment = IOL_DEFAULT_MEM_ALIGNMENT;
    c->dxt_small_io_trigger = -1;
    c->dxt_unaligned_io_trigger = -1;
    for (size_t i = 0; i < sizeof(default_excludes) / sizeof(*default_excludes); i++)
        c->excludes[c->nexcludes++] = default_excludes[i];
    c->includes[c->nincludes++] = default_include;

    load_file(c);
    load_env(c);
    /* Memory-backed /dev/shm when usable (creating and removing a file there
     * costs microseconds, on a disk file system milliseconds), else /tmp. */
    if (!c->mmap_dir[0])
        c->mmap_dir = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    /* As in Darshan, the DXT modules are off unless enabled. */
    uint64_t off = MOD_BIT(IOLENS_MOD_DXT_POSIX) | MOD_BIT(IOLENS_MOD_DXT_MPIIO);
    c->mod_disabled = (off | L.disable) & ~L.enable;

    if (c->napp_rules && app_excluded(c, program_invocation_name)) {
        iol_diag("application %s excluded (APP_EXCLUDE); not recording", program_invocation_name);
        c->app_excluded = 1;
        c->disabled = 1;
    }
    if (c->dump_config)
        iol_config_dump(c);
}

int iol_config_mod_disabled(const struct iol_config *c, int mod_id)
{
    return mod_id > 0 && mod_id < 64 && (c->mod_disabled & MOD_BIT(mod_id)) != 0;
}

uint32_t iol_config_max_records(const struct iol_config *c, int mod_id, uint32_t fixed)
{
    if (iol_config_mod_disabled(c, mod_id))
        return 0;
    if (fixed)
        return fixed; /* HEATMAP: a few records, whatever the settings (as in Darshan) */
    if (mod_id > 0 && mod_id < IOLENS_MOD_KNOWN_COUNT && c->mod_max_records[mod_id])
        return c->mod_max_records[mod_id];
    return c->max_records;
}

/* Does a name rule of the given kind for mod_id match name? */
static int rule_match(const struct iol_config *c, int mod_id, int include, const char *name)
{
    for (size_t i = 0; i < c->nname_rules; i++) {
        const struct iol_rule *r = &c->name_rules[i];
        if (r->include == include && (r->mods & MOD_BIT(mod_id)) &&
            regexec(&r->re, name, 0, NULL, 0) == 0)
            return 1;
    }
    return 0;
}

int iol_config_name_excluded(const struct iol_config *c, int mod_id, int is_path,
                             const char *name)
{
    if (mod_id <= 0 || mod_id >= 64)
        return 0;
    int excluded = is_path && iol_path_excluded(c, name);
    if (!c->nname_rules)
        return excluded;
    /* regexec takes a lock of the C library's: a signal handler whose I/O
     * interrupted this thread's matching must not wait for it. */
    if (iol_owner_lock(&match_lock) != 0)
        return 1;
    if (!excluded)
        excluded = rule_match(c, mod_id, 0, name);
    if (excluded)
        excluded = !rule_match(c, mod_id, 1, name);
    iol_owner_unlock(&match_lock);
    return excluded;
}

/* A rank number of RANK_EXCLUDE or RANK_INCLUDE: a non-negative whole
 * number (Darshan reads it as a number, so "2.0" is 2). */
static int parse_rank(const char *s, long *out)
{
    double d;
    if (parse_double(s, &d) != 0 || d < 0 || d > INT_MAX || d != (double)(long)d)
        return -1;
    *out = (long)d;
    return 0;
}

/* Does the list (comma-separated ranks, "start:end" ranges with either end
 * left out, "*" for all) name rank? Malformed items are reported and skipped. */
static int rank_listed(const char *where, const char *list, int rank, int nprocs)
{
    char buf[LIST_MAX];
    char *item[256];
    size_t n = split_list(where, list, buf, sizeof(buf), item, 256);

    for (size_t i = 0; i < n; i++) {
        char *colon = strchr(item[i], ':');
        long lo = 0, hi = nprocs > 0 ? nprocs - 1 : 0;
        int ok;
        if (!strcmp(item[i], "*"))
            return 1;
        if (!colon) {
            ok = parse_rank(item[i], &lo) == 0;
            hi = lo;
        } else {
            *colon = '\0';
            ok = (!*item[i] || parse_rank(item[i], &lo) == 0) &&
                 (!colon[1] || parse_rank(colon + 1, &hi) == 0) && !strchr(colon + 1, ':');
            *colon = ':';
        }
        if (!ok)
            iol_diag("%s: \"%s\" is not a rank or a range start:end; ignored", where, item[i]);
        else if (rank >= lo && rank <= hi)
            return 1;
    }
    return 0;
}

int iol_config_rank_excluded(const struct iol_config *c, int rank, int nprocs)
{
    if (!c->rank_exclude || !rank_listed("RANK_EXCLUDE", c->rank_exclude, rank, nprocs))
        return 0;
    return !c->rank_include || !rank_listed("RANK_INCLUDE", c->rank_include, rank, nprocs);
}

/* ---- DUMP_CONFIG ---- */

static void dump_list(const char *key, const char *const *arr, size_t n)
{
    char line[1024];
    size_t used = iol_fmt(line, sizeof(line), "%s", n ? "" : "(none)");
    for (size_t i = 0; i < n && used < sizeof(line); i++)
        used += iol_fmt(line + used, sizeof(line) - used, "%s%s", i ? "," : "", arr[i]);
    iol_diag_always("config: %s = %s", key, line);
}

/* NAME_EXCLUDE or NAME_INCLUDE rules, each with its modules ("*": all). */
static void dump_rules(const char *key, const struct iol_rule *r, size_t n, int include)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].include != include)
            continue;
        char mods[512];
        size_t used = 0;
        mods[0] = '\0';
        for (int id = 1; id < IOLENS_MOD_KNOWN_COUNT && used < sizeof(mods); id++)
            if (r[i].mods != ALL_MODS && (r[i].mods & MOD_BIT(id)))
                used += iol_fmt(mods + used, sizeof(mods) - used, "%s%s", used ? "," : "",
                                mod_names[id]);
        iol_diag_always("config: %s = %s %s", key, r[i].src, used ? mods : "*");
    }
}

/* A fraction as "0.25" (iol_fmt prints no floating point). */
static void dump_fraction(const char *key, double f)
{
    if (f < 0)
        return;
    int hundredths = (int)(f * 100 + 0.5);
    iol_diag_always("config: %s = %d.%s%d", key, hundredths / 100,
                    hundredths % 100 < 10 ? "0" : "", hundredths % 100);
}

void iol_config_dump(const struct iol_config *c)
{
    iol_diag_always("config: file = %s", c->config_path[0] ? c->config_path : "(none)");
    iol_diag_always("config: MODMEM = %zu MiB%s", c->mod_mem >> 20,
                    c->mod_mem ? "" : " (no limit)");
    iol_diag_always("config: NAMEMEM = %zu MiB", c->name_mem >> 20);
    iol_diag_always("config: MEM_ALIGNMENT = %d", c->mem_alignment);
    iol_diag_always("config: JOBID = %s", c->jobid_env[0] ? c->jobid_env : "(usual list)");
    iol_diag_always("config: LOGPATH = %s", c->logpath[0] ? c->logpath : "(start directory)");
    iol_diag_always("config: LOGFILE = %s", c->logfile[0] ? c->logfile : "(none)");
    iol_diag_always("config: MMAP_LOGPATH = %s", c->mmap_dir);
    dump_list("EXCLUDE_DIRS", c->excludes, c->nexcludes);
    dump_list("INCLUDE_DIRS", c->includes, c->nincludes);
    for (size_t i = 0; i < c->napp_rules; i++)
        iol_diag_always("config: %s = %s", c->app_rules[i].include ? "APP_INCLUDE" : "APP_EXCLUDE",
                        c->app_rules[i].src);
    dump_rules("NAME_EXCLUDE", c->name_rules, c->nname_rules, 0);
    dump_rules("NAME_INCLUDE", c->name_rules, c->nname_rules, 1);
    if (c->rank_exclude)
        iol_diag_always("config: RANK_EXCLUDE = %s", c->rank_exclude);
    if (c->rank_include)
        iol_diag_always("config: RANK_INCLUDE = %s", c->rank_include);
    iol_diag_always("config: LOGHINTS = %s", !c->log_hints ? "(the MPI library's default)"
                                              : c->log_hints[0] ? c->log_hints : "(none)");
    dump_fraction("DXT_SMALL_IO_TRIGGER", c->dxt_small_io_trigger);
    dump_fraction("DXT_UNALIGNED_IO_TRIGGER", c->dxt_unaligned_io_trigger);
    iol_diag_always("config: MAX_RECORDS = %u (each module)", c->max_records);
    char line[512];
    size_t used = 0;
    line[0] = '\0';
    for (int id = 1; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        if (c->mod_max_records[id] && !iol_config_mod_disabled(c, id))
            iol_diag_always("config: MAX_RECORDS %s = %u", mod_names[id], c->mod_max_records[id]);
        if (iol_config_mod_disabled(c, id) && used < sizeof(line))
            used += iol_fmt(line + used, sizeof(line) - used, "%s%s", used ? "," : "",
                            mod_names[id]);
    }
    iol_diag_always("config: disabled modules = %s", line);
    if (c->internal_timing || c->disable_shared_reduction)
        iol_diag_always("config:%s%s", c->internal_timing ? " INTERNAL_TIMING" : "",
                        c->disable_shared_reduction ? " DISABLE_SHARED_REDUCTION" : "");
    if (c->app_excluded)
        iol_diag_always("config: this application (%s) is excluded", program_invocation_name);
}
