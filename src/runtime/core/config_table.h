/* The settings table (settings.h) as config.c and config_dump.c use it:
 * every row's spellings, type, group and field. Private to the runtime's
 * core. */
#ifndef IOL_RT_CONFIG_TABLE_H
#define IOL_RT_CONFIG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "settings.h"

#define MOD_BIT(id) ((uint64_t)1 << (id))
/* The ids iolens adds (docs/log-format.md, "Module ids iolens adds"). */
#define IOL_X_EXTRA_BIT(suffix, name, id) | MOD_BIT(id)
#define EXTRA_MODS (0 IOLENS_EXTRA_MODULE_IDS(IOL_X_EXTRA_BIT))
#define ALL_MODS (((((uint64_t)1 << IOLENS_MOD_KNOWN_COUNT) - 1) & ~(uint64_t)1) | EXTRA_MODS)

/* Setting types (settings.h). */
enum {
#define TYPE_ENUM(type, doc) T_##type,
    IOL_SETTING_TYPES(TYPE_ENUM)
#undef TYPE_ENUM
};

/* Groups of rows replaced together by a variable (settings.h's group). */
enum { G_ONE, G_NAME, G_APP, G_MOD, G_RANK };

enum {
#define ROW_ENUM(id, ...) S_##id,
    IOL_SETTINGS(ROW_ENUM)
#undef ROW_ENUM
    NSETTINGS
};

/* Every row's names, packed in one constant object: rows refer to them by
 * offset, so the table holds no pointer for the loader to relocate. */
struct iol_setting_names {
#define NAME_MEMBERS(id, key, iolens, darshan, alias, ...)                             \
    char id##_key[sizeof(key)], id##_iolens[sizeof(iolens)], id##_darshan[sizeof(darshan)], \
        id##_alias[sizeof(alias)];
    IOL_SETTINGS(NAME_MEMBERS)
#undef NAME_MEMBERS
};

_Static_assert(sizeof(struct iol_setting_names) <= UINT16_MAX, "rows keep 16-bit name offsets");

/* A row's spellings, in the order they are preferred among variables. */
enum { N_KEY, N_IOLENS, N_ALIAS, N_DARSHAN, N_COUNT };

/* One row of settings.h, as the runtime uses it. */
struct iol_setting_row {
    uint16_t name[N_COUNT]; /* offsets of the spellings in iol_setting_names */
    uint8_t len[N_COUNT];   /* their lengths; 0: no such spelling */
    uint8_t type, incl, group;
    uint32_t off;           /* offset of the field in struct iol_config */
};

/* Every row of settings.h (config.c), and every spelling. */
extern const struct iol_setting_row iol_setting_rows[NSETTINGS];
extern const struct iol_setting_names iol_setting_names;

/* Spelling `which` of row r ("" if it has none). */
const char *iol_setting_row_name(const struct iol_setting_row *r, int which);

/* The row's name in the dump: its key, else its variable without IOLENS_,
 * else Darshan's variable. */
const char *iol_setting_dump_name(const struct iol_setting_row *r);

#endif
