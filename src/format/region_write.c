/* Streaming compression of log regions. Each region is one complete stream
 * (zlib, bzip2 or zstd frame, or raw bytes), written right after the previous
 * region; the compressor is reset between regions, as Darshan's writer does.
 * Each method's compressor and settings are its codec's (codec.h).
 *
 * Input is gathered in chunks (IOL_REGION_CHUNK bytes, or
 * IOL_REGION_NAME_CHUNK for zlib names), so the compressor sees large blocks
 * rather than one call per record. A zlib region that fills
 * a chunk is large: when more than one thread is allowed, it is cut into one
 * stream per chunk, compressed by a pool of threads (region_par.c) and
 * written in order; a large region of module records also gets a search
 * tuned to them (iol_par_tune). A region smaller than one chunk is one stream
 * at zlib's default level, on the calling thread, with a window and memory
 * sized to it (codec_zlib.c). */
#include "region_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "region_par.h"
#include "sysio.h"

static iolens_status flush_out(struct iol_region_writer *rw)
{
    size_t done = 0;
    while (done < rw->out_len) {
        ssize_t n = iol_io_pwrite(rw->fd, rw->out + done, rw->out_len - done,
                           (off_t)(rw->pos + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return IOLENS_ERR_IO;
        done += (size_t)n;
    }
    rw->pos += rw->out_len;
    rw->out_len = 0;
    return IOLENS_OK;
}

/* Room left in the output buffer, flushing it first when full. */
static iolens_status make_room(struct iol_region_writer *rw)
{
    return rw->out_len == rw->out_cap ? flush_out(rw) : IOLENS_OK;
}

/* Before a region's first bytes go to the compressor (n of them in all;
 * SIZE_MAX: not known): an output buffer sized to them, and the codec's
 * enc_start. */
static iolens_status region_setup(struct iol_region_writer *rw, size_t n)
{
    size_t cap = IOL_REGION_OUTBUF;
    iolens_status st;

    if (rw->out_len && (st = flush_out(rw)) != IOLENS_OK)
        return st;
    if (n < IOL_REGION_OUTBUF / 2) /* zlib's bound is n + n / 1000 + a few bytes */
        cap = (n + n / 8 + 4096) & ~(size_t)4095;
    if (rw->out_cap < cap) {
        free(rw->out);
        rw->out_cap = 0;
        if (!(rw->out = malloc(cap)))
            return IOLENS_ERR_NOMEM;
        rw->out_cap = cap;
    }
    if (rw->codec->enc_start &&
        (st = rw->codec->enc_start(rw->stream, n, rw->region_records)) != IOLENS_OK)
        return st;
    rw->region_ready = 1;
    return IOLENS_OK;
}

static void free_stream(struct iol_region_writer *rw)
{
    if (rw->stream)
        rw->codec->enc_free(rw->stream);
    rw->stream = NULL;
}

iolens_status iol_rw_init(struct iol_region_writer *rw, int fd, iolens_compression comp,
                          uint64_t pos)
{
    memset(rw, 0, sizeof(*rw));
    rw->fd = fd;
    rw->pos = pos;
    rw->threads = 0; /* as many as the CPUs: asked at the first large region */
    rw->codec = iol_codec(comp);
    if (!rw->codec)
        return IOLENS_ERR_COMPRESSION;
    return rw->codec->enc_new(&rw->stream);
}

void iol_rw_set_threads(struct iol_region_writer *rw, int n)
{
    if (n < 0)
        n = 0;
    rw->threads = n > IOL_PAR_MAX_THREADS ? IOL_PAR_MAX_THREADS : n;
}

void iol_rw_begin(struct iol_region_writer *rw, int records)
{
    rw->start = rw->pos + rw->out_len;
    rw->in_len = 0;
    rw->region_in = 0;
    rw->region_par = 0;
    rw->region_ready = 0;
    rw->region_records = records;
}

/* Feed at most CHUNK_MAX bytes to the compressor; finish ends the stream.
 * @return IOLENS_OK, IOLENS_END once a finishing stream is complete, or an error. */
static iolens_status step(struct iol_region_writer *rw, const unsigned char **in, size_t *avail,
                          int finish)
{
    struct iol_codec_buf b = {*in, 0, *avail, rw->out, rw->out_len, rw->out_cap};
    iolens_status st = rw->codec->enc_step(rw->stream, &b, finish);

    *in += b.in_pos;
    *avail -= b.in_pos;
    rw->out_len = b.out_pos;
    return st;
}

/* Compress n bytes into the open stream (at most IOL_REGION_CHUNK at once:
 * zlib and bzip2 count input in 32 bits). */
static iolens_status feed(struct iol_region_writer *rw, const unsigned char *p, size_t n)
{
    iolens_status st = IOLENS_OK;
    while (n > 0 && st == IOLENS_OK) {
        st = make_room(rw);
        if (st == IOLENS_OK)
            st = step(rw, &p, &n, 0);
    }
    return st;
}

/* The pool's output: one complete stream, written where the region goes on. */
static iolens_status emit_stream(void *arg, const void *data, size_t len)
{
    struct iol_region_writer *rw = arg;
    const unsigned char *p = data;
    iolens_status st = flush_out(rw); /* nothing pending, normally */

    for (size_t done = 0; st == IOLENS_OK && done < len;) {
        ssize_t n = iol_io_pwrite(rw->fd, p + done, len - done, (off_t)(rw->pos + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return IOLENS_ERR_IO;
        done += (size_t)n;
    }
    if (st == IOLENS_OK)
        rw->pos += len;
    return st;
}

/* Make the input buffer cap bytes, keeping what it holds. */
static iolens_status resize_in(struct iol_region_writer *rw, size_t cap)
{
    unsigned char *in = realloc(rw->in, cap);
    if (!in)
        return IOLENS_ERR_NOMEM;
    rw->in = in;
    rw->in_cap = cap;
    return IOLENS_OK;
}

/* Hand the gathered chunk to the pool as its own stream. The pool's buffers
 * are whole IOL_REGION_CHUNK ones, which a chunk of names may not have filled. */
static iolens_status submit(struct iol_region_writer *rw)
{
    iolens_status st;
    if (rw->in_cap < IOL_REGION_CHUNK && (st = resize_in(rw, IOL_REGION_CHUNK)) != IOLENS_OK)
        return st;
    st = iol_par_submit(rw->par, &rw->in, rw->in_len, rw->region_records);
    rw->in_len = 0;
    rw->in_cap = rw->in ? IOL_REGION_CHUNK : 0;
    return st;
}

/* The chunk buffer is full: compress it. The first full chunk of a zlib
 * region decides how the region is written (see the top of this file). */
static iolens_status chunk_full(struct iol_region_writer *rw)
{
    iolens_status st;
    int first = rw->region_in == rw->in_len;

    if (rw->region_par)
        return submit(rw);
    if (first && rw->codec->parallel) {
        if (rw->threads == 0)
            rw->threads = iol_par_auto_threads();
        if (rw->threads > 1 && !rw->par &&
            iol_par_create(rw->threads, IOL_REGION_CHUNK, emit_stream, rw, &rw->par) != IOLENS_OK)
            rw->threads = 1; /* no thread to be had: one stream, here */
        if (rw->par) {
            rw->region_par = 1;
            return submit(rw);
        }
    }
    if (!rw->region_ready && (st = region_setup(rw, SIZE_MAX)) != IOLENS_OK)
        return st;
    st = feed(rw, rw->in, rw->in_len);
    rw->in_len = 0;
    return st;
}

/* Bytes of input that make a chunk of the open region. */
static size_t region_chunk(const struct iol_region_writer *rw)
{
    if (rw->codec->parallel && !rw->region_records)
        return IOL_REGION_NAME_CHUNK;
    return IOL_REGION_CHUNK;
}

/* Double the input buffer, up to one chunk: small logs never map a whole chunk. */
static iolens_status grow_in(struct iol_region_writer *rw)
{
    size_t cap = rw->in_cap ? 2 * rw->in_cap : IOL_REGION_IN_FIRST;
    return resize_in(rw, cap < IOL_REGION_CHUNK ? cap : IOL_REGION_CHUNK);
}

iolens_status iol_rw_write(struct iol_region_writer *rw, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    iolens_status st = IOLENS_OK;
    size_t chunk = region_chunk(rw);

    while (n > 0 && st == IOLENS_OK) {
        if (rw->in_len == rw->in_cap && (st = grow_in(rw)) != IOLENS_OK)
            return st;
        size_t k = (rw->in_cap < chunk ? rw->in_cap : chunk) - rw->in_len;
        if (k > n)
            k = n;
        memcpy(rw->in + rw->in_len, p, k);
        rw->in_len += k;
        rw->region_in += k;
        p += k;
        n -= k;
        if (rw->in_len == chunk)
            st = chunk_full(rw);
    }
    return st;
}

/* End the open region's single stream. */
static iolens_status finish_stream(struct iol_region_writer *rw)
{
    const unsigned char *none = NULL;
    size_t zero = 0;
    iolens_status st = IOLENS_OK;

    /* Not set up yet: the whole region is in the input buffer. */
    if (!rw->region_ready && (st = region_setup(rw, rw->in_len)) != IOLENS_OK)
        return st;
    st = feed(rw, rw->in, rw->in_len);

    rw->in_len = 0;
    while (st == IOLENS_OK) {
        if ((st = make_room(rw)) != IOLENS_OK)
            return st;
        st = step(rw, &none, &zero, 1);
        if (st == IOLENS_END)
            return IOLENS_OK;
    }
    return st;
}

iolens_status iol_rw_finish(struct iol_region_writer *rw, struct iolens_region_map *map)
{
    iolens_status st = IOLENS_OK;

    if (rw->region_par) {
        if (rw->in_len)
            st = submit(rw);
        if (st == IOLENS_OK)
            st = iol_par_drain(rw->par);
        rw->region_par = 0;
    } else {
        st = finish_stream(rw);
    }
    if (st != IOLENS_OK || (st = flush_out(rw)) != IOLENS_OK)
        return st;
    map->off = rw->start;
    map->len = rw->pos - rw->start;
    if (map->len == 0)
        map->off = 0;
    return IOLENS_OK;
}

void iol_rw_free(struct iol_region_writer *rw)
{
    iol_par_free(rw->par);
    rw->par = NULL;
    free_stream(rw);
    free(rw->out);
    rw->out = NULL;
    rw->out_cap = 0;
    free(rw->in);
    rw->in = NULL;
    rw->in_cap = 0;
}
