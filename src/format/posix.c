/* POSIX module descriptor: counters of include/iolens/modules/posix.h and the
 * layouts of record versions 1 to 3. */
#include "iolens/modules/posix.h"
#include "module_util.h"

static const struct iolens_counter posix_counters[] = {
    IOLENS_POSIX_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter posix_fcounters[] = {
    IOLENS_POSIX_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Word 0-1 is id and rank; counters start at word 2. */
static const struct iolens_layout posix_layouts[] = {
    /* v1 carried 4 stream counters after the first 6; records that used
     * them (fopen count at word 8 > 0) belong to STDIO and are dropped. */
    {.version = 1, .words = 85, .skip_word = 8, .nedits = 1, .edits = {{8, -4, 0}}},
    /* v3 added close-start and open-end timestamps (unknown: -1). */
    {.version = 2, .words = 81, .nedits = 1,
     .edits = {{2 + 64 + 3, 2, IOLENS_FILL_MINUS_ONE_F}}},
    /* v4 added FILENOS and DUPS after OPENS, and the rename counters. */
    {.version = 3, .words = 83, .nedits = 3,
     .edits = {{3, 2, IOLENS_FILL_MINUS_ONE}, {12, 2, IOLENS_FILL_MINUS_ONE},
               {14, 1, IOLENS_FILL_ZERO}}},
};

static const struct iolens_module_roles posix_roles = {
    .c_bytes_read = IOLENS_ROLE(POSIX_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(POSIX_BYTES_WRITTEN),
    .c_max_byte_read = IOLENS_ROLE(POSIX_MAX_BYTE_READ),
    .c_max_byte_written = IOLENS_ROLE(POSIX_MAX_BYTE_WRITTEN),
    .f_read_time = IOLENS_ROLE(POSIX_F_READ_TIME),
    .f_write_time = IOLENS_ROLE(POSIX_F_WRITE_TIME),
    .f_meta_time = IOLENS_ROLE(POSIX_F_META_TIME),
    .f_max_read_time = IOLENS_ROLE(POSIX_F_MAX_READ_TIME),
    .c_max_read_time_size = IOLENS_ROLE(POSIX_MAX_READ_TIME_SIZE),
    .f_max_write_time = IOLENS_ROLE(POSIX_F_MAX_WRITE_TIME),
    .c_max_write_time_size = IOLENS_ROLE(POSIX_MAX_WRITE_TIME_SIZE),
    .f_fastest_time = IOLENS_ROLE(POSIX_F_FASTEST_RANK_TIME),
    .c_fastest_rank = IOLENS_ROLE(POSIX_FASTEST_RANK),
    .c_fastest_rank_bytes = IOLENS_ROLE(POSIX_FASTEST_RANK_BYTES),
    .f_slowest_time = IOLENS_ROLE(POSIX_F_SLOWEST_RANK_TIME),
    .c_slowest_rank = IOLENS_ROLE(POSIX_SLOWEST_RANK),
    .c_slowest_rank_bytes = IOLENS_ROLE(POSIX_SLOWEST_RANK_BYTES),
    .flags = IOLENS_ROLE_METRICS | IOLENS_ROLE_TOTAL_NO_VARIANCE,
};

const struct iolens_module_desc iolens_posix_module = {
    .id = IOLENS_MOD_POSIX,
    .name = "POSIX",
    .version = IOLENS_POSIX_VERSION,
    .record_size = sizeof(struct iolens_posix_record),
    .legend_name = "POSIX",
    .summary = "POSIX file access: operation counts, bytes, access pattern and timing",
    .counters = posix_counters,
    .ncounters = IOL_COUNT(posix_counters),
    .counters_offset = offsetof(struct iolens_posix_record, counters),
    .fcounters = posix_fcounters,
    .nfcounters = IOL_COUNT(posix_fcounters),
    .fcounters_offset = offsetof(struct iolens_posix_record, fcounters),
    .head_words = 2,
    .layouts = posix_layouts,
    .nlayouts = IOL_COUNT(posix_layouts),
    .roles = &posix_roles,
};
