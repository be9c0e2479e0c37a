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

/* The rows of one module's tables ordered once for merging many records:
 * integer sums (clamped to -1 when negative, then plain), then every other
 * rule in table order; PAIRED rows are left to the rows they pair with. */
struct iol_merge_plan {
    const struct iolens_module_desc *mod;
    size_t nsum_clamped, nsum_plain, nrest;
    uint16_t *rows; /* counter i, or ncounters + fcounter i */
};

/* Build the plan of a usable module. @return IOLENS_OK or IOLENS_ERR_NOMEM. */
iolens_status iol_merge_plan_init(struct iol_merge_plan *p, const struct iolens_module_desc *mod);

/* Free a plan's rows. */
void iol_merge_plan_free(struct iol_merge_plan *p);

/* The same as iol_merge_checked, through a plan. */
void iol_merge_planned(const struct iol_merge_plan *p, void *dst, const void *src, int first);

#endif
