/* Byte-order helpers: swapping and unaligned little-endian loads. */
#ifndef IOLENS_COMMON_BYTEORDER_H
#define IOLENS_COMMON_BYTEORDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t iol_bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t iol_bswap64(uint64_t v) { return __builtin_bswap64(v); }

/* Swap every 8-byte word of buf in place; buf need not be aligned. */
static inline void iol_bswap64_words(void *buf, size_t nwords)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < nwords; i++, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w = iol_bswap64(w);
        memcpy(p, &w, 8);
    }
}

/* Load a little-endian 64-bit value from an unaligned address. */
static inline uint64_t iol_load_le64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = iol_bswap64(v);
#endif
    return v;
}

#endif
