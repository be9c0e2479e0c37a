/* The merge engine's internal entry points (the public one is
 * iolens_merge_record in iolens/module.h). */
#ifndef IOLENS_FORMAT_MERGE_H
#define IOLENS_FORMAT_MERGE_H

#include "iolens/module.h"

/* Whether iolens_merge_record accepts mod: fixed-size, consistent, with rules
 * the engine applies. Checking it once lets callers merge many records
 * without re-validating the tables each time. @return 1 if usable, else 0. */
int iol_merge_usable(const struct iolens_module_desc *mod);

/* iolens_merge_record without the argument checks; mod must be usable. */
void iol_merge_checked(const struct iolens_module_desc *mod, void *dst, const void *src,
                       int first);

#endif
