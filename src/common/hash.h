/* The record-id hash: maps a record name to the 64-bit id stored in logs. */
#ifndef IOLENS_COMMON_HASH_H
#define IOLENS_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Hash len bytes at key with seed into 64 bits (Bob Jenkins' 1997 lookup8
 * algorithm, the one Darshan uses for record ids, so ids agree across tools).
 * @return the hash; the same bytes always give the same value on any host. */
uint64_t iol_hash64(const void *key, size_t len, uint64_t seed);

/* Spread a 64-bit key (a record id) over all bits, for the slot of an
 * in-memory hash table: ids of one log may share low bits. MurmurHash3's
 * 64-bit finalizer. */
static inline size_t iol_hash_mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (size_t)k;
}

#endif
