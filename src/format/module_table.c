/* The module table: which descriptor serves each module id. Adding a module
 * means one line here and its own descriptor file. */
#include <stddef.h>
#include <string.h>

#include "iolens/modules/posix.h"
#include "module_util.h"

static const struct iolens_module_desc *const module_table[IOLENS_MOD_KNOWN_COUNT] = {
    [IOLENS_MOD_POSIX] = &iolens_posix_module,
};

static const char *const module_names[] = {
#define IOL_X_NAME(suffix, name) name,
    IOLENS_MODULE_IDS(IOL_X_NAME)
#undef IOL_X_NAME
};

const struct iolens_module_desc *iolens_module(int id)
{
    if (id < 0 || id >= IOLENS_MOD_KNOWN_COUNT)
        return NULL;
    return module_table[id];
}

const char *iolens_module_name(int id)
{
    if (id < 0 || id >= IOLENS_MOD_KNOWN_COUNT)
        return NULL;
    return module_names[id];
}

size_t iolens_record_size(const struct iolens_module_desc *mod, const void *rec)
{
    (void)rec;
    return mod->record_size;
}
