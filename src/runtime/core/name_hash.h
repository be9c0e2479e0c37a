/* The name cache's hash (records.c): a record's name to 64 bits that pick
 * and check its cache entry. Its own header so that a test can make names
 * whose entries share a set. */
#ifndef IOL_RT_NAME_HASH_H
#define IOL_RT_NAME_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A cheap 64-bit hash of len bytes of name, for the cache only: record ids
 * keep Darshan's hash. Two independent lanes take 16 bytes a step; the last
 * step's words overlap bytes already taken rather than going byte by byte,
 * and the final mix spreads every input bit over the low bits the index
 * uses. */
static inline uint64_t iol_name_cache_hash(const char *name, size_t len)
{
    const uint64_t k1 = 0xbf58476d1ce4e5b9ull, k2 = 0x94d049bb133111ebull;
    uint64_t a = 0x9e3779b97f4a7c15ull ^ len, b = 0xc2b2ae3d27d4eb4full, w1 = 0, w2 = 0;
    size_t i = 0;
    for (; i + 16 <= len; i += 16) {
        memcpy(&w1, name + i, 8);
        memcpy(&w2, name + i + 8, 8);
        a = (a ^ w1) * k1;
        b = (b ^ w2) * k2;
    }
    if (i < len) {
        if (len >= 16) {
            memcpy(&w1, name + len - 16, 8);
            memcpy(&w2, name + len - 8, 8);
        } else if (len >= 8) {
            memcpy(&w1, name, 8);
            memcpy(&w2, name + len - 8, 8);
        } else {
            memcpy(&w1, name, len);
        }
        a = (a ^ w1) * k1;
        b = (b ^ w2) * k2;
    }
    uint64_t h = a ^ (b >> 29) ^ (b << 35);
    h ^= h >> 31;
    h *= k2;
    return h ^ (h >> 32);
}

#endif
