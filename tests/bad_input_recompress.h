/* Test helper: rewrite a Darshan-format log image held in memory with every
 * region re-encoded in another compression, so bad-input tests and fuzz seeds
 * reach the parsers behind bzip2, zstd and uncompressed regions too. It reads
 * the header on its own (not through the library under test). */
#ifndef IOLENS_TESTS_BAD_INPUT_RECOMPRESS_H
#define IOLENS_TESTS_BAD_INPUT_RECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Header facts of a log image, as stored (slots in the log's own numbering). */
struct bi_header {
    char version[8];   /* as stored, not NUL-terminated */
    uint64_t partial;  /* partial flags */
    int wide;          /* 3.41 layout: 64 slots, 64-bit partial flags */
    int swap;          /* log byte order differs from the host's */
    int comp;          /* compression byte */
    size_t size;       /* header bytes */
    int nslots;
    uint64_t name_off, name_len;
    uint64_t mod_off[64], mod_len[64];
    uint32_t mod_ver[64];
    uint64_t job_off, job_len; /* from the header's end to the next region */
};

/* Parse the header of a log image. @return 0, or -1 if it is not one. */
int bi_read_header(const unsigned char *img, size_t len, struct bi_header *h);

/* Decompress one region (one or more concatenated streams of compression comp).
 * @return 0 with *out (malloc'd) and *out_len, or -1. */
int bi_decompress(int comp, const unsigned char *in, size_t len, unsigned char **out,
                  size_t *out_len);

/* Compress bytes as one stream of compression comp (0 zlib, 1 bzip2, 2 none, 3 zstd).
 * @return 0 with *out (malloc'd) and *out_len, or -1. */
int bi_compress(int comp, const unsigned char *in, size_t len, unsigned char **out,
                size_t *out_len);

/* Rewrite a whole log image with every region recompressed as comp.
 * @return 0 with *out (malloc'd) and *out_len, or -1. */
int bi_recompress(const unsigned char *img, size_t len, int comp, unsigned char **out,
                  size_t *out_len);

/* Build a log image from a header (only its version, wide, swap, partial and
 * mod_ver fields are used) and decompressed
 * regions: job, names, and one per slot (NULL/0 for none), compressed as comp.
 * @return 0 with *out (malloc'd) and *out_len, or -1. */
int bi_build(const struct bi_header *h, int comp, const unsigned char *job, size_t job_len,
             const unsigned char *names, size_t names_len, unsigned char *const mods[64],
             const size_t mod_lens[64], unsigned char **out, size_t *out_len);

#endif
