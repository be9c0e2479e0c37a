/* Streaming compression of log regions. Each region is one complete stream
 * (zlib, bzip2 or zstd frame, or raw bytes), written right after the previous
 * region; the compressor is reset between regions, as Darshan's writer does.
 * Settings follow Darshan's: zlib default level, bzip2 block size 9 and work
 * factor 30.
 *
 * Input is gathered in chunks (IOL_REGION_CHUNK bytes, or
 * IOL_REGION_NAME_CHUNK for zlib names), so the compressor sees large blocks
 * rather than one call per record. A zlib region that fills
 * a chunk is large: when more than one thread is allowed, it is cut into one
 * stream per chunk, compressed by a pool of threads (region_par.c) and
 * written in order; a large region of module records also gets a search
 * tuned to them (iol_par_tune). A region smaller than one chunk is one stream
 * at zlib's default level, on the calling thread, with a window and memory
 * sized to it (zlib_settings). */
#include "region_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifndef IOLENS_ZLIB_ONLY
#include <bzlib.h>
#include <zstd.h>
#endif

#include "region_par.h"
#include "sysio.h"

#define BZ_BLOCK_SIZE 9
#define BZ_WORK_FACTOR 30
#define ZSTD_LEVEL 3

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

/* zlib's windowBits and memLevel for a region of n bytes (SIZE_MAX: not known,
 * at least a chunk). zlib's defaults (15 and 8, Darshan's) take about 270 KiB
 * and clear a 64 KiB hash table at every reset: most of the time a small log
 * takes to write. A region known to be small gets the smallest window that
 * still reaches back to its first byte (a match is at most the window less
 * 262 bytes away) and a symbol buffer that holds it whole (one block), so it
 * loses next to nothing: the job region of a log (about 1.5 to 4 KiB) takes
 * about 50 KiB. Every reader accepts a smaller window than its own. */
