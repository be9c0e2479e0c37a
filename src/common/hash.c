/* Bob Jenkins' public-domain 64-bit hash (lookup8, 1997), written from its
 * published description. Darshan derives record ids from it with seed 0. */
#include "hash.h"
#include "byteorder.h"

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

/* The n (1 to 7) bytes at p as a little-endian word. With at least 8 bytes
 * of the key up to p + n (before: bytes before p), one load of the 8 bytes
 * ending at p + n, shifted; else byte by byte. */
static inline uint64_t load_part(const unsigned char *p, size_t n, size_t before)
{
    if (before + n >= 8)
        return iol_load_le64(p + n - 8) >> (8 * (8 - n));
    uint64_t v = 0;
    while (n--)
        v = (v << 8) | p[n];
    return v;
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
    uint64_t w[3] = {0, 0, 0};
    size_t i = 0;
    for (; i + 8 <= left; i += 8)
        w[i / 8] = iol_load_le64(k + i);
    if (i < left)
        w[i / 8] = load_part(k + i, left - i, (size_t)(k - (const unsigned char *)key) + i);
    a += w[0];
    b += w[1];
    c += (uint64_t)len + (w[2] << 8);
    mix3(&a, &b, &c);
    return c;
}
