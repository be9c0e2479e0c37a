/* A record's counters seen as 8-byte words, read and written without
 * alignment or aliasing assumptions (internal to the log library). */
#ifndef IOLENS_FORMAT_WORDS_H
#define IOLENS_FORMAT_WORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Word i of the words at p, as an integer. */
static inline int64_t iol_word_i(const void *p, size_t i)
{
    int64_t v;
    memcpy(&v, (const unsigned char *)p + 8 * i, 8);
    return v;
}

/* Set word i of the words at p to integer v. */
static inline void iol_set_word_i(void *p, size_t i, int64_t v)
{
    memcpy((unsigned char *)p + 8 * i, &v, 8);
}

/* Word i of the words at p, as a double. */
static inline double iol_word_f(const void *p, size_t i)
{
    double v;
    memcpy(&v, (const unsigned char *)p + 8 * i, 8);
    return v;
}

/* Set word i of the words at p to double v. */
static inline void iol_set_word_f(void *p, size_t i, double v)
{
    memcpy((unsigned char *)p + 8 * i, &v, 8);
}

/* Two's-complement addition, without signed overflow's undefined behaviour. */
static inline int64_t iol_add_wrap(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

#endif
