/* The module table: which descriptor serves each module id. Adding a module
 * means one line here and its own descriptor file (docs/log-format.md, "What
 * a module is"). The command-line tools loop over this table and read
 * descriptor fields; they never test a module's id. */
#include <stddef.h>
#include <string.h>

#include "iolens/log.h"
#include "iolens/modules/posix.h"
#include "iolens/modules/lustre.h"
#include "iolens/modules/heatmap.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/dxt_mpiio.h"
#include "iolens/modules/dxt_stdio.h"
#include "iolens/modules/callsites.h"
#include "iolens/modules/mpiio.h"
#include "iolens/modules/h5f.h"
#include "iolens/modules/h5d.h"
#include "iolens/modules/pnetcdf_file.h"
#include "iolens/modules/pnetcdf_var.h"
#include "iolens/modules/bgq.h"
#include "iolens/modules/stdio.h"
#include "iolens/modules/mdhim.h"
#include "iolens/modules/dfs.h"
#include "iolens/modules/daos.h"
#include "module_util.h"

/* The runtime's copy (IOLENS_RUNTIME_MODULES, see CMakeLists.txt) knows
 * only the modules the runtime records: each other descriptor would pull in
 * its counter-name tables, whose pointers the dynamic loader relocates (a
 * page fault per page) at the start of every program the runtime is loaded
 * into. */
static const struct iolens_module_desc *const module_table[IOLENS_MAX_MODS] = {
    [IOLENS_MOD_POSIX] = &iolens_posix_module,
    [IOLENS_MOD_MPIIO] = &iolens_mpiio_module,
    [IOLENS_MOD_STDIO] = &iolens_stdio_module,
    [IOLENS_MOD_HEATMAP] = &iolens_heatmap_module,
    [IOLENS_MOD_DXT_POSIX] = &iolens_dxt_posix_module,
    [IOLENS_MOD_DXT_MPIIO] = &iolens_dxt_mpiio_module,
    [IOLENS_MOD_DXT_STDIO] = &iolens_dxt_stdio_module,
    [IOLENS_MOD_CALLSITES] = &iolens_callsites_module,
    [IOLENS_MOD_H5F] = &iolens_h5f_module,
    [IOLENS_MOD_H5D] = &iolens_h5d_module,
    [IOLENS_MOD_PNETCDF_FILE] = &iolens_pnetcdf_file_module,
    [IOLENS_MOD_PNETCDF_VAR] = &iolens_pnetcdf_var_module,
#ifndef IOLENS_RUNTIME_MODULES
    [IOLENS_MOD_BGQ] = &iolens_bgq_module,
    [IOLENS_MOD_MDHIM] = &iolens_mdhim_module,
    [IOLENS_MOD_DFS] = &iolens_dfs_module,
    [IOLENS_MOD_DAOS] = &iolens_daos_module,
    [IOLENS_MOD_LUSTRE] = &iolens_lustre_module,
#endif
};

/* Darshan's ids count up from 0, iolens's own down from 63: they must not meet. */
_Static_assert(IOLENS_MOD_KNOWN_COUNT <= IOLENS_MOD_EXTRA_LOWEST,
               "Darshan's module ids reach those iolens adds");
_Static_assert(IOLENS_MOD_EXTRA_LOWEST < IOLENS_MAX_MODS, "module id past the map");

static const char *const module_names[IOLENS_MAX_MODS] = {
#define IOL_X_NAME(suffix, name) [IOLENS_MOD_##suffix] = name,
    IOLENS_MODULE_IDS(IOL_X_NAME)
#undef IOL_X_NAME
#define IOL_X_EXTRA_NAME(suffix, name, id) [id] = name,
    IOLENS_EXTRA_MODULE_IDS(IOL_X_EXTRA_NAME)
#undef IOL_X_EXTRA_NAME
};

const struct iolens_module_desc *iolens_module(int id)
{
    if (id < 0 || id >= IOLENS_MAX_MODS)
        return NULL;
    return module_table[id];
}

const char *iolens_module_name(int id)
{
    if (id < 0 || id >= IOLENS_MAX_MODS)
        return NULL;
    return module_names[id]; /* NULL for an id no module has */
}

uint32_t iolens_module_compat_version(const struct iolens_module_desc *mod,
                                      iolens_log_compat compat)
{
    if (compat != IOLENS_COMPAT_DARSHAN_3_5)
        return mod->version;
    if ((int)mod->id >= IOLENS_MOD_DARSHAN_3_5_COUNT)
        return 0;
    return mod->darshan_3_5_version ? mod->darshan_3_5_version : mod->version;
}

size_t iolens_record_size(const struct iolens_module_desc *mod, const void *rec)
{
    return mod->var_size ? mod->var_size(rec) : mod->record_size;
}
