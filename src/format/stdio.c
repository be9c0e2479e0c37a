/* STDIO module descriptor: counters of include/iolens/modules/stdio.h and the
 * layout of record version 1. */
#include "iolens/modules/stdio.h"
#include "module_util.h"

static const struct iolens_counter stdio_counters[] = {
    IOLENS_STDIO_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter stdio_fcounters[] = {
    IOLENS_STDIO_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Words 0-1 are id and rank; counters start at word 2. */
static const struct iolens_layout stdio_layouts[] = {
    /* v2 added FDOPENS after OPENS (unknown in v1: -1). */
    {.version = 1, .words = 30, .nedits = 1, .edits = {{3, 1, IOLENS_FILL_MINUS_ONE}}},
};

static const struct iolens_module_roles stdio_roles = {
    .c_bytes_read = IOLENS_ROLE(STDIO_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(STDIO_BYTES_WRITTEN),
    .c_max_byte_read = IOLENS_ROLE(STDIO_MAX_BYTE_READ),
    .c_max_byte_written = IOLENS_ROLE(STDIO_MAX_BYTE_WRITTEN),
    .f_read_time = IOLENS_ROLE(STDIO_F_READ_TIME),
    .f_write_time = IOLENS_ROLE(STDIO_F_WRITE_TIME),
    .f_meta_time = IOLENS_ROLE(STDIO_F_META_TIME),
    .f_fastest_time = IOLENS_ROLE(STDIO_F_FASTEST_RANK_TIME),
    .c_fastest_rank = IOLENS_ROLE(STDIO_FASTEST_RANK),
    .c_fastest_rank_bytes = IOLENS_ROLE(STDIO_FASTEST_RANK_BYTES),
    .f_slowest_time = IOLENS_ROLE(STDIO_F_SLOWEST_RANK_TIME),
    .c_slowest_rank = IOLENS_ROLE(STDIO_SLOWEST_RANK),
    .c_slowest_rank_bytes = IOLENS_ROLE(STDIO_SLOWEST_RANK_BYTES),
    .flags = IOLENS_ROLE_METRICS | IOLENS_ROLE_SUM_UNCLAMPED | IOLENS_ROLE_TOTAL_NO_VARIANCE,
};

const struct iolens_module_desc iolens_stdio_module = {
    .id = IOLENS_MOD_STDIO,
    .name = "STDIO",
    .version = IOLENS_STDIO_VERSION,
    .record_size = sizeof(struct iolens_stdio_record),
    .legend_name = "STDIO",
    .summary = "buffered stream (stdio) access: operation counts, bytes, offsets and timing",
    .counters = stdio_counters,
    .ncounters = IOL_COUNT(stdio_counters),
    .counters_offset = offsetof(struct iolens_stdio_record, counters),
    .fcounters = stdio_fcounters,
    .nfcounters = IOL_COUNT(stdio_fcounters),
    .fcounters_offset = offsetof(struct iolens_stdio_record, fcounters),
    .head_words = 2,
    .layouts = stdio_layouts,
    .nlayouts = IOL_COUNT(stdio_layouts),
    .roles = &stdio_roles,
};
