/* Unit tests of the region reader: many concatenated compressed streams, whose
 * ends fall at every position relative to the reader's input chunks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "format/region.h"

#define NSTREAMS 4000

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Write NSTREAMS zlib streams of random sizes to a temporary file; keep the
 * expected decompressed bytes. */
static int write_streams(unsigned char **expect, size_t *expect_len, size_t *file_len)
{
    char path[] = "/tmp/iolens-region-XXXXXX";
    int fd = mkstemp(path);
    uint64_t seed = 12345;
    size_t cap = (size_t)NSTREAMS * 1200, n = 0, off = 0;
    unsigned char *plain = malloc(cap), comp[4096];
    assert_true(fd >= 0 && plain);
    unlink(path);
    for (int i = 0; i < NSTREAMS; i++) {
        size_t len = next_random(&seed) % 1100;
        for (size_t j = 0; j < len; j++)
            plain[n + j] = (unsigned char)(next_random(&seed) % (i % 7 == 0 ? 256 : 4));
        uLongf clen = sizeof(comp);
        assert_int_equal(compress(comp, &clen, plain + n, len), Z_OK);
        assert_int_equal(pwrite(fd, comp, clen, (off_t)off), (ssize_t)clen);
        off += clen;
        n += len;
    }
    *expect = plain;
    *expect_len = n;
    *file_len = off;
    return fd;
}

static void concatenated_zlib_streams(void **state)
{
    (void)state;
    unsigned char *expect;
    size_t expect_len, file_len;
    int fd = write_streams(&expect, &expect_len, &file_len);
    struct iolens_region_map map = {0, file_len};

    /* Read in odd-sized pieces, directly and through the prefetch thread. */
    for (int threaded = 0; threaded < 2; threaded++) {
        struct iolens_region rg;
        unsigned char *got = malloc(expect_len + 1);
        size_t have = 0, piece = 1;
        assert_int_equal(iol_region_begin(&rg, fd, IOLENS_COMP_ZLIB, map), IOLENS_OK);
        if (threaded)
            iol_prefetch_start(&rg);
        for (;;) {
            size_t n = 0;
            piece = piece * 7 % 997 + 1;
            assert_int_equal(iol_region_read(&rg, got + have, piece, &n), IOLENS_OK);
            have += n;
            if (n < piece)
                break;
            assert_true(have <= expect_len);
        }
        assert_int_equal(have, expect_len);
        assert_memory_equal(got, expect, expect_len);
        iol_region_end(&rg);
        free(got);
    }
    free(expect);
    close(fd);
}

/* A first stream whose compressed end falls on each byte around the reader's
 * 64 KiB input chunk, then a second stream: the second must still decode. */
static void stream_end_at_chunk_edges(void **state)
{
    (void)state;
    enum { DATA_MAX = 300000 };
    unsigned char *data = malloc(DATA_MAX), *comp = malloc(DATA_MAX), tail[64], tail_c[128];
    uint64_t seed = 99;
    for (size_t i = 0; i < DATA_MAX; i++)
        data[i] = (unsigned char)(next_random(&seed) % 5);
    memset(tail, 'x', sizeof(tail));
    uLongf tail_len = sizeof(tail_c);
    assert_int_equal(compress(tail_c, &tail_len, tail, sizeof(tail)), Z_OK);

    int hits = 0;
    for (size_t target = IOL_REGION_INBUF - 12; target <= IOL_REGION_INBUF + 4; target++) {
        /* Find a data length whose stream compresses to exactly target bytes. */
        size_t lo = 1000, hi = DATA_MAX, len = 0;
        uLongf clen = 0;
        while (lo <= hi) {
            size_t mid = (lo + hi) / 2;
            clen = DATA_MAX;
            assert_int_equal(compress2(comp, &clen, data, mid, 6), Z_OK);
            if (clen == target) {
                len = mid;
                break;
            }
            if (clen < target)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        if (!len)
            continue;
        hits++;
        char path[] = "/tmp/iolens-edge-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        unlink(path);
        assert_int_equal(pwrite(fd, comp, clen, 0), (ssize_t)clen);
        assert_int_equal(pwrite(fd, tail_c, tail_len, (off_t)clen), (ssize_t)tail_len);
        struct iolens_region rg;
        struct iolens_region_map map = {0, clen + tail_len};
        unsigned char *out = malloc(len + sizeof(tail) + 1);
        size_t got = 0;
        assert_int_equal(iol_region_begin(&rg, fd, IOLENS_COMP_ZLIB, map), IOLENS_OK);
        assert_int_equal(iol_region_read(&rg, out, len + sizeof(tail) + 1, &got), IOLENS_OK);
        assert_int_equal(got, len + sizeof(tail));
        assert_memory_equal(out, data, len);
        assert_memory_equal(out + len, tail, sizeof(tail));
        iol_region_end(&rg);
        free(out);
        close(fd);
    }
    assert_true(hits >= 8);
    free(data);
    free(comp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concatenated_zlib_streams),
        cmocka_unit_test(stream_end_at_chunk_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
