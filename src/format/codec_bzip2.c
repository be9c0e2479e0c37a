/* bzip2 regions (compression type 1), written with Darshan's settings: block
 * size 9 and work factor 30. bzip2 cannot reset a stream, so both directions
 * end the finished one and start a fresh one in its place. Not in the
 * runtime's copy of the library (IOLENS_ZLIB_ONLY). */
#include <bzlib.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"

#define BZ_BLOCK_SIZE 9
#define BZ_WORK_FACTOR 30

static iolens_status bzip2_dec_new(void **state)
{
    bz_stream *bz = calloc(1, sizeof(*bz));

    *state = NULL;
    if (!bz || BZ2_bzDecompressInit(bz, 0, 0) != BZ_OK) {
        free(bz);
        return IOLENS_ERR_NOMEM;
    }
    *state = bz;
    return IOLENS_OK;
}

static iolens_status bzip2_dec_step(void *state, struct iol_codec_buf *b)
{
    bz_stream *bz = state;
    size_t avail = b->in_len - b->in_pos, room = b->out_cap - b->out_pos;

    bz->next_in = (char *)b->in + b->in_pos;
    bz->avail_in = (unsigned)avail;
    bz->next_out = (char *)b->out + b->out_pos;
    bz->avail_out = (unsigned)room;
    int rc = BZ2_bzDecompress(bz);
    b->in_pos += avail - bz->avail_in;
    b->out_pos += room - bz->avail_out;
    if (rc == BZ_STREAM_END) {
        BZ2_bzDecompressEnd(bz);
        memset(bz, 0, sizeof(*bz));
        return BZ2_bzDecompressInit(bz, 0, 0) == BZ_OK ? IOLENS_END : IOLENS_ERR_NOMEM;
    }
    return rc == BZ_OK ? IOLENS_OK : IOLENS_ERR_CORRUPT;
}

static void bzip2_dec_free(void *state)
{
    BZ2_bzDecompressEnd(state);
    free(state);
}

static iolens_status bzip2_enc_new(void **state)
{
    bz_stream *bz = calloc(1, sizeof(*bz));

    *state = NULL;
    if (!bz || BZ2_bzCompressInit(bz, BZ_BLOCK_SIZE, 0, BZ_WORK_FACTOR) != BZ_OK) {
        free(bz);
        return IOLENS_ERR_NOMEM;
    }
    *state = bz;
    return IOLENS_OK;
}

static iolens_status bzip2_enc_step(void *state, struct iol_codec_buf *b, int finish)
{
    bz_stream *bz = state;
    size_t avail = b->in_len - b->in_pos, room = b->out_cap - b->out_pos;

    bz->next_in = (char *)b->in + b->in_pos;
    bz->avail_in = (unsigned)avail;
    bz->next_out = (char *)b->out + b->out_pos;
    bz->avail_out = (unsigned)room;
    int rc = BZ2_bzCompress(bz, finish ? BZ_FINISH : BZ_RUN);
    b->in_pos += avail - bz->avail_in;
    b->out_pos += room - bz->avail_out;
    if (rc == BZ_STREAM_END) {
        BZ2_bzCompressEnd(bz);
        memset(bz, 0, sizeof(*bz));
        if (BZ2_bzCompressInit(bz, BZ_BLOCK_SIZE, 0, BZ_WORK_FACTOR) != BZ_OK)
            return IOLENS_ERR_NOMEM;
        return IOLENS_END;
    }
    return rc == BZ_RUN_OK || rc == BZ_FINISH_OK ? IOLENS_OK : IOLENS_ERR_COMPRESSION;
}

static void bzip2_enc_free(void *state)
{
    BZ2_bzCompressEnd(state);
    free(state);
}

const struct iol_codec iol_codec_bzip2 = {
    .dec_new = bzip2_dec_new,
    .dec_step = bzip2_dec_step,
    .dec_free = bzip2_dec_free,
    .enc_new = bzip2_enc_new,
    .enc_step = bzip2_enc_step,
    .enc_free = bzip2_enc_free,
};
