/* Building blocks for module descriptors (internal to the log library). */
#ifndef IOLENS_FORMAT_MODULE_UTIL_H
#define IOLENS_FORMAT_MODULE_UTIL_H

#include <stddef.h>

#include "iolens/module.h"

/* Expands one X(NAME, kind, merge, desc) row of a counter table. */
#define IOL_COUNTER_ROW(name, kind, merge, desc) \
    {#name, IOLENS_##kind, IOLENS_MERGE_##merge, desc},

#define IOL_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
