/* Adler-32: s1 = 1 + sum of bytes, s2 = sum of the successive s1 values, both
 * mod 65521. Over a block of n bytes b[0..n-1] starting from (s1, s2):
 *   s1' = s1 + sum b[i],   s2' = s2 + n*s1 + sum (n - i) * b[i].
 * The AVX2 path computes those sums 32 bytes at a time; blocks are short
 * enough that 32-bit lanes cannot overflow before the modulo. */
#include "adler32.h"

#define ADLER_MOD 65521u
/* Most bytes before s2 could overflow 32 bits in the scalar loop (zlib's NMAX). */
#define ADLER_NMAX 5552

static uint32_t adler_scalar(uint32_t s1, uint32_t s2, const unsigned char *p, size_t len)
{
    while (len > 0) {
        size_t n = len < ADLER_NMAX ? len : ADLER_NMAX;
        len -= n;
        while (n--) {
            s1 += *p++;
            s2 += s1;
        }
        s1 %= ADLER_MOD;
        s2 %= ADLER_MOD;
    }
    return (s2 << 16) | s1;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

/* AVX2 usable: the CPU has it and the kernel saves the YMM registers
 * (CPUID.1:ECX OSXSAVE and AVX, XCR0 bits 1-2, CPUID.7.0:EBX AVX2). Asked
 * here rather than with __builtin_cpu_supports, whose libgcc constructor
 * (__cpu_indicator_init) would probe the CPU at the start of every program
 * that loads the library, instrumented ones included: CPUID traps to the
 * hypervisor on a VM. */
static int detect_avx2(void)
{
    unsigned a, b, c, d, xlo, xhi;
    if (__get_cpuid_max(0, NULL) < 7 || !__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if ((c & (bit_OSXSAVE | bit_AVX)) != (bit_OSXSAVE | bit_AVX))
        return 0;
    __asm__("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    if ((xlo & 6) != 6)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_AVX2) != 0;
}

/* detect_avx2(), asked once (threads racing here store the same answer). */
static int have_avx2(void)
{
    static int known; /* 0: not asked yet, 1: no, 2: yes */
    int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (k == 0) {
        k = detect_avx2() ? 2 : 1;
        __atomic_store_n(&known, k, __ATOMIC_RELAXED);
    }
    return k == 2;
}

/* Sum of the eight 32-bit lanes. */
__attribute__((target("avx2"))) static uint32_t hsum32(__m256i v)
{
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

/* Blocks of at most this many 32-byte vectors keep every 32-bit lane small:
 * a byte-sum lane grows by at most 8*255 per vector, so the running sum of
 * those (vs1_acc) stays below 172*172*2040, about 6.1e7. */
#define AVX_BLOCK_VECS 172

__attribute__((target("avx2"))) static uint32_t adler_avx2(uint32_t s1, uint32_t s2,
                                                           const unsigned char *p, size_t len)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i ones = _mm256_set1_epi16(1);
    const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21,
                                             20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8,
                                             7, 6, 5, 4, 3, 2, 1);
    while (len >= 32) {
        size_t vecs = len / 32;
        if (vecs > AVX_BLOCK_VECS)
            vecs = AVX_BLOCK_VECS;
        __m256i vs1 = zero;     /* byte sums (in 64-bit halves of lanes) */
        __m256i vs1_acc = zero; /* sum of vs1 before each vector: times 32 later */
        __m256i vs2 = zero;     /* weighted sums */
        for (size_t i = 0; i < vecs; i++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * i));
            vs1_acc = _mm256_add_epi32(vs1_acc, vs1);
            vs1 = _mm256_add_epi32(vs1, _mm256_sad_epu8(v, zero));
            vs2 = _mm256_add_epi32(vs2, _mm256_madd_epi16(_mm256_maddubs_epi16(v, weights), ones));
        }
        size_t n = 32 * vecs;
        uint64_t t2 = (uint64_t)s2 + (uint64_t)n * s1 + 32ull * hsum32(vs1_acc) + hsum32(vs2);
        uint64_t t1 = (uint64_t)s1 + hsum32(vs1);
        s1 = (uint32_t)(t1 % ADLER_MOD);
        s2 = (uint32_t)(t2 % ADLER_MOD);
        p += n;
        len -= n;
    }
    return adler_scalar(s1, s2, p, len);
}
#endif

uint32_t iol_adler32(uint32_t adler, const unsigned char *buf, size_t len)
{
    uint32_t s1 = adler & 0xffff, s2 = adler >> 16;
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx2())
        return adler_avx2(s1, s2, buf, len);
#endif
    return adler_scalar(s1, s2, buf, len);
}
