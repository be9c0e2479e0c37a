/* MPI-IO module descriptor: counters of include/iolens/modules/mpiio.h and the
 * layouts of record versions 1 and 2. */
#include "iolens/modules/mpiio.h"
#include "module_util.h"

static const struct iolens_counter mpiio_counters[] = {
    IOLENS_MPIIO_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter mpiio_fcounters[] = {
    IOLENS_MPIIO_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Words 0-1 are id and rank; counters start at word 2, floats at word 53. */
static const struct iolens_layout mpiio_layouts[] = {
    /* v1 and v2 share one layout of 68 words. */
    {.version = 1, .words = 68},
    /* v3 added close-start and open-end timestamps (unknown: -1). */
    {.version = 2, .words = 68, .nedits = 1,
     .edits = {{2 + 51 + 3, 2, IOLENS_FILL_MINUS_ONE_F}}},
};

static const struct iolens_module_roles mpiio_roles = {
    .c_bytes_read = IOLENS_ROLE(MPIIO_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(MPIIO_BYTES_WRITTEN),
    .f_read_time = IOLENS_ROLE(MPIIO_F_READ_TIME),
    .f_write_time = IOLENS_ROLE(MPIIO_F_WRITE_TIME),
    .f_meta_time = IOLENS_ROLE(MPIIO_F_META_TIME),
    .f_max_read_time = IOLENS_ROLE(MPIIO_F_MAX_READ_TIME),
    .c_max_read_time_size = IOLENS_ROLE(MPIIO_MAX_READ_TIME_SIZE),
    .f_max_write_time = IOLENS_ROLE(MPIIO_F_MAX_WRITE_TIME),
    .c_max_write_time_size = IOLENS_ROLE(MPIIO_MAX_WRITE_TIME_SIZE),
    .f_fastest_time = IOLENS_ROLE(MPIIO_F_FASTEST_RANK_TIME),
    .c_fastest_rank = IOLENS_ROLE(MPIIO_FASTEST_RANK),
    .c_fastest_rank_bytes = IOLENS_ROLE(MPIIO_FASTEST_RANK_BYTES),
    .f_slowest_time = IOLENS_ROLE(MPIIO_F_SLOWEST_RANK_TIME),
    .c_slowest_rank = IOLENS_ROLE(MPIIO_SLOWEST_RANK),
    .c_slowest_rank_bytes = IOLENS_ROLE(MPIIO_SLOWEST_RANK_BYTES),
    .flags = IOLENS_ROLE_METRICS | IOLENS_ROLE_SUM_UNCLAMPED | IOLENS_ROLE_TOP4_NEEDS_HEAD |
             IOLENS_ROLE_TOTAL_NO_VARIANCE,
};

const struct iolens_module_desc iolens_mpiio_module = {
    .id = IOLENS_MOD_MPIIO,
    .name = "MPI-IO",
    .version = IOLENS_MPIIO_VERSION,
    .record_size = sizeof(struct iolens_mpiio_record),
    .legend_name = "MPIIO",
    .summary = "MPI-IO file access: independent, collective, split and non-blocking "
               "operations, bytes, access sizes and timing",
    .counters = mpiio_counters,
    .ncounters = IOL_COUNT(mpiio_counters),
    .counters_offset = offsetof(struct iolens_mpiio_record, counters),
    .fcounters = mpiio_fcounters,
    .nfcounters = IOL_COUNT(mpiio_fcounters),
    .fcounters_offset = offsetof(struct iolens_mpiio_record, fcounters),
    .head_words = 2,
    .layouts = mpiio_layouts,
    .nlayouts = IOL_COUNT(mpiio_layouts),
    .roles = &mpiio_roles,
};
