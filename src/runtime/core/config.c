/* Settings: defaults, then the config file (IOLENS_CONFIG_PATH or
 * DARSHAN_CONFIG_PATH), then the environment, every one a row of settings.h.
 * The file takes Darshan 3.5's keys so that sites can reuse their files; the
 * DARSHAN_* variables are honoured too, and the IOLENS_* name wins over the
 * DARSHAN_* one. Everything is parsed once at start; only regcomp allocates. */
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
#include "regex_cost.h"
#include "common/recfile.h"
#include "config_table.h"

/* Darshan's default exclusions, in the same order, and its one inclusion. */
static const char *const default_excludes[] = {
    "/etc/", "/dev/", "/usr/", "/bin/", "/boot/", "/lib/",
    "/opt/", "/sbin/", "/sys/", "/proc/", "/var/",
};
static const char default_include[] = "/var/opt/cray/dws/mounts/";

/* Darshan's DXT modules, which DXT_ENABLE_IO_TRACE enables. */
#define DXT_MODS (MOD_BIT(IOLENS_MOD_DXT_POSIX) | MOD_BIT(IOLENS_MOD_DXT_MPIIO))
/* Off unless named in MOD_ENABLE, as in Darshan: the DXT modules, iolens's DXT_STDIO
 * (which DXT_ENABLE_IO_TRACE leaves off) and CALLSITES (which CALLSITES=1 turns on). */
#define CALLSITES_MOD MOD_BIT(IOLENS_MOD_CALLSITES)
#define OFF_BY_DEFAULT (DXT_MODS | MOD_BIT(IOLENS_MOD_DXT_STDIO) | CALLSITES_MOD)

/* Largest config file read; the rest is ignored (with a diagnostic). */
#define CONFIG_FILE_MAX (64u << 10)
/* Longest variable name JOBID_ENV names. */
#define JOBID_ENV_MAX 64
/* Longest list value (comma-separated) parsed. */
#define LIST_MAX 4096

/* Held while matching name expressions (see iol_config_name_excluded). */
static _Atomic uint64_t match_lock;

/* The config file's text (a page is touched only when there is a file). */
static char file_text[CONFIG_FILE_MAX];

static const char *const empty = "";

/* ---- the table (settings.h) ---- */

/* Every row's names, packed in one constant object: rows refer to them by
 * offset, so the table holds no pointer for the loader to relocate. */
const struct iol_setting_names iol_setting_names = {
#define NAME_INIT(id, key, iolens, darshan, alias, ...) key, iolens, darshan, alias,
    IOL_SETTINGS(NAME_INIT)
#undef NAME_INIT
};

