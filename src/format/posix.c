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
};
