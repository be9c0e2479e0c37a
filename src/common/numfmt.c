/* Integer and "%f" formatting without printf's format parsing. The double path
 * is exact: it works on the double's binary value with 128-bit integers, the
 * same decimal value and rounding printf computes; values outside that fast
 * range fall back to snprintf. */
#include "numfmt.h"

#include <stdio.h>
#include <string.h>

size_t iol_fmt_u64(char *out, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t iol_fmt_i64(char *out, int64_t v)
{
    if (v < 0) {
        out[0] = '-';
        return 1 + iol_fmt_u64(out + 1, (uint64_t)0 - (uint64_t)v);
    }
    return iol_fmt_u64(out, (uint64_t)v);
}

/* Decimal digits of a 128-bit value. */
static size_t fmt_u128(char *out, unsigned __int128 v)
{
    char tmp[40];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t iol_fmt_f6(char *out, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    int neg = (int)(bits >> 63);
    int exp = (int)((bits >> 52) & 0x7ff);
    uint64_t mant = bits & ((1ULL << 52) - 1);

    /* Value = mant * 2^shift exactly; micro = value * 10^6. */
    if (exp == 0x7ff || exp > 1023 + 52 + 8)
        return (size_t)snprintf(out, IOL_NUMFMT_MAX, "%f", v);
    int shift;
    if (exp == 0) {
        shift = -1074;
    } else {
        mant |= 1ULL << 52;
        shift = exp - 1075;
    }
    unsigned __int128 micro;
    if (shift >= 0) {
        micro = ((unsigned __int128)mant << shift) * 1000000u;
    } else {
        int k = -shift;
        unsigned __int128 scaled = (unsigned __int128)mant * 1000000u; /* < 2^73 */
        if (k >= 120) {
            micro = 0; /* below 2^-47: rounds to 0 at six decimals */
        } else {
            unsigned __int128 q = scaled >> k;
            unsigned __int128 rem = scaled - (q << k);
            unsigned __int128 half = (unsigned __int128)1 << (k - 1);
            if (rem > half || (rem == half && (q & 1)))
                q++;
            micro = q;
        }
    }

    size_t n = 0;
    if (neg)
        out[n++] = '-';
    n += fmt_u128(out + n, micro / 1000000u);
    out[n++] = '.';
    unsigned frac = (unsigned)(micro % 1000000u);
    for (int i = 5; i >= 0; i--) {
        out[n + (size_t)i] = (char)('0' + frac % 10);
        frac /= 10;
    }
    return n + 6;
}
