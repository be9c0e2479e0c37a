/* The four most common access tuples of a record (H5D, PNETCDF_VAR: the
 * access size, then five lengths and five strides), kept as Darshan keeps
 * them: every distinct tuple is counted, up to IOL_TUPLES_MAX per record; at
 * each access the tuple's new count is placed among the record's four
 * (iol_tuple4_place, the rule the REDUCE merge places tuples by too). */
#ifndef IOL_RT_TUPLES_H
#define IOL_RT_TUPLES_H

#include <stdint.h>

#include "format/runtime_api.h"

#define IOL_TUPLES_MAX 32 /* distinct tuples counted per record */

/* Distinct tuples seen on one record, in its state. Zeroed means empty. */
struct iol_tuples {
    uint32_t n;    /* distinct tuples counted */
    uint32_t hint; /* index of the tuple counted last (programs repeat it) */
    int64_t tuple[IOL_TUPLES_MAX][IOL_TUPLE_WORDS];
    int64_t count[IOL_TUPLES_MAX];
};

/* Count one occurrence of tuple (IOL_TUPLE_WORDS words) in t and place its
 * count among the record's four most common tuples vals / cnts (the caller
 * holds the record's lock). A tuple past IOL_TUPLES_MAX distinct ones is
 * neither counted nor placed. */
void iol_tuples_note(struct iol_tuples *t, int64_t *vals, int64_t cnts[4], const int64_t *tuple);

#endif
