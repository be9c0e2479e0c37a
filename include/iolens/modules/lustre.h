/* LUSTRE module (record version 2): the striping of one file on a Lustre
 * file system, as a list of layout components and the OSTs each one uses.
 * Version 1 records (one stripe pattern, no components) are read as one
 * component with the unknown fields set as listed below. */
#ifndef IOLENS_MODULES_LUSTRE_H
#define IOLENS_MODULES_LUSTRE_H

#include <stdint.h>

#include "iolens/module.h"

#define IOLENS_LUSTRE_VERSION 2

/* Counters of one layout component: X(NAME, meaning). Printed per component
 * as LUSTRE_COMP<n>_<suffix>, n counting from 1. */
#define IOLENS_LUSTRE_COMP_COUNTERS(X) \
    X(LUSTRE_COMP_STRIPE_SIZE, "bytes per stripe; -1 marks an unused slot") \
    X(LUSTRE_COMP_STRIPE_COUNT, "OSTs the component is striped over (0: data on the MDT)") \
    X(LUSTRE_COMP_STRIPE_PATTERN, "layout pattern bits: 0 raid0, 2 mdt, 4 overstriped, 8 foreign") \
    X(LUSTRE_COMP_FLAGS, "component flag bits (stale, prefer-read, prefer-write, init, ...)") \
    X(LUSTRE_COMP_EXT_START, "first file offset the component covers") \
    X(LUSTRE_COMP_EXT_END, "file offset where the component ends; -1 is end of file") \
    X(LUSTRE_COMP_MIRROR_ID, "mirror the component belongs to")

#define IOLENS_X_ENUM(name, desc) name,
enum iolens_lustre_comp_counter { IOLENS_LUSTRE_COMP_COUNTERS(IOLENS_X_ENUM) LUSTRE_COMP_NUM_INDICES };
#undef IOLENS_X_ENUM

_Static_assert(LUSTRE_COMP_NUM_INDICES == 7, "LUSTRE component counter count");

#define IOLENS_LUSTRE_POOL_NAME_SIZE 16

/* One layout component, 72 bytes. Version 1 records give one component with
 * STRIPE_PATTERN, FLAGS and MIRROR_ID -1, EXT_START 0, EXT_END -1, no pool. */
struct iolens_lustre_component {
    int64_t counters[LUSTRE_COMP_NUM_INDICES];
    char pool_name[IOLENS_LUSTRE_POOL_NAME_SIZE]; /* OST pool; "" if none; NUL-terminated */
};

/* A decoded LUSTRE record: one contiguous block without pointers, in the
 * version 2 on-disk order. num_comps components follow the fixed part, then
 * num_stripes OST indices. Unused component slots the runtime left behind are
 * dropped, so every component is in use, and num_stripes is always the sum
 * of the components' STRIPE_COUNT. Size: iolens_lustre_record_bytes(). */
struct iolens_lustre_record {
    struct iolens_record_base base;
    int64_t num_comps;
    int64_t num_stripes;
    struct iolens_lustre_component comps[];
};

_Static_assert(sizeof(struct iolens_lustre_component) == 72, "LUSTRE component size");
_Static_assert(sizeof(struct iolens_lustre_record) == 32, "LUSTRE record head size");

/* OST indices of a record: num_stripes values, component after component. */
static inline const int64_t *iolens_lustre_osts(const struct iolens_lustre_record *rec)
{
    return (const int64_t *)(const void *)(rec->comps + rec->num_comps);
}

/* Bytes of a decoded record (fixed part, components and OST indices). */
static inline size_t iolens_lustre_record_bytes(const struct iolens_lustre_record *rec)
{
    return sizeof(*rec) + (size_t)rec->num_comps * sizeof(rec->comps[0]) +
           (size_t)rec->num_stripes * sizeof(int64_t);
}

/* The LUSTRE module: reads versions 1 and 2, writes version 2, prints what
 * darshan-parser prints. */
extern IOLENS_API const struct iolens_module_desc iolens_lustre_module;

#endif
