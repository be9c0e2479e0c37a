/* Streaming compression of log regions. Each region is one complete stream
 * (zlib, bzip2 or zstd frame, or raw bytes), written right after the previous
 * region; the compressor is reset between regions, as Darshan's writer does.
 * Settings follow Darshan's: zlib default level, bzip2 block size 9 and work
 * factor 30. */
#include "region_write.h"

#include <bzlib.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define BZ_BLOCK_SIZE 9
#define BZ_WORK_FACTOR 30
#define ZSTD_LEVEL 3
#define CHUNK_MAX ((size_t)1 << 30) /* zlib and bzip2 count input in 32 bits */

static iolens_status flush_out(struct iol_region_writer *rw)
{
    size_t done = 0;
    while (done < rw->out_len) {
        ssize_t n = pwrite(rw->fd, rw->out + done, rw->out_len - done,
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
    return rw->out_len == IOL_REGION_OUTBUF ? flush_out(rw) : IOLENS_OK;
}

static iolens_status new_stream(struct iol_region_writer *rw)
{
    switch (rw->comp) {
    case IOLENS_COMP_ZLIB: {
        z_stream *z = calloc(1, sizeof(*z));
        if (!z || deflateInit(z, Z_DEFAULT_COMPRESSION) != Z_OK) {
            free(z);
            return IOLENS_ERR_NOMEM;
        }
        rw->stream = z;
        return IOLENS_OK;
    }
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
    case IOLENS_COMP_BZIP2:
        BZ2_bzCompressEnd(rw->stream);
        free(rw->stream);
        break;
    case IOLENS_COMP_ZSTD:
        ZSTD_freeCStream(rw->stream);
        break;
    case IOLENS_COMP_NONE:
        break;
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
    rw->out = malloc(IOL_REGION_OUTBUF);
    if (!rw->out)
        return IOLENS_ERR_NOMEM;
    return new_stream(rw);
}

void iol_rw_begin(struct iol_region_writer *rw)
{
    rw->start = rw->pos + rw->out_len;
}

/* Feed at most CHUNK_MAX bytes to the compressor; finish ends the stream.
 * @return IOLENS_OK, IOLENS_END once a finishing stream is complete, or an error. */
static iolens_status step(struct iol_region_writer *rw, const unsigned char **in, size_t *avail,
                          int finish)
{
    unsigned char *out = rw->out + rw->out_len;
    size_t room = IOL_REGION_OUTBUF - rw->out_len;

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
            return deflateReset(z) == Z_OK ? IOLENS_END : IOLENS_ERR_COMPRESSION;
        return rc == Z_OK || rc == Z_BUF_ERROR ? IOLENS_OK : IOLENS_ERR_COMPRESSION;
    }
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
    }
    return IOLENS_ERR_COMPRESSION;
}

iolens_status iol_rw_write(struct iol_region_writer *rw, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    iolens_status st = IOLENS_OK;

    while (n > 0 && st == IOLENS_OK) {
        size_t chunk = n < CHUNK_MAX ? n : CHUNK_MAX, left = chunk;
        n -= chunk;
        while (left > 0 && st == IOLENS_OK) {
            st = make_room(rw);
            if (st == IOLENS_OK)
                st = step(rw, &p, &left, 0);
        }
    }
    return st;
}

iolens_status iol_rw_finish(struct iol_region_writer *rw, struct iolens_region_map *map)
{
    const unsigned char *none = NULL;
    size_t zero = 0;
    iolens_status st = IOLENS_OK;

    for (;;) {
        if ((st = make_room(rw)) != IOLENS_OK)
            return st;
        st = step(rw, &none, &zero, 1);
        if (st == IOLENS_END)
            break;
        if (st != IOLENS_OK)
            return st;
    }
    if ((st = flush_out(rw)) != IOLENS_OK)
        return st;
    map->off = rw->start;
    map->len = rw->pos - rw->start;
    if (map->len == 0)
        map->off = 0;
    return IOLENS_OK;
}

void iol_rw_free(struct iol_region_writer *rw)
{
    free_stream(rw);
    free(rw->out);
    rw->out = NULL;
}
