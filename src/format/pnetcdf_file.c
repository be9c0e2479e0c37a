/* PNETCDF_FILE module descriptor: counters of
 * include/iolens/modules/pnetcdf_file.h and the layouts of record versions 1
 * and 2. Version 3 merged two open counters into one, which the generic
 * layout edits cannot express, so this module reads through its own hook. */
#include <string.h>

#include "iolens/modules/pnetcdf_file.h"
#include "log_internal.h"
#include "module_util.h"

static const struct iolens_counter pnetcdf_file_counters[] = {
    IOLENS_PNETCDF_FILE_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter pnetcdf_file_fcounters[] = {
    IOLENS_PNETCDF_FILE_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Words 0-1 are id and rank; counters start at word 2. */
static const struct iolens_layout pnetcdf_file_layouts[] = {
    /* v1: independent and collective opens, then open and close timestamps;
     * v2 added close-start and open-end timestamps between them (unknown: -1). */
    {.version = 1, .words = 6, .nedits = 1, .edits = {{5, 2, IOLENS_FILL_MINUS_ONE_F}}},
    /* v3 counts creates, redefs, waits, syncs, bytes and wait failures, and
     * times waits and metadata calls (all unknown before: -1). The old
     * independent opens stay in the CREATES slot until pnetcdf_file_read
     * adds them to OPENS. */
    {.version = 2, .words = 8, .nedits = 3,
     .edits = {{4, 7, IOLENS_FILL_MINUS_ONE}, {13, 1, IOLENS_FILL_MINUS_ONE_F},
               {16, 3, IOLENS_FILL_MINUS_ONE_F}}},
};

/* Old versions counted opens and creates apart; today OPENS holds both and
 * CREATES is unknown. */
static void pnetcdf_file_fixup(void *rec, uint32_t ver, int swap)
{
    struct iolens_pnetcdf_file_record r;
    if (ver >= 3)
        return;
    memcpy(&r, rec, sizeof(r));
    /* Unsigned addition: a hostile log must not overflow a signed sum. */
    r.counters[PNETCDF_FILE_OPENS] = (int64_t)((uint64_t)r.counters[PNETCDF_FILE_OPENS] +
                                               (uint64_t)r.counters[PNETCDF_FILE_CREATES]);
    r.counters[PNETCDF_FILE_CREATES] = -1;
    memcpy(rec, &r, sizeof(r));
}

static const struct iolens_module_roles pnetcdf_file_roles = {
    .c_bytes_read = IOLENS_ROLE(PNETCDF_FILE_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(PNETCDF_FILE_BYTES_WRITTEN),
    .f_meta_time = IOLENS_ROLE(PNETCDF_FILE_F_META_TIME),
    .flags = IOLENS_ROLE_SUM_UNCLAMPED,
};

const struct iolens_module_desc iolens_pnetcdf_file_module = {
    .id = IOLENS_MOD_PNETCDF_FILE,
    .name = "PNETCDF_FILE",
    .version = IOLENS_PNETCDF_FILE_VERSION,
    .record_size = sizeof(struct iolens_pnetcdf_file_record),
    .legend_name = "PnetCDF",
    .summary = "PnetCDF file-level calls: creates, opens, define mode, waits, syncs and timing",
    .counters = pnetcdf_file_counters,
    .ncounters = IOL_COUNT(pnetcdf_file_counters),
    .counters_offset = offsetof(struct iolens_pnetcdf_file_record, counters),
    .fcounters = pnetcdf_file_fcounters,
    .nfcounters = IOL_COUNT(pnetcdf_file_fcounters),
    .fcounters_offset = offsetof(struct iolens_pnetcdf_file_record, fcounters),
    .head_words = 2,
    .layouts = pnetcdf_file_layouts,
    .nlayouts = IOL_COUNT(pnetcdf_file_layouts),
    .fixup = pnetcdf_file_fixup,
    .roles = &pnetcdf_file_roles,
};
