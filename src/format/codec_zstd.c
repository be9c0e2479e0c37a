/* zstd regions (compression type 3, an iolens extension: only iolens reads
 * it), written at level 3. A zstd context starts a new frame by itself after
 * one ends. Not in the runtime's copy of the library (IOLENS_ZLIB_ONLY). */
#include <zstd.h>

#include "codec.h"

#define ZSTD_LEVEL 3

/* Largest zstd window (log2 bytes) a region may use: memory a frame header
 * can demand regardless of the file's size. */
#define IOL_ZSTD_WINDOW_LOG_MAX 23

static iolens_status zstd_dec_new(void **state)
{
    ZSTD_DStream *ds = ZSTD_createDStream();

    *state = NULL;
    if (!ds)
        return IOLENS_ERR_NOMEM;
    /* A frame header may ask for a window of up to 2^31 bytes; refuse more
     * than the levels a writer uses need (level 19: 2^23). */
    if (ZSTD_isError(ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, IOL_ZSTD_WINDOW_LOG_MAX))) {
        ZSTD_freeDStream(ds);
        return IOLENS_ERR_NOMEM;
    }
    *state = ds;
    return IOLENS_OK;
}

static iolens_status zstd_dec_step(void *state, struct iol_codec_buf *b)
{
    ZSTD_inBuffer ib = {b->in, b->in_len, b->in_pos};
    ZSTD_outBuffer ob = {b->out, b->out_cap, b->out_pos};
    size_t rc = ZSTD_decompressStream(state, &ob, &ib);

    if (ZSTD_isError(rc))
        return IOLENS_ERR_CORRUPT;
    b->in_pos = ib.pos;
    b->out_pos = ob.pos;
    return rc == 0 ? IOLENS_END : IOLENS_OK;
}

static void zstd_dec_free(void *state)
{
    ZSTD_freeDStream(state);
}

static iolens_status zstd_enc_new(void **state)
{
    ZSTD_CStream *cs = ZSTD_createCStream();

    *state = NULL;
    if (!cs)
        return IOLENS_ERR_NOMEM;
    if (ZSTD_isError(ZSTD_CCtx_setParameter(cs, ZSTD_c_compressionLevel, ZSTD_LEVEL))) {
        ZSTD_freeCStream(cs);
        return IOLENS_ERR_COMPRESSION;
    }
    *state = cs;
    return IOLENS_OK;
}

static iolens_status zstd_enc_step(void *state, struct iol_codec_buf *b, int finish)
{
    ZSTD_inBuffer ib = {b->in, b->in_len, b->in_pos};
    ZSTD_outBuffer ob = {b->out, b->out_cap, b->out_pos};
    size_t rc = ZSTD_compressStream2(state, &ob, &ib, finish ? ZSTD_e_end : ZSTD_e_continue);

    if (ZSTD_isError(rc))
        return IOLENS_ERR_COMPRESSION;
    b->in_pos = ib.pos;
    b->out_pos = ob.pos;
    return finish && rc == 0 ? IOLENS_END : IOLENS_OK;
}

static void zstd_enc_free(void *state)
{
    ZSTD_freeCStream(state);
}

const struct iol_codec iol_codec_zstd = {
    .dec_new = zstd_dec_new,
    .dec_step = zstd_dec_step,
    .dec_free = zstd_dec_free,
    .enc_new = zstd_enc_new,
    .enc_step = zstd_enc_step,
    .enc_free = zstd_enc_free,
};