static void zlib_settings(size_t n, int *bits, int *mem_level)
{
    int b = 9, m = 1; /* zlib's smallest (it turns a window of 8 bits into 9) */
    if (n > IOL_REGION_CHUNK) {
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

/* Before a region's first bytes go to the compressor (n of them in all;
 * SIZE_MAX: not known): an output buffer sized to them, and a zlib stream
 * with zlib_settings(n), reset if it was used. */
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
    if (rw->comp == IOLENS_COMP_ZLIB) {
        int bits, mem_level;
        zlib_settings(n, &bits, &mem_level);
        z_stream *z = rw->stream;
        if (z && (bits != rw->zbits || mem_level != rw->zlevel)) {
            deflateEnd(z);
            free(z);
            rw->stream = z = NULL;
        }
        if (!z) {
            if (!(z = calloc(1, sizeof(*z))))
                return IOLENS_ERR_NOMEM;
            if (deflateInit2(z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, mem_level,
                             Z_DEFAULT_STRATEGY) != Z_OK) {
                free(z);
                return IOLENS_ERR_NOMEM;
            }
            rw->stream = z;
            rw->zbits = bits;
            rw->zlevel = mem_level;
        } else if (rw->zdirty && deflateReset(z) != Z_OK) {
            return IOLENS_ERR_COMPRESSION;
        }
        rw->zdirty = 1;
    }
    rw->region_ready = 1;
    return IOLENS_OK;
}

/* The compressor of bzip2 and zstd regions (zlib's is made per region size). */
static iolens_status new_stream(struct iol_region_writer *rw)
{
    switch (rw->comp) {
    case IOLENS_COMP_ZLIB:
        return IOLENS_OK;
#ifdef IOLENS_ZLIB_ONLY
    default:
        break; /* the runtime's copy (zlib only, see CMakeLists.txt) */
#else
    case IOLENS_COMP_BZIP2: {
        bz_stream *bz = calloc(1, sizeof(*bz));
        if (!bz || BZ2_bzCompressInit(bz, BZ_BLOCK_SIZE, 0, BZ_WORK_FACTOR) != BZ_OK) {
            free(bz);
            return IOLENS_ERR_NOMEM;
        }
        rw->stream = bz;
        return IOLENS_OK;
    }
    case IOLENS_COMP_ZSTD: {
        ZSTD_CStream *cs = ZSTD_createCStream();
        if (!cs)
            return IOLENS_ERR_NOMEM;
        if (ZSTD_isError(ZSTD_CCtx_setParameter(cs, ZSTD_c_compressionLevel, ZSTD_LEVEL))) {
            ZSTD_freeCStream(cs);
            return IOLENS_ERR_COMPRESSION;
        }
        rw->stream = cs;
        return IOLENS_OK;
    }
#endif
    case IOLENS_COMP_NONE:
        return IOLENS_OK;
    }
    return IOLENS_ERR_COMPRESSION;
}

static void free_stream(struct iol_region_writer *rw)
{
    if (!rw->stream)
        return;
    switch (rw->comp) {
    case IOLENS_COMP_ZLIB:
        deflateEnd(rw->stream);
        free(rw->stream);
        break;
#ifdef IOLENS_ZLIB_ONLY
    default:
        break;
#else
    case IOLENS_COMP_BZIP2:
        BZ2_bzCompressEnd(rw->stream);
        free(rw->stream);
        break;
    case IOLENS_COMP_ZSTD:
        ZSTD_freeCStream(rw->stream);
        break;
    case IOLENS_COMP_NONE:
        break;
#endif
    }
    rw->stream = NULL;
}

iolens_status iol_rw_init(struct iol_region_writer *rw, int fd, iolens_compression comp,
                          uint64_t pos)
{
    memset(rw, 0, sizeof(*rw));
    rw->fd = fd;
    rw->comp = comp;
    rw->pos = pos;
    rw->threads = 0; /* as many as the CPUs: asked at the first large region */
    return new_stream(rw);
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
    unsigned char *out = rw->out + rw->out_len;
    size_t room = rw->out_cap - rw->out_len;

    switch (rw->comp) {
    case IOLENS_COMP_NONE: {
        size_t n = *avail < room ? *avail : room;
        if (n)
            memcpy(out, *in, n);
        *in += n;
        *avail -= n;
        rw->out_len += n;
        return finish && *avail == 0 ? IOLENS_END : IOLENS_OK;
    }
    case IOLENS_COMP_ZLIB: {
        z_stream *z = rw->stream;
        z->next_in = (unsigned char *)*in;
        z->avail_in = (uInt)*avail;
        z->next_out = out;
        z->avail_out = (uInt)room;
        int rc = deflate(z, finish ? Z_FINISH : Z_NO_FLUSH);
        *in += *avail - z->avail_in;
        *avail = z->avail_in;
        rw->out_len += room - z->avail_out;
        if (rc == Z_STREAM_END)
            return IOLENS_END; /* reset by the next region's region_setup */
        return rc == Z_OK || rc == Z_BUF_ERROR ? IOLENS_OK : IOLENS_ERR_COMPRESSION;
    }
#ifdef IOLENS_ZLIB_ONLY
    default:
        break;
#else
    case IOLENS_COMP_BZIP2: {
        bz_stream *bz = rw->stream;
        bz->next_in = (char *)*in;
        bz->avail_in = (unsigned)*avail;
        bz->next_out = (char *)out;
        bz->avail_out = (unsigned)room;
        int rc = BZ2_bzCompress(bz, finish ? BZ_FINISH : BZ_RUN);
        *in += *avail - bz->avail_in;
        *avail = bz->avail_in;
        rw->out_len += room - bz->avail_out;
        if (rc == BZ_STREAM_END) {
            /* bzip2 cannot reset a compressor: start a fresh one. */
            free_stream(rw);
            return new_stream(rw) == IOLENS_OK ? IOLENS_END : IOLENS_ERR_NOMEM;
        }
        return rc == BZ_RUN_OK || rc == BZ_FINISH_OK ? IOLENS_OK : IOLENS_ERR_COMPRESSION;
    }
    case IOLENS_COMP_ZSTD: {
        ZSTD_inBuffer ib = {*in, *avail, 0};
        ZSTD_outBuffer ob = {out, room, 0};
        size_t rc = ZSTD_compressStream2(rw->stream, &ob, &ib,
                                         finish ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(rc))
            return IOLENS_ERR_COMPRESSION;
        *in += ib.pos;
        *avail -= ib.pos;
        rw->out_len += ob.pos;
        return finish && rc == 0 ? IOLENS_END : IOLENS_OK;
    }
#endif
    }
    return IOLENS_ERR_COMPRESSION;
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
    if (first && rw->comp == IOLENS_COMP_ZLIB) {
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
    if (first && rw->comp == IOLENS_COMP_ZLIB && rw->region_records &&
        iol_par_tune(rw->stream) != Z_OK)
        return IOLENS_ERR_COMPRESSION;
    st = feed(rw, rw->in, rw->in_len);
    rw->in_len = 0;
    return st;
}

/* Bytes of input that make a chunk of the open region. */
static size_t region_chunk(const struct iol_region_writer *rw)
{
    if (rw->comp == IOLENS_COMP_ZLIB && !rw->region_records)
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
