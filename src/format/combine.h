/* The combining engine's internal entry points (the public ones are in
 * iolens/combine.h; combining without the argument checks, for callers that
 * checked the module once, the accumulator and the MPI reduction's
 * operation, is in runtime_api.h). */
#ifndef IOLENS_FORMAT_COMBINE_H
#define IOLENS_FORMAT_COMBINE_H

#include "iolens/combine.h"
#include "runtime_api.h" /* iol_combine_checked: combining without the checks */

/* The rows of one module's tables ordered once for combining many records in
 * one mode: integer sums (those clamped to -1 when negative, then the
 * others), then every other rule in table order; PAIRED rows are left to the
 * rows they pair with. */
struct iol_combine_plan {
    const struct iolens_module_desc *mod;
    iolens_combine_mode mode;
    size_t nsum_clamped, nsum_plain, nrest;
    uint16_t *rows; /* counter i, or ncounters + fcounter i */
};

/* Build the plan of a module supported in mode. @return IOLENS_OK or IOLENS_ERR_NOMEM. */
iolens_status iol_combine_plan_init(struct iol_combine_plan *p,
                                    const struct iolens_module_desc *mod,
                                    iolens_combine_mode mode);

/* Free a plan's rows. */
void iol_combine_plan_free(struct iol_combine_plan *p);

/* The same as iol_combine_checked, through a plan. */
void iol_combine_planned(const struct iol_combine_plan *p, void *dst, const void *src,
                         int first);

/* The word index of a role the module has (a non-zero role). */
static inline size_t iol_role_at(iolens_role role)
{
    return (size_t)iolens_role_index(role);
}

/* A record's own I/O time (read + write + meta, summed in Darshan's order)
 * and bytes (read + written); mod's roles must name those counters. */
double iol_own_time(const struct iolens_module_desc *mod, const void *rec);
int64_t iol_own_bytes(const struct iolens_module_desc *mod, const void *rec);

/* Does the module keep no fastest and slowest rank (no such roles)? Its
 * REDUCE preparation then only marks the record shared. */
int iol_extremes_absent(const struct iolens_module_desc *mod);

/* Darshan keeps the count that ranks a value or tuple being placed among the
 * four most common in a C int: a count past 2^31 wraps there, and so does it
 * here (two's complement, as gcc does). */
static inline int64_t iol_rank_count(int64_t count)
{
    return (int32_t)(uint32_t)(uint64_t)count;
}

/* Merge a "four most common values" group (values v, their counts c) of src
 * into dst's. new_list 0: dst's list is updated in place (TOTAL); 1: a new
 * list takes src's values, then dst's (REDUCE). What ranks past the fourth
 * place is lost. */
void iol_top4_merge(int64_t dst_v[4], int64_t dst_c[4], const int64_t src_v[4],
                    const int64_t src_c[4], int new_list);

/* REDUCE: merge src's TOP4_TUPLE group (4 tuples src_v, counts src_c) into
 * dst's, as Darshan's runtime reduction does: counts of a tuple both hold
 * are summed, then a new list takes src's tuples, then dst's, each placed
 * by iol_tuple4_place (runtime_api.h: the runtime places by it too). */
void iol_tuple4_reduce(int64_t *dst_v, int64_t dst_c[4], const int64_t *src_v,
                       const int64_t src_c[4]);

#endif
