/* H5F module descriptor: counters of include/iolens/modules/h5f.h and the
 * layouts of record versions 1 and 2. */
#include "iolens/modules/h5f.h"
#include "module_util.h"

static const struct iolens_counter h5f_counters[] = {
    IOLENS_H5F_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter h5f_fcounters[] = {
    IOLENS_H5F_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Words 0-1 are id and rank; counters start at word 2. */
static const struct iolens_layout h5f_layouts[] = {
    /* v1: OPENS, then open and close timestamps; v2 added close-start and
     * open-end timestamps between them (unknown: -1). */
    {.version = 1, .words = 5, .nedits = 1, .edits = {{4, 2, IOLENS_FILL_MINUS_ONE_F}}},
    /* v3 added FLUSHES and USE_MPIIO after OPENS, and META_TIME at the end. */
    {.version = 2, .words = 7, .nedits = 2,
     .edits = {{3, 2, IOLENS_FILL_MINUS_ONE}, {9, 1, IOLENS_FILL_MINUS_ONE_F}}},
};

static const struct iolens_module_roles h5f_roles = {
    .f_meta_time = IOLENS_ROLE(H5F_F_META_TIME),
    .flags = IOLENS_ROLE_SUM_UNCLAMPED,
};

const struct iolens_module_desc iolens_h5f_module = {
    .id = IOLENS_MOD_H5F,
    .name = "H5F",
    .version = IOLENS_H5F_VERSION,
    .record_size = sizeof(struct iolens_h5f_record),
    .legend_name = "HDF5",
    .summary = "HDF5 file-level calls: opens, flushes, MPI-IO use and timing",
    .counters = h5f_counters,
    .ncounters = IOL_COUNT(h5f_counters),
    .counters_offset = offsetof(struct iolens_h5f_record, counters),
    .fcounters = h5f_fcounters,
    .nfcounters = IOL_COUNT(h5f_fcounters),
    .fcounters_offset = offsetof(struct iolens_h5f_record, fcounters),
    .head_words = 2,
    .layouts = h5f_layouts,
    .nlayouts = IOL_COUNT(h5f_layouts),
    .roles = &h5f_roles,
};
