/* zlib regions (compression type 0), Darshan's default.
 *
 * Reading: zlib's own Adler-32 is a tenth of the reading time, so inflate's
 * check is turned off and the check value is computed with a vectorised one
 * (src/common/adler32.c), then compared with the stream's trailer.
 *
 * Writing: zlib's default level, as Darshan's writer. A small region gets a
 * window and memory sized to it (zlib_settings); a region of module records
 * known to be large (IOL_REGION_PAR_MIN bytes or more) gets a search tuned to
 * them (iol_par_tune), as do the pool's streams (region_par.c). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../common/adler32.h"
#include "codec.h"
#include "region_par.h"
#include "region_write.h"

struct zlib_dec {
    z_stream z;
    uint32_t adler; /* Adler-32 of the current stream's output so far */
};

static iolens_status zlib_dec_new(void **state)
{
    struct zlib_dec *d = calloc(1, sizeof(*d));

    *state = NULL;
    if (!d || inflateInit(&d->z) != Z_OK) {
        free(d);
        return IOLENS_ERR_NOMEM;
    }
    inflateValidate(&d->z, 0);
    d->adler = 1;
    *state = d;
    return IOLENS_OK;
}

static iolens_status zlib_dec_step(void *state, struct iol_codec_buf *b)
{
    struct zlib_dec *d = state;
    z_stream *z = &d->z;
    unsigned char *out = b->out + b->out_pos;
    size_t avail = b->in_len - b->in_pos, room = b->out_cap - b->out_pos;

    z->next_in = (unsigned char *)b->in + b->in_pos;
    z->avail_in = (uInt)avail;
    z->next_out = out;
    z->avail_out = (uInt)room;
    int rc = inflate(z, Z_NO_FLUSH);
    size_t made = room - z->avail_out;
    b->in_pos += avail - z->avail_in;
    b->out_pos += made;
    d->adler = iol_adler32(d->adler, out, made);
    if (rc == Z_STREAM_END) {
        /* The stream's last 4 bytes, just consumed, are its Adler-32. */
        if (b->in_pos < 4)
            return IOLENS_ERR_CORRUPT;
        const unsigned char *t = b->in + b->in_pos - 4;
        uint32_t want = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
        if (want != d->adler)
            return IOLENS_ERR_CORRUPT;
        d->adler = 1;
        inflateReset(z);
        inflateValidate(z, 0);
        return IOLENS_END;
    }
    if (rc != Z_OK && !(rc == Z_BUF_ERROR && made == 0 && avail == 0))
        return IOLENS_ERR_CORRUPT;
    return IOLENS_OK;
}

static void zlib_dec_free(void *state)
{
    struct zlib_dec *d = state;
    inflateEnd(&d->z);
    free(d);
}

/* The z_stream is made by a region's enc_start, with settings for its size. */
struct zlib_enc {
    z_stream z;
    int live;            /* z is initialised */
    int bits, mem_level; /* its windowBits and memLevel */
    int dirty;           /* z has been used since it was made or reset */
};

static iolens_status zlib_enc_new(void **state)
{
    *state = calloc(1, sizeof(struct zlib_enc));
    return *state ? IOLENS_OK : IOLENS_ERR_NOMEM;
}

/* zlib's windowBits and memLevel for a stream of at most n bytes (SIZE_MAX:
 * not known). zlib's defaults (15 and 8, Darshan's) take about 270 KiB and
 * clear a 64 KiB hash table at every reset: most of the time a small log takes
 * to write. A region known to be small gets the smallest window that
 * still reaches back to its first byte (a match is at most the window less
 * 262 bytes away) and a symbol buffer that holds it whole (one block), so it
 * loses next to nothing: the job region of a log (about 1.5 to 4 KiB) takes
 * about 50 KiB. Every reader accepts a smaller window than its own. */
static void zlib_settings(size_t n, int *bits, int *mem_level)
{
    int b = 9, m = 1; /* zlib's smallest (it turns a window of 8 bits into 9) */
    if (n >= (size_t)1 << MAX_WBITS) {
        *bits = MAX_WBITS;
        *mem_level = 8;
        return;
    }
    while (b < MAX_WBITS && ((size_t)1 << b) < n + 262)
        b++;
    while (m < 8 && ((size_t)1 << (m + 6)) <= n)
        m++;
    *bits = b;
    *mem_level = m;
}

/* A stream with zlib_settings(n): the one in use if its settings are the
 * same (reset if it was used), else a new one; records known to be many then
 * get iol_par_tune's search. */
static iolens_status zlib_enc_start(void *state, size_t n, int records)
{
    struct zlib_enc *e = state;
    int bits, mem_level;

    zlib_settings(n, &bits, &mem_level);
    if (e->live && (bits != e->bits || mem_level != e->mem_level)) {
        deflateEnd(&e->z);
        e->live = 0;
    }
    if (!e->live) {
        memset(&e->z, 0, sizeof(e->z));
        if (deflateInit2(&e->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, mem_level,
                         Z_DEFAULT_STRATEGY) != Z_OK)
            return IOLENS_ERR_NOMEM;
        e->live = 1;
        e->bits = bits;
        e->mem_level = mem_level;
    } else if (e->dirty && deflateReset(&e->z) != Z_OK) {
        return IOLENS_ERR_COMPRESSION;
    }
    e->dirty = 1;
    if (records && n != SIZE_MAX && n >= IOL_REGION_PAR_MIN && iol_par_tune(&e->z) != Z_OK)
        return IOLENS_ERR_COMPRESSION;
    return IOLENS_OK;
}

static iolens_status zlib_enc_step(void *state, struct iol_codec_buf *b, int finish)
{
    z_stream *z = &((struct zlib_enc *)state)->z;
    size_t avail = b->in_len - b->in_pos, room = b->out_cap - b->out_pos;

    /* No input yet (an empty region) is a NULL in: no offset on it. */
    z->next_in = b->in ? (unsigned char *)b->in + b->in_pos : NULL;
    z->avail_in = (uInt)avail;
    z->next_out = b->out + b->out_pos;
    z->avail_out = (uInt)room;
    int rc = deflate(z, finish ? Z_FINISH : Z_NO_FLUSH);
    b->in_pos += avail - z->avail_in;
    b->out_pos += room - z->avail_out;
    if (rc == Z_STREAM_END)
        return IOLENS_END; /* reset by the next region's zlib_enc_start */
    return rc == Z_OK || rc == Z_BUF_ERROR ? IOLENS_OK : IOLENS_ERR_COMPRESSION;
}

static void zlib_enc_free(void *state)
{
    struct zlib_enc *e = state;
    if (e->live)
        deflateEnd(&e->z);
    free(e);
}

const struct iol_codec iol_codec_zlib = {
    .dec_new = zlib_dec_new,
    .dec_step = zlib_dec_step,
    .dec_free = zlib_dec_free,
    .enc_new = zlib_enc_new,
    .enc_start = zlib_enc_start,
    .enc_step = zlib_enc_step,
    .enc_free = zlib_enc_free,
    .parallel = 1,
};
