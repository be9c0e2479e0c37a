/* Streaming compression of log regions. Each region is one complete stream
 * (zlib, bzip2 or zstd frame, or raw bytes), written right after the previous
 * region; the compressor is reset between regions, as Darshan's writer does.
 * Each method's compressor and settings are its codec's (codec.h).
 *
 * Input is gathered IOL_REGION_GATHER bytes at a time and compressed as it
 * comes: the compressor sees large blocks rather than one call per record, and
 * a region takes no more memory for being large. A zlib region of
 * IOL_REGION_PAR_MIN bytes or more, when more than one thread is allowed, is
 * cut into one stream per IOL_REGION_CHUNK of input, compressed by a pool of
 * threads (region_par.c) and written in order; a large region of module
 * records also gets a search tuned to them (iol_par_tune). One known to be
 * large (iol_rw_begin's expect) goes to the pool from its first byte; one of
 * unknown size ends its first stream at IOL_REGION_PAR_MIN bytes and goes on
 * there. A region that fits in the gathering buffer, or is expected to be
 * small, gets a zlib window and memory sized to it (codec_zlib.c). */
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

/* Before a stream's first bytes go to the compressor (n of them at most;
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

void iol_rw_begin(struct iol_region_writer *rw, int records, uint64_t expect)
{
    rw->start = rw->pos + rw->out_len;
    rw->in_len = 0;
    rw->region_in = 0;
    rw->region_par = 0;
    rw->region_ready = 0;
    rw->region_records = records;
    rw->region_expect = expect;
}

/* Feed the compressor what it takes of *avail bytes at *in, as far as the
 * output buffer allows; finish ends the stream.
 * @return IOLENS_OK, IOLENS_END once a finishing stream is complete, or an error. */
static iolens_status step(struct iol_region_writer *rw, const unsigned char **in, size_t *avail,
                          int finish)
{
    struct iol_codec_buf b = {*in, 0, *avail, rw->out, rw->out_len, rw->out_cap};
    iolens_status st = rw->codec->enc_step(rw->stream, &b, finish);

    if (b.in_pos) /* the finishing step's in is NULL: no offset on it */
        *in += b.in_pos;
    *avail -= b.in_pos;
    rw->out_len = b.out_pos;
    return st;
}

/* Compress the gathered input into the open stream, setting it up first
 * (sized to the expected bytes, when known). */
static iolens_status feed_in(struct iol_region_writer *rw)
{
    const unsigned char *p = rw->in;
    size_t n = rw->in_len;
    iolens_status st = IOLENS_OK;

    if (!rw->region_ready &&
        (st = region_setup(rw, rw->region_expect ? rw->region_expect : SIZE_MAX)) != IOLENS_OK)
        return st;
    while (n > 0 && st == IOLENS_OK) {
        st = make_room(rw);
        if (st == IOLENS_OK)
            st = step(rw, &p, &n, 0);
    }
    rw->in_len = 0;
    return st;
}

/* End the open stream: what is gathered and the stream's end. A stream not
 * set up yet holds just the gathered input, and is sized to it. */
static iolens_status end_stream(struct iol_region_writer *rw)
{
    const unsigned char *none = NULL;
    size_t zero = 0;
    iolens_status st = IOLENS_OK;

    if (!rw->region_ready && (st = region_setup(rw, rw->in_len)) != IOLENS_OK)
        return st;
    if ((st = feed_in(rw)) != IOLENS_OK)
        return st;
    rw->region_ready = 0;
    while (st == IOLENS_OK) {
        if ((st = make_room(rw)) != IOLENS_OK)
            return st;
        st = step(rw, &none, &zero, 1);
        if (st == IOLENS_END)
            return IOLENS_OK;
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

/* Hand the gathered chunk to the pool as its own stream, taking back a free
 * buffer of IOL_REGION_CHUNK bytes. */
static iolens_status submit(struct iol_region_writer *rw)
{
    iolens_status st = iol_par_submit(rw->par, &rw->in, rw->in_len, rw->region_records);
    rw->in_len = 0;
    rw->in_cap = rw->in ? IOL_REGION_CHUNK : 0;
    return st;
}

/* The open region may go on in parallel: a zlib region with more than one
 * thread allowed, expected (or found) to be large. */
static int wants_pool(const struct iol_region_writer *rw, uint64_t size)
{
    return rw->codec->parallel && rw->threads != 1 && size >= IOL_REGION_PAR_MIN;
}

/* Go on with the open region on the pool, starting it if need be. The
 * one-stream compressor is not needed while the pool runs: its memory is
 * given back. @return IOLENS_OK (with no thread to be had, the region stays
 * one stream, here) or IOLENS_ERR_NOMEM. */
static iolens_status start_pool(struct iol_region_writer *rw)
{
    if (rw->threads == 0)
        rw->threads = iol_par_auto_threads();
    if (rw->threads > 1 && !rw->par &&
        iol_par_create(rw->threads, IOL_REGION_CHUNK, emit_stream, rw, &rw->par) != IOLENS_OK)
        rw->threads = 1;
    if (!rw->par)
        return IOLENS_OK;
    rw->region_par = 1;
    free_stream(rw);
    iolens_status st = rw->codec->enc_new(&rw->stream);
    if (st == IOLENS_OK && rw->in_cap < IOL_REGION_CHUNK)
        st = resize_in(rw, IOL_REGION_CHUNK);
    return st;
}

/* The input buffer is full: compress it. */
static iolens_status in_full(struct iol_region_writer *rw)
{
    iolens_status st;

    if (rw->region_par)
        return submit(rw);
    if ((st = feed_in(rw)) != IOLENS_OK)
        return st;
    /* Not known to be large, and it is: what came is one stream, the rest
     * goes to the pool. */
    if (!rw->region_expect && wants_pool(rw, rw->region_in) &&
        (st = end_stream(rw)) == IOLENS_OK)
        st = start_pool(rw);
    return st;
}

/* Bytes of input gathered before they are compressed. */
static size_t in_size(const struct iol_region_writer *rw)
{
    return rw->region_par ? IOL_REGION_CHUNK : IOL_REGION_GATHER;
}

iolens_status iol_rw_write(struct iol_region_writer *rw, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    iolens_status st = IOLENS_OK;

    if (rw->region_in == 0 && n > 0 && wants_pool(rw, rw->region_expect) &&
        (st = start_pool(rw)) != IOLENS_OK)
        return st;
    while (n > 0 && st == IOLENS_OK) {
        size_t size = in_size(rw);
        if (rw->in_cap < size && (st = resize_in(rw, size)) != IOLENS_OK)
            return st;
        size_t k = size - rw->in_len;
        if (k > n)
            k = n;
        memcpy(rw->in + rw->in_len, p, k);
        rw->in_len += k;
        rw->region_in += k;
        p += k;
        n -= k;
        if (rw->in_len == size)
            st = in_full(rw);
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
    } else if (rw->region_ready || rw->in_len || rw->region_in == 0) {
        st = end_stream(rw); /* (nothing left when a stream just ended) */
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