const struct iol_setting_row iol_setting_rows[NSETTINGS] = {
#define NAME_OFF(member) offsetof(struct iol_setting_names, member)
#define ROW_INIT(id, key, iolens, darshan, alias, type, field, incl, group, ...)          \
    {{NAME_OFF(id##_key), NAME_OFF(id##_iolens), NAME_OFF(id##_alias), NAME_OFF(id##_darshan)}, \
     {sizeof(key) - 1, sizeof(iolens) - 1, sizeof(alias) - 1, sizeof(darshan) - 1},       \
     T_##type, incl, G_##group, offsetof(struct iol_config, field)},
    IOL_SETTINGS(ROW_INIT)
#undef ROW_INIT
#undef NAME_OFF
};

const char *iol_setting_row_name(const struct iol_setting_row *r, int which)
{
    return (const char *)&iol_setting_names + r->name[which];
}

const char *iol_setting_dump_name(const struct iol_setting_row *r)
{
    if (r->len[N_KEY])
        return iol_setting_row_name(r, N_KEY);
    return r->len[N_IOLENS] ? iol_setting_row_name(r, N_IOLENS) + 7
                            : iol_setting_row_name(r, N_DARSHAN);
}

/* ---- the environment ---- */

/* The variables of the table found in the environment, by row and spelling
 * (N_IOLENS, N_ALIAS, N_DARSHAN): the first of each name, as getenv finds. */
struct env_vals {
    const char *v[NSETTINGS][N_COUNT];
};

/* Does the variable s (n bytes before its '=') have spelling which of r? */
static int env_is(const struct iol_setting_row *r, int which, const char *s, size_t n)
{
    size_t len = r->len[which];
    if (which != N_ALIAS)
        return len == n && memcmp(s, iol_setting_row_name(r, which), n) == 0;
    return len && len + 7 == n && memcmp(s, "IOLENS_", 7) == 0 &&
           memcmp(s + 7, iol_setting_row_name(r, N_ALIAS), len) == 0;
}

/* The row *i and spelling *w of the variable s (n bytes before its '=').
 * @return 1 if it is one of the table's, else 0. */
static int find_var(const char *s, size_t n, int *i, int *w)
{
    for (*i = 0; *i < NSETTINGS; ++*i)
        for (*w = N_IOLENS; *w < N_COUNT; ++*w)
            if (env_is(&iol_setting_rows[*i], *w, s, n))
                return 1;
    return 0;
}

/* One pass over the environment: each IOLENS_*, DARSHAN_* or DXT_* entry
 * is looked up in the table; the others cost a byte or two each. */
static void gather_env(struct env_vals *e)
{
    memset(e, 0, sizeof(*e));
    for (char **p = environ; p && *p; p++) {
        const char *s = *p;
        if (s[0] == 'I' ? strncmp(s, "IOLENS_", 7) != 0
                        : s[0] != 'D' || (strncmp(s, "DARSHAN_", 8) != 0 &&
                                          strncmp(s, "DXT_", 4) != 0))
            continue;
        const char *eq = strchr(s, '=');
        if (!eq)
            continue;
        int i, w;
        if (find_var(s, (size_t)(eq - s), &i, &w) && !e->v[i][w])
            e->v[i][w] = eq + 1;
    }
}

/* Row i's value from the environment: IOLENS_, its alias, then Darshan's.
 * An empty variable counts as unset, except where the type takes it (HINTS:
 * no hints; PRESENCE). *where gets the variable's name (buf for the alias).
 * @return the value, or NULL if none is set. */
static const char *env_value(const struct env_vals *e, int i, char *buf, size_t len,
                             const char **where)
{
    const struct iol_setting_row *r = &iol_setting_rows[i];
    int empty_ok = r->type == T_HINTS || r->type == T_PRESENCE;
    for (int w = N_IOLENS; w < N_COUNT; w++) {
        const char *v = e->v[i][w];
        if (!v || (!*v && !empty_ok))
            continue;
        if (w == N_ALIAS) {
            iol_fmt(buf, len, "IOLENS_%s", iol_setting_row_name(r, N_ALIAS));
            *where = buf;
        } else {
            *where = iol_setting_row_name(r, w);
        }
        return v;
    }
    return NULL;
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
        for (int id = 1; id < IOLENS_MAX_MODS; id++) {
            const char *name = iolens_module_name(id);
            if (name && strcasecmp(item[i], name) == 0) {
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

static void set_seconds(const char *where, const char *v, double *out)
{
    double s;
    if (parse_double(v, &s) == 0 && s >= 0 && s <= 3600)
        *out = s;
    else
        iol_diag("%s: ignoring \"%s\" (expected 0 to 3600 seconds)", where, v ? v : "");
}

static void set_count(const char *where, const char *v, uint32_t *out)
{
    uint64_t n;
    if (parse_u64(v, &n) == 0 && n > 0 && n <= IOL_MAX_MAX_RECORDS)
        *out = (uint32_t)n;
    else
        iol_diag("%s: ignoring \"%s\" (expected 1 to %u)", where, v ? v : "",
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

/* LOG_COMPAT: "newest" or "3.5". */
static void set_compat(const char *where, const char *v, iolens_log_compat *out)
{
    if (v && strcasecmp(v, "newest") == 0)
        *out = IOLENS_COMPAT_NEWEST;
    else if (v && strcmp(v, "3.5") == 0)
        *out = IOLENS_COMPAT_DARSHAN_3_5;
    else
        iol_diag("%s: ignoring \"%s\" (expected newest or 3.5)", where, v ? v : "");
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
        long cost = iol_regex_cost(item[i]);
        if (cost < 0 || cost > IOL_REGEX_MAX_COST) {
            /* regcomp would take minutes and gigabytes at the program's start */
            iol_diag("%s: regular expression \"%s\" %s; ignored", where, item[i],
                     cost < 0 ? "repeats a repetition (a++, a{2}{3})"
                              : "repeats a part over 1000 times (nested repetitions)");
            continue;
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

/* ---- applying a row ---- */

/* MAX_RECORDS: with modules (the file's third word), those modules' limits;
 * without, one limit for every module (the per-module ones go). */
static void set_records(struct iol_config *c, const char *where, const char *v, const char *mods)
{
    uint32_t n = 0;
    set_count(where, v, &n);
    uint64_t flags = mods ? parse_mods(where, mods) : 0;
    if (!n)
        return;
    if (!mods) {
        c->max_records = n;
        memset(c->mod_max_records, 0, sizeof(c->mod_max_records));
    }
    for (int id = 1; id < IOLENS_MOD_KNOWN_COUNT; id++)
        if (flags & MOD_BIT(id))
            c->mod_max_records[id] = n;
}

/* Does a row of this type need a value in the file (its lists do)? */
static int needs_value(int type)
{
    return type == T_RECORDS || type == T_PREFIXES || type == T_APP_REGEX ||
           type == T_NAME_REGEX || type == T_MODS || type == T_RANKS;
}

/* Set row r's field from value v (NULL: a file key without one), mods the
 * file's module list (NULL: none, and always for a variable). */
static void apply(struct iol_config *c, const struct iol_setting_row *r, const char *where, const char *v,
                  const char *mods, int from_file)
{
    void *f = (char *)c + r->off;
    switch (r->type) {
    case T_CONFIG: /* read before the rest: load_file */
        break;
    case T_DEBUG:
        *(int *)f = iol_diag_enabled();
        break;
    case T_FLAG:
        *(int *)f = from_file || strcmp(v, "0") != 0;
        break;
    case T_PRESENCE:
        *(int *)f = 1;
        break;
    case T_PATH:
        set_path(c, where, v, f, PATH_MAX);
        break;
    case T_VARNAME:
        set_path(c, where, v, f, JOBID_ENV_MAX);
        break;
    case T_WORD:
        set_path(c, where, v, f, 256); /* settings.h: "< 256 bytes" */
        break;
    case T_MIB:
        set_mib(where, v, f);
        break;
    case T_RECORDS:
        set_records(c, where, v, mods);
        break;
    case T_COUNT:
        set_count(where, v, f);
        break;
    case T_ALIGN:
        set_alignment(where, v, f);
        break;
    case T_FRACTION:
        set_fraction(where, v, f);
        break;
    case T_SECONDS:
        set_seconds(where, v, f);
        break;
    case T_COMPAT:
        set_compat(where, v, f);
        break;
    case T_HINTS: /* an empty value is one: no hints at all, as in Darshan */
        *(const char **)f = keep(c, v ? v : "", v ? strlen(v) : 0);
        break;
    case T_PREFIXES:
        add_prefixes(c, where, v, r->incl);
        break;
    case T_APP_REGEX:
        add_rules(c, where, v, 0, r->incl, c->app_rules, &c->napp_rules, IOL_MAX_APP_RULES);
        break;
    case T_NAME_REGEX: {
        uint64_t m = mods ? parse_mods(where, mods) : ALL_MODS;
        add_rules(c, where, v, m, r->incl, c->name_rules, &c->nname_rules, IOL_MAX_NAME_RULES);
        break;
    }
    case T_MODS:
        *(uint64_t *)f |= parse_mods(where, v);
        break;
    case T_RANKS:
        append_list(c, f, v);
        break;
    }
}

/* Forget what the file set in a list row, before a variable replaces it. */
static void reset(struct iol_config *c, const struct iol_setting_row *r)
{
    void *f = (char *)c + r->off;
    switch (r->type) {
    case T_PREFIXES: /* the next list replaces the current one */
        *(r->incl ? &c->user_includes : &c->user_excludes) = 0;
        break;
    case T_APP_REGEX:
        clear_rules(c->app_rules, &c->napp_rules);
        break;
    case T_NAME_REGEX:
        clear_rules(c->name_rules, &c->nname_rules);
        break;
    case T_MODS:
        *(uint64_t *)f = 0;
        break;
    case T_RANKS:
        *(const char **)f = NULL;
        break;
    default: /* a single value: the variable's replaces it */
        break;
    }
}

/* ---- the config file ---- */

/* The row whose key (or alias) is key. @return its index, or -1. */
static int file_row(const char *key)
{
    size_t n = strlen(key);
    for (int i = 0; i < NSETTINGS; i++) {
        const struct iol_setting_row *r = &iol_setting_rows[i];
        if (!r->len[N_KEY])
            continue;
        if ((r->len[N_KEY] == n && memcmp(key, iol_setting_row_name(r, N_KEY), n) == 0) ||
            (r->len[N_ALIAS] == n && memcmp(key, iol_setting_row_name(r, N_ALIAS), n) == 0))
            return i;
    }
    return -1;
}

/* One line of the file: key and up to two values. */
static void file_setting(struct iol_config *c, const char *where, const char *key,
                         const char *v1, const char *v2)
{
    int i = file_row(key);
    if (i < 0 || (!v1 && needs_value(iol_setting_rows[i].type)))
        iol_diag("%s: %s \"%s\" ignored", where,
                 i < 0 && v1 ? "unknown setting" : "setting without a value", key);
    else
        apply(c, &iol_setting_rows[i], where, v1, v2, 1);
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
static void load_file(struct iol_config *c, const struct env_vals *e)
{
    char where[160];
    const char *var;
    const char *path = env_value(e, S_CONFIG_PATH, where, sizeof(where), &var);

    if (!path)
        return;
    set_path(c, var, path, &c->config_path, PATH_MAX);
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

/* ---- the environment, applied ---- */

/* Every variable set overrides the file: a list variable replaces the file's
 * lines of its group first, then each row takes its value, in table order. */
static void load_env(struct iol_config *c, const struct env_vals *e)
{
    const char *val[NSETTINGS], *where[NSETTINGS];
    char alias[NSETTINGS][40];
    unsigned replaced = 0; /* groups (bit = G_*) a variable replaces */

    for (int i = 0; i < NSETTINGS; i++) {
        val[i] = env_value(e, i, alias[i], sizeof(alias[i]), &where[i]);
        if (val[i] && iol_setting_rows[i].group != G_ONE)
            replaced |= 1u << iol_setting_rows[i].group;
    }
    for (int i = 0; i < NSETTINGS; i++)
        if ((val[i] && iol_setting_rows[i].group == G_ONE) || (replaced >> iol_setting_rows[i].group & 1))
            reset(c, &iol_setting_rows[i]);
    for (int i = 0; i < NSETTINGS; i++)
        if (val[i])
            apply(c, &iol_setting_rows[i], where[i], val[i], NULL, 0);
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

void iol_config_absolute_paths(struct iol_config *c, const char *cwd)
{
    static char made[3][IOL_PATH_MAX];
    const char **paths[3] = {&c->logpath, &c->logfile, &c->mmap_dir};
    for (size_t i = 0; i < 3 && cwd[0]; i++) {
        const char *p = *paths[i];
        while (p[0] == '.' && p[1] == '/')
            p += 2 + strspn(p + 2, "/");
        if (!strcmp(p, "."))
            p = "";
        if ((*paths[i])[0] && p[0] != '/' &&
            iol_fmt(made[i], sizeof(made[i]), "%s%s%s", cwd, p[0] ? "/" : "", p) < sizeof(made[i]))
            *paths[i] = made[i];
    }
}

void iol_config_load(struct iol_config *c)
{
    struct env_vals e;
    gather_env(&e);
    c->config_path = c->logpath = c->logfile = c->mmap_dir = c->jobid_env = c->events = empty;
    c->ldms_stream = c->ldms_xprt = c->ldms_host = c->ldms_port = c->ldms_auth = empty;
    c->events_drain = 3;
    c->name_mem = IOL_DEFAULT_NAME_MEM;
    c->dxt_mem = IOL_DEFAULT_DXT_MEM;
    c->max_records = IOL_DEFAULT_MAX_RECORDS;
    c->mem_alignment = IOL_DEFAULT_MEM_ALIGNMENT;
    c->dxt_small_io_trigger = -1;
    c->dxt_unaligned_io_trigger = -1;
    c->callsites_depth = 4, c->callsites_max = 4096;
    for (size_t i = 0; i < sizeof(default_excludes) / sizeof(*default_excludes); i++)
        c->excludes[c->nexcludes++] = default_excludes[i];
    c->includes[c->nincludes++] = default_include;

    load_file(c, &e);
    load_env(c, &e);
    /* Memory-backed /dev/shm when usable (creating and removing a file there
     * costs microseconds, on a disk file system milliseconds), else /tmp. */
    if (!c->mmap_dir[0])
        c->mmap_dir = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    uint64_t on = c->mod_enable | (c->dxt_enable_io_trace ? DXT_MODS : 0);
    c->mod_disabled = (OFF_BY_DEFAULT | c->mod_disable) & ~(on | (c->callsites ? CALLSITES_MOD : 0));
    /* A module the log cannot hold is not recorded at all (core.c says so at the end). */
    for (int id = 1; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *d = iolens_module(id);
        if (d && !(c->mod_disabled & MOD_BIT(id)) &&
            !iolens_module_compat_version(d, c->log_compat))
            c->compat_left_out |= MOD_BIT(id);
    }
    c->mod_disabled |= c->compat_left_out;

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
