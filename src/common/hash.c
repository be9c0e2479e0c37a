/* Bob Jenkins' public-domain 64-bit hash (lookup8, 1997), written from its
 * published description. Darshan derives record ids from it with seed 0. */
#include "hash.h"
#include "byteorder.h"

#include <string.h>

/* The reversible 3-word mix of the algorithm: twelve subtract-subtract-xor
 * steps rotating over (a, b, c); the shift amounts are its constants. */
static inline void mix3(uint64_t *pa, uint64_t *pb, uint64_t *pc)
{
    uint64_t a = *pa, b = *pb, c = *pc;
    a -= b; a -= c; a ^= c >> 43;
    b -= c; b -= a; b ^= a << 9;
    c -= a; c -= b; c ^= b >> 8;
    a -= b; a -= c; a ^= c >> 38;
    b -= c; b -= a; b ^= a << 23;
    c -= a; c -= b; c ^= b >> 5;
    a -= b; a -= c; a ^= c >> 35;
    b -= c; b -= a; b ^= a << 49;
    c -= a; c -= b; c ^= b >> 11;
    a -= b; a -= c; a ^= c >> 12;
    b -= c; b -= a; b ^= a << 18;
    c -= a; c -= b; c ^= b >> 22;
    *pa = a, *pb = b, *pc = c;
}

uint64_t iol_hash64(const void *key, size_t len, uint64_t seed)
{
    const unsigned char *k = key;
    uint64_t a = seed, b = seed, c = 0x9e3779b97f4a7c13ULL;
    size_t left = len;

    for (; left >= 24; left -= 24, k += 24) {
        a += iol_load_le64(k);
        b += iol_load_le64(k + 8);
        c += iol_load_le64(k + 16);
        mix3(&a, &b, &c);
    }
    /* Tail: bytes 0-7 go to a, 8-15 to b, 16-22 to c shifted one byte up,
     * because c's low byte carries the total length. */
    unsigned char tail[24] = {0};
    memcpy(tail, k, left);
    a += iol_load_le64(tail);
    b += iol_load_le64(tail + 8);
    c += (uint64_t)len + (iol_load_le64(tail + 16) << 8);
    mix3(&a, &b, &c);
    return c;
}
