/* Unit tests of src/common: the record-id hash and number formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <zlib.h>

#include "common/adler32.h"
#include "common/hash.h"
#include "common/numfmt.h"

/* Ids taken from real Darshan logs: the hash must agree with them exactly. */
static void hash_matches_darshan_ids(void **state)
{
    (void)state;
    const char *name = "/home/wkliao/Darshan/TEST/mpi-io-test.tmp.dat";
    assert_int_equal(iol_hash64(name, strlen(name), 0), 9347516096890457488ULL);
    const char *name2 = "/gpfs/mira-fs0/projects/SSSPPg/snyder/tmp/mpi-io-test.tmp.dat";
    assert_int_equal(iol_hash64(name2, strlen(name2), 0), 9063791019878933741ULL);
}

/* Every tail length 0..47 goes through a different path; the seed must matter. */
static void hash_tail_lengths_and_seed(void **state)
{
    (void)state;
    char buf[48];
    uint64_t seen[48];
    for (int i = 0; i < 48; i++)
        buf[i] = (char)('a' + i % 26);
    for (size_t n = 0; n < 48; n++) {
        seen[n] = iol_hash64(buf, n, 0);
        for (size_t m = 0; m < n; m++)
            assert_true(seen[m] != seen[n]);
    }
    assert_true(iol_hash64(buf, 10, 0) != iol_hash64(buf, 10, 1));
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The hand-written "%f" must print exactly what printf prints. */
static void f6_matches_printf(void **state)
{
    (void)state;
    static const double fixed[] = {0.0, -0.0, 1e-7, -1e-7, 5e-7, 0.0000005, 1.0000005,
                                   2.5e-6, 123456.789, -1.0, 1e300, -1e300, 1e-320,
                                   4503599627370496.5, 0.1, 0.125, 1e15 + 0.3};
    char a[IOL_NUMFMT_MAX + 1], b[IOL_NUMFMT_MAX + 1];
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) + 200000; i++) {
        double v;
        if (i < sizeof(fixed) / sizeof(fixed[0])) {
            v = fixed[i];
        } else {
            uint64_t r = next_random(&s);
            if (i % 2) {
                memcpy(&v, &r, 8);
            } else {
                v = (double)(r % 100000000) / 1e6;
            }
        }
        a[iol_fmt_f6(a, v)] = '\0';
        snprintf(b, sizeof(b), "%f", v);
        assert_string_equal(a, b);
    }
}

static void integers_match_printf(void **state)
{
    (void)state;
    static const int64_t fixed[] = {0, -1, 1, INT64_MAX, INT64_MIN, 1000000, -999};
    char a[32], b[32];
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        a[iol_fmt_i64(a, fixed[i])] = '\0';
        snprintf(b, sizeof(b), "%lld", (long long)fixed[i]);
        assert_string_equal(a, b);
        a[iol_fmt_u64(a, (uint64_t)fixed[i])] = '\0';
        snprintf(b, sizeof(b), "%llu", (unsigned long long)fixed[i]);
        assert_string_equal(a, b);
    }
}

/* The vectorised Adler-32 must equal zlib's for every length, alignment and
 * starting value, including all-0xff data (the largest lane sums). */
static void adler32_matches_zlib(void **state)
{
    (void)state;
    enum { N = 1 << 20 };
    static unsigned char buf[N + 64];
    uint64_t s = 7;
    for (size_t i = 0; i < sizeof(buf); i++)
        buf[i] = (unsigned char)(i % 3 ? next_random(&s) : 0xff);
    for (size_t len = 0; len < 3000; len++)
        for (size_t off = 0; off < 3; off++)
            assert_int_equal(iol_adler32(1, buf + off, len), adler32(1, buf + off, (uInt)len));
    uint32_t start = adler32(1, buf, 12345);
    assert_int_equal(iol_adler32(start, buf + 5, N), adler32(start, buf + 5, N));
    memset(buf, 0xff, sizeof(buf));
    assert_int_equal(iol_adler32(1, buf, N), adler32(1, buf, N));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adler32_matches_zlib),
        cmocka_unit_test(hash_matches_darshan_ids),
        cmocka_unit_test(hash_tail_lengths_and_seed),
        cmocka_unit_test(f6_matches_printf),
        cmocka_unit_test(integers_match_printf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
