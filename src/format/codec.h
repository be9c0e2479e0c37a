/* The compression methods of log regions, one table (internal to the log
 * library). Each method is one file (codec_zlib.c, codec_bzip2.c,
 * codec_zstd.c, codec_none.c) defining one descriptor; iol_codec() finds it by
 * the compression number a log's header holds. The reader (region.c) and the
 * writer (region_write.c) only go through the descriptor, one indirect call
 * per buffer. The runtime's copy of the library (IOLENS_ZLIB_ONLY, see
 * CMakeLists.txt) holds zlib and none only. */
#ifndef IOLENS_FORMAT_CODEC_H
#define IOLENS_FORMAT_CODEC_H

#include <stddef.h>

#include "iolens/log.h"

/* The buffers of one step (as zstd's ZSTD_inBuffer and ZSTD_outBuffer): a step
 * reads in[in_pos..in_len), writes out[out_pos..out_cap) and moves both
 * positions on. Bytes before in_pos stay readable: zlib's decoder checks a
 * stream's trailer once it has consumed it. */
struct iol_codec_buf {
    const unsigned char *in;
    size_t in_pos, in_len;
    unsigned char *out;
    size_t out_pos, out_cap;
};

/* One compression method. A state is what dec_new or enc_new made (NULL for
 * none); dec_free and enc_free are called only on a non-NULL state. On an
 * error return a state may be given no more input, only freed. */
struct iol_codec {
    /* Make a decoder ready for a stream in *state (left NULL on failure).
     * @return IOLENS_OK or IOLENS_ERR_NOMEM. */
    iolens_status (*dec_new)(void **state);
    /* Decompress from b->in into b->out as far as they allow. At a stream's
     * end the decoder checks it and is made ready for the next stream.
     * @return IOLENS_OK, IOLENS_END when a stream ended, IOLENS_ERR_CORRUPT or
     * IOLENS_ERR_NOMEM. */
    iolens_status (*dec_step)(void *state, struct iol_codec_buf *b);
    void (*dec_free)(void *state);

    /* Make an encoder in *state (left NULL on failure).
     * @return IOLENS_OK, IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION. */
    iolens_status (*enc_new)(void **state);
    /* Before a stream's first byte: set the encoder up for a stream of at most
     * n bytes (SIZE_MAX: not known) of module records (records) or other
     * bytes; a region is one stream, or several (region_write.c). NULL: a finished stream leaves it ready.
     * @return IOLENS_OK, IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION. */
    iolens_status (*enc_start)(void *state, size_t n, int records);
    /* Compress from b->in into b->out as far as they allow; finish: end the
     * stream once all of b->in is taken.
     * @return IOLENS_OK, IOLENS_END once a finishing stream is complete (the
     * next one needs enc_start), IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION. */
    iolens_status (*enc_step)(void *state, struct iol_codec_buf *b, int finish);
    void (*enc_free)(void *state);

    /* A large region may be cut into one stream per chunk, compressed on
     * several threads (region_par.h; zlib only). */
    int parallel;
};

extern const struct iol_codec iol_codec_zlib;
extern const struct iol_codec iol_codec_none;
#ifndef IOLENS_ZLIB_ONLY
extern const struct iol_codec iol_codec_bzip2;
extern const struct iol_codec iol_codec_zstd;
#endif

/* The codec of compression comp.
 * @return its descriptor, or NULL if this build has none for comp (the
 * callers then fail with IOLENS_ERR_COMPRESSION). */
const struct iol_codec *iol_codec(iolens_compression comp);

#endif
