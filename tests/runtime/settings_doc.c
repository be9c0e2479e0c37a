/* settings_doc: prints the runtime's settings table (src/runtime/core/settings.h)
 *   settings_doc table   as docs/runtime.md's Markdown table
 *   settings_doc rows    one line per row for rt_config.sh's "table" case:
 *                        NAME KEY ALIAS IOLENS DARSHAN TYPE DEFAULT ("-": none;
 *                        NAME is the dump's, DEFAULT the docs' first word)
 * Either way it first checks the table's naming rules (exit status 1 if one
 * is broken): a variable begins with IOLENS_, DARSHAN_ or DXT_ (the prefixes
 * the runtime looks for), the IOLENS_ variable of a row with a key is
 * IOLENS_KEY, an alias needs a key, and no two rows share a spelling. */
#include <stdio.h>
#include <string.h>

#include "core/settings.h"

struct setting {
    const char *id, *key, *iolens, *darshan, *alias, *type, *def, *meaning;
};

static const struct setting table[] = {
#define ROW(id, key, iolens, darshan, alias, type, field, incl, group, def, meaning) \
    {#id, key, iolens, darshan, alias, #type, def, meaning},
    IOL_SETTINGS(ROW)
#undef ROW
};
#define NROWS (sizeof(table) / sizeof(*table))

static const struct {
    const char *type, *doc;
} types[] = {
#define TYPE(type, doc) {#type, doc},
    IOL_SETTING_TYPES(TYPE)
#undef TYPE
};

/* The docs' words for a type. */
static const char *type_doc(const char *type)
{
    for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
        if (!strcmp(types[i].type, type))
            return types[i].doc;
    return "?";
}

/* Does s begin with p? */
static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* Row r's spellings: key, IOLENS_ variable, its alias, Darshan's variable,
 * alias as a key ("" where none). */
static void spellings(const struct setting *r, char out[5][64])
{
    snprintf(out[0], 64, "%s", r->key);
    snprintf(out[1], 64, "%s", r->iolens);
    snprintf(out[2], 64, "%s%s", *r->alias ? "IOLENS_" : "", r->alias);
    snprintf(out[3], 64, "%s", r->darshan);
    snprintf(out[4], 64, "%s", r->alias);
}

/* The naming rules above. @return the number of rows breaking one. */
static int check(void)
{
    int bad = 0;
    for (size_t i = 0; i < NROWS; i++) {
        const struct setting *r = &table[i];
        char want[64], a[5][64], b[5][64];
        snprintf(want, sizeof(want), "IOLENS_%s", r->key);
        const char *vars[] = {r->iolens, r->darshan};
        for (int v = 0; v < 2; v++)
            if (*vars[v] && !starts(vars[v], "IOLENS_") && !starts(vars[v], "DARSHAN_") &&
                !starts(vars[v], "DXT_")) {
                fprintf(stderr, "settings.h: %s: %s has no known prefix\n", r->id, vars[v]);
                bad++;
            }
        if (*r->key && strcmp(r->iolens, want) != 0) {
            fprintf(stderr, "settings.h: %s: the variable of key %s should be %s\n", r->id,
                    r->key, want);
            bad++;
        }
        if (*r->alias && !*r->key) {
            fprintf(stderr, "settings.h: %s: an alias without a key\n", r->id);
            bad++;
        }
        spellings(r, a);
        for (size_t j = 0; j < i; j++) {
            spellings(&table[j], b);
            for (int x = 0; x < 5; x++)
                for (int y = 0; y < 5; y++)
                    if (a[x][0] && !strcmp(a[x], b[y])) {
                        fprintf(stderr, "settings.h: %s and %s share %s\n", table[j].id,
                                r->id, a[x]);
                        bad++;
                    }
        }
    }
    return bad;
}

/* A cell of names: `NAME` (also `PREFIX ALIAS`), or empty. */
static void names_cell(const char *name, const char *prefix, const char *alias)
{
    if (*name)
        printf(" `%s`", name);
    if (*name && *alias)
        printf(" (also `%s%s`)", prefix, alias);
    printf(" |");
}

static void print_table(void)
{
    printf("| key | iolens variable | Darshan variable | type | default | meaning |\n");
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < NROWS; i++) {
        const struct setting *r = &table[i];
        printf("|");
        names_cell(r->key, "", r->alias);
        names_cell(r->iolens, "IOLENS_", r->alias);
        names_cell(r->darshan, "", "");
        printf(" %s | %s | %s |\n", type_doc(r->type), r->def, r->meaning);
    }
}

/* s, or "-" when empty. */
static const char *dash(const char *s)
{
    return *s ? s : "-";
}

static void print_rows(void)
{
    for (size_t i = 0; i < NROWS; i++) {
        const struct setting *r = &table[i];
        const char *name = *r->key ? r->key : *r->iolens ? r->iolens + 7 : r->darshan;
        char def[64];
        snprintf(def, sizeof(def), "%s", r->def);
        def[strcspn(def, " ")] = '\0';
        printf("%s %s %s %s %s %s %s\n", name, dash(r->key), dash(r->alias), dash(r->iolens),
               dash(r->darshan), r->type, dash(def));
    }
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "table") != 0 && strcmp(argv[1], "rows") != 0)) {
        fprintf(stderr, "usage: settings_doc table|rows\n");
        return 2;
    }
    if (check())
        return 1;
    if (!strcmp(argv[1], "table"))
        print_table();
    else
        print_rows();
    return 0;
}
