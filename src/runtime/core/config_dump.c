/* DUMP_CONFIG: every setting's value, one "config: NAME = VALUE" line each,
 * from the rows of settings.h. */
#include <errno.h>

#include "config_table.h"
#include "diag.h"
#include "fmt.h"

/* A list of strings, comma-separated, or "(none)". */
static void dump_list(const char *key, const char *const *arr, size_t n)
{
    char line[1024];
    size_t used = iol_fmt(line, sizeof(line), "%s", n ? "" : "(none)");
    for (size_t i = 0; i < n && used < sizeof(line); i++)
        used += iol_fmt(line + used, sizeof(line) - used, "%s%s", i ? "," : "", arr[i]);
    iol_diag_always("config: %s = %s", key, line);
}

/* Module flags as a list of names into buf ("" for none). */
static void mods_text(char *buf, size_t len, uint64_t flags)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int id = 1; id < IOLENS_MAX_MODS && used < len; id++)
        if ((flags & MOD_BIT(id)) && iolens_module_name(id))
            used += iol_fmt(buf + used, len - used, "%s%s", used ? "," : "", iolens_module_name(id));
}

/* The APP_* or NAME_* rules of one side (include), one line each; a NAME_*
 * rule with its modules ("*": all). */
static void dump_rules(const char *key, const struct iol_rule *r, size_t n, int include,
                       int with_mods)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].include != include)
            continue;
        char mods[512];
        mods_text(mods, sizeof(mods), r[i].mods);
        iol_diag_always("config: %s = %s%s%s", key, r[i].src, with_mods ? " " : "",
                        !with_mods ? "" : r[i].mods == ALL_MODS ? "*" : mods);
        any = 1;
    }
    if (!any)
        iol_diag_always("config: %s = (none)", key);
}

/* A size: "N MiB", or "N bytes" when not a whole number of MiB. */
static void dump_size(const char *key, size_t v)
{
    if (v & (((size_t)1 << 20) - 1))
        iol_diag_always("config: %s = %zu bytes", key, v);
    else
        iol_diag_always("config: %s = %zu MiB", key, v >> 20);
}

/* A fraction as "0.25" (iol_fmt prints no floating point); "(unset)" if < 0. */
static void dump_fraction(const char *key, double f)
{
    if (f < 0) {
        iol_diag_always("config: %s = (unset)", key);
        return;
    }
    int hundredths = (int)(f * 100 + 0.5);
    iol_diag_always("config: %s = %d.%s%d", key, hundredths / 100,
                    hundredths % 100 < 10 ? "0" : "", hundredths % 100);
}

/* Row r's value in c, as "config: NAME = VALUE" line(s). */
static void dump_row(const struct iol_config *c, const struct iol_setting_row *r)
{
    const char *key = iol_setting_dump_name(r);
    const void *f = (const char *)c + r->off;
    const char *str;
    char buf[512];

    switch (r->type) {
    case T_FLAG:
    case T_DEBUG:
    case T_PRESENCE:
        iol_diag_always("config: %s = %d", key, *(const int *)f);
        break;
    case T_CONFIG:
    case T_PATH:
    case T_VARNAME:
    case T_WORD:
    case T_RANKS:
        str = *(const char *const *)f;
        iol_diag_always("config: %s = %s", key, str && str[0] ? str : "(unset)");
        break;
    case T_HINTS:
        str = *(const char *const *)f;
        iol_diag_always("config: %s = %s", key,
                        !str ? "(the MPI library's default)" : str[0] ? str : "(none)");
        break;
    case T_MIB:
        dump_size(key, *(const size_t *)f);
        break;
    case T_RECORDS:
        iol_diag_always("config: %s = %u", key, c->max_records);
        for (int id = 1; id < IOLENS_MOD_KNOWN_COUNT; id++)
            if (c->mod_max_records[id] && !iol_config_mod_disabled(c, id))
                iol_diag_always("config: %s %s = %u", key, iolens_module_name(id),
                                c->mod_max_records[id]);
        break;
    case T_COUNT: /* a uint32_t, read as int: at most 2^24 */
    case T_ALIGN:
        iol_diag_always("config: %s = %d", key, *(const int *)f);
        break;
    case T_FRACTION:
    case T_SECONDS:
        dump_fraction(key, *(const double *)f);
        break;
    case T_COMPAT:
        str = *(const iolens_log_compat *)f == IOLENS_COMPAT_DARSHAN_3_5 ? "3.5" : "newest";
        iol_diag_always("config: %s = %s", key, str);
        break;
    case T_PREFIXES:
        if (r->incl)
            dump_list(key, c->includes, c->nincludes);
        else
            dump_list(key, c->excludes, c->nexcludes);
        break;
    case T_APP_REGEX:
        dump_rules(key, c->app_rules, c->napp_rules, r->incl, 0);
        break;
    case T_NAME_REGEX:
        dump_rules(key, c->name_rules, c->nname_rules, r->incl, 1);
        break;
    case T_MODS:
        mods_text(buf, sizeof(buf), *(const uint64_t *)f);
        iol_diag_always("config: %s = %s", key, buf[0] ? buf : "(none)");
        break;
    }
}

void iol_config_dump(const struct iol_config *c)
{
    char buf[512];
    for (int i = 0; i < NSETTINGS; i++)
        dump_row(c, &iol_setting_rows[i]);
    mods_text(buf, sizeof(buf), c->mod_disabled);
    iol_diag_always("config: modules disabled = %s", buf[0] ? buf : "(none)");
    if (c->app_excluded)
        iol_diag_always("config: this application (%s) is excluded", program_invocation_name);
}
