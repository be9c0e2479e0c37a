/* Between callsites_load.c and callsites_resolve.c: the mapped objects of
 * one process of the log and the resolver over them. */
#ifndef IOLENS_CLI_CALLSITES_INTERNAL_H
#define IOLENS_CLI_CALLSITES_INTERNAL_H

#include <elfutils/libdwfl.h>

#include "callsites.h"

/* A mapped object of one process, from its OBJECT record. */
struct cs_cu_table;

struct cs_object {
    const char *path;          /* the record's name (in the log's name table) */
    uint64_t base;             /* load address */
    unsigned char build_id[32];
    size_t idlen;
    Dwfl_Module *mod;          /* reported to the resolver, or NULL */
    struct cs_cu_table *cus;   /* its compile units by address, made when needed */
};

/* A resolver over the n objects (each one's mod set when its file was found).
 * @return it (dwfl_end frees it), or NULL. */
Dwfl *cs_dwfl_open(struct cs_object *objs, size_t n);

/* Resolve addr into f (its strings are the caller's to free). is_return: a
 * return address, whose call is the instruction before it. d may be NULL. */
void cs_resolve(Dwfl *d, struct cs_object *objs, size_t n, uint64_t addr, int is_return,
                struct cs_frame *f);

/* Free what cs_resolve kept in the n objects (before dwfl_end). */
void cs_objects_release(struct cs_object *objs, size_t n);

#endif
