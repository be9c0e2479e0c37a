/* CALLSITES module descriptor (an iolens addition): counters of
 * include/iolens/modules/callsites.h, decoded and printed from the tables.
 * Version 1 is the only version. */
#include "iolens/modules/callsites.h"
#include "module_util.h"

static const struct iolens_counter callsites_counters[] = {
    IOLENS_CALLSITES_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter callsites_fcounters[] = {
    IOLENS_CALLSITES_FCOUNTERS(IOL_COUNTER_ROW)
};

const struct iolens_module_desc iolens_callsites_module = {
    .id = IOLENS_MOD_CALLSITES,
    .name = "CALLSITES",
    .version = IOLENS_CALLSITES_VERSION,
    .record_size = sizeof(struct iolens_callsites_record),
    .legend_name = "CALLSITES",
    .summary = "I/O by call site (module, operation, return addresses; calls, bytes, time), "
               "function times, and the mapped objects that resolve the addresses",
    .counters = callsites_counters,
    .ncounters = IOL_COUNT(callsites_counters),
    .counters_offset = offsetof(struct iolens_callsites_record, counters),
    .fcounters = callsites_fcounters,
    .nfcounters = IOL_COUNT(callsites_fcounters),
    .fcounters_offset = offsetof(struct iolens_callsites_record, fcounters),
    .head_words = 2,
    .summarises_others = 1,
};
