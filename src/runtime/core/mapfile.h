/* The shared record file: creating it, reserving space in it, removing it. */
#ifndef IOL_RT_MAPFILE_H
#define IOL_RT_MAPFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/recfile.h"
#include "paths.h"

struct iol_mapping {
    struct iol_map_header *hdr; /* start of the mapping */
    size_t size;
    char path[IOL_PATH_MAX];    /* the file, "" when anonymous memory is used */
};

/* A byte range of the record file. */
struct iol_map_range {
    uint64_t off, len;
};

/* Create a file of size bytes named after tag in dir, map it shared and
 * reserve the nreserve ranges of reserve[] (all through one descriptor).
 * Without a usable dir, anonymous memory is mapped instead (the data then
 * does not survive the process).
 * @return 0, or -1 if no memory at all could be mapped. */
int iol_map_create(struct iol_mapping *m, const char *dir, const char *tag, size_t size,
                   const struct iol_map_range *reserve, size_t nreserve);

/* Reserve file space for [off, off + len) so that touching it cannot raise
 * SIGBUS on a full file system. Not on the I/O hot path: called when a pool
 * or the name area grows past what is reserved.
 * @return 0, or -1 if the space could not be reserved. */
int iol_map_reserve(struct iol_mapping *m, uint64_t off, uint64_t len);

/* Map len bytes at p (page aligned, reserved) in one system call, so that
 * the stores that fill them take no page fault each (DXT's segments: about
 * 5 ns per traced call). Best effort: a kernel before 5.14 lacks it, and
 * the pages then fault in as they are touched. errno is kept. */
void iol_map_populate(void *p, size_t len);

/* Remove the file (the mapping stays valid until unmapped). */
void iol_map_unlink(struct iol_mapping *m);

/* Unmap the memory (after fork, in the child: the parent's file stays). */
void iol_map_release(struct iol_mapping *m);

#endif
