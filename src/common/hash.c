/* Bob Jenkins' public-domain 64-bit hash (lookup8, 1997), written from its
 * published description. Darshan derives record ids from it with seed 0. */
#include "hash.h"
#include "byteorder.h"

/* The reversible 3-word mix of the algorithm; shift amounts are its constants. */
static void mix3(uint64_t *a, uint64_t *b, uint64_t *c)
{
    static const struct { int right; unsigned shift; } steps[12] = {
        {1, 43}, {0, 9}, {1, 8}, {1, 38}, {0, 23}, {1, 5},
        {1, 35}, {0, 49}, {1, 11}, {1, 12}, {0, 18}, {1, 22},
    };
    uint64_t *w[3] = {a, b, c};
    for (int i = 0; i < 12; i++) {
        uint64_t *x = w[i % 3], *y = w[(i + 1) % 3], *z = w[(i + 2) % 3];
        *x -= *y;
        *x -= *z;
        *x ^= steps[i].right ? (*z >> steps[i].shift) : (*z << steps[i].shift);
    }
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
    c += (uint64_t)len;
    for (size_t i = 0; i < left; i++) {
        uint64_t byte = k[i];
        if (i < 8)
            a += byte << (8 * i);
        else if (i < 16)
            b += byte << (8 * (i - 8));
        else
            c += byte << (8 * (i - 15));
    }
    mix3(&a, &b, &c);
    return c;
}
