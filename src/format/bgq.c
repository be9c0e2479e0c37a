/* BG/Q module descriptor: counters of include/iolens/modules/bgq.h and the
 * layout of record version 1. */
#include "iolens/modules/bgq.h"
#include "module_util.h"

static const struct iolens_counter bgq_counters[] = {
    IOLENS_BGQ_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter bgq_fcounters[] = {
    IOLENS_BGQ_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Words 0-1 are id and rank. */
static const struct iolens_layout bgq_layouts[] = {
    /* v1 had one more word (a 32-bit field and its padding) before the counters. */
    {.version = 1, .words = 15, .nedits = 1, .edits = {{2, -1, 0}}},
};

const struct iolens_module_desc iolens_bgq_module = {
    .id = IOLENS_MOD_BGQ,
    .name = "BG/Q",
    .version = IOLENS_BGQ_VERSION,
    .record_size = sizeof(struct iolens_bgq_record),
    .legend_name = "BGQ",
    .summary = "the Blue Gene/Q partition the job ran on",
    .counters = bgq_counters,
    .ncounters = IOL_COUNT(bgq_counters),
    .counters_offset = offsetof(struct iolens_bgq_record, counters),
    .fcounters = bgq_fcounters,
    .nfcounters = IOL_COUNT(bgq_fcounters),
    .fcounters_offset = offsetof(struct iolens_bgq_record, fcounters),
    .head_words = 2,
    .layouts = bgq_layouts,
    .nlayouts = IOL_COUNT(bgq_layouts),
    .default_name = "darshan-bgq-record",
};
