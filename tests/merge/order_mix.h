/* The fold that tells one combining order from another: non-commutative and
 * non-associative, so two orders give the same value only if they combine
 * the same operands in the same shape. Rank r's operand is r + 1. */
#ifndef IOLENS_TEST_ORDER_MIX_H
#define IOLENS_TEST_ORDER_MIX_H

#include <stdint.h>

static inline uint64_t order_mix(uint64_t in, uint64_t inout)
{
    uint64_t a = in * 0x9E3779B97F4A7C15ull;
    return ((a << 17) | (a >> 47)) + inout * 0xC2B2AE3D27D4EB4Full + 1;
}

/* Message sizes probed: elements of these bytes (a variance, a STDIO, MPI-IO
 * and POSIX record), these many, so that every algorithm Open MPI 4.1 picks
 * for 2 to 8 processes comes up. */
static const int order_sizes[] = {24, 248, 560, 704};
static const int order_counts[] = {1, 2, 3, 5, 6, 10, 12, 30, 100, 400, 1000, 2000};

#endif
