/* The record-id hash: maps a record name to the 64-bit id stored in logs. */
#ifndef IOLENS_COMMON_HASH_H
#define IOLENS_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Hash len bytes at key with seed into 64 bits (Bob Jenkins' 1997 lookup8
 * algorithm, the one Darshan uses for record ids, so ids agree across tools).
 * @return the hash; the same bytes always give the same value on any host. */
uint64_t iol_hash64(const void *key, size_t len, uint64_t seed);

#endif
