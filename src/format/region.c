/* Streaming decompression of one log region. A region is a sequence of one or
 * more complete compressed streams (each MPI rank writes its own); the reader
 * restarts the decompressor at every stream boundary until the bytes of the
 * region run out. */
#include "region.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifndef IOLENS_ZLIB_ONLY
#include <bzlib.h>
#include <zstd.h>
#endif

#include "../common/adler32.h"
#include "sysio.h"

/* Largest zstd window (log2 bytes) a region may use: memory a frame header
 * can demand regardless of the file's size. */
#define IOL_ZSTD_WINDOW_LOG_MAX 23

/* Most decompressed bytes a region may yield per compressed byte, past a
 * first MiB. zlib cannot exceed 1032:1 and real logs stay under 100:1 in every
 * method, but bzip2 and zstd can turn a few bytes of file into gigabytes of
 * records; 4096:1 leaves room for legitimately sparse data (HEATMAP bins). */
#define IOL_REGION_MAX_RATIO 4096
#define IOL_REGION_FREE_BYTES ((uint64_t)1 << 20)

static uint64_t output_budget(const struct iolens_region *rg)
{
    if (rg->comp == IOLENS_COMP_NONE)
        return rg->len;
    if (rg->len > (UINT64_MAX - IOL_REGION_FREE_BYTES) / IOL_REGION_MAX_RATIO)
        return UINT64_MAX;
    return rg->len * IOL_REGION_MAX_RATIO + IOL_REGION_FREE_BYTES;
}

/* Bytes already decoded that a reload keeps in front of the new input, so
 * that a zlib stream's 4-byte trailer can be read back after its end even
 * when a reload fell inside it. */
#define IOL_REGION_KEEP 16

/* Load the next chunk of compressed bytes. @return IOLENS_OK or IO/truncation. */
static iolens_status load_input(struct iolens_region *rg)
{
    size_t keep = rg->in_len < IOL_REGION_KEEP ? rg->in_len : IOL_REGION_KEEP;
    uint64_t left = rg->len - rg->consumed;
    size_t room = IOL_REGION_INBUF - keep;
    size_t want = left > room ? room : (size_t)left;
    ssize_t got;

    memmove(rg->in, rg->in + rg->in_len - keep, keep);
    do {
        got = iol_io_pread(rg->fd, rg->in + keep, want, (off_t)(rg->off + rg->consumed));
    } while (got < 0 && errno == EINTR);
    if (got < 0)
        return IOLENS_ERR_IO;
    if ((size_t)got < want)
        return IOLENS_ERR_TRUNCATED;
    rg->consumed += want;
    rg->in_len = keep + want;
    rg->in_pos = keep;
    return IOLENS_OK;
}

static int input_exhausted(const struct iolens_region *rg)
{
    return rg->in_pos == rg->in_len && rg->consumed == rg->len;
}

iolens_status iol_region_begin(struct iolens_region *rg, int fd, iolens_compression comp,
                               struct iolens_region_map map)
{
    memset(rg, 0, sizeof(*rg));
    rg->fd = fd;
    rg->comp = comp;
    rg->off = map.off;
    rg->len = map.len;
    rg->in = malloc(IOL_REGION_INBUF);
    if (!rg->in)
        return IOLENS_ERR_NOMEM;

    switch (comp) {
    case IOLENS_COMP_ZLIB: {
        z_stream *z = calloc(1, sizeof(*z));
        if (!z || inflateInit(z) != Z_OK) {
            free(z);
            return IOLENS_ERR_NOMEM;
        }
        /* zlib's own Adler-32 is a tenth of the reading time; the check
         * value is computed here with a vectorised one instead. */
        inflateValidate(z, 0);
        rg->adler = 1;
        rg->stream = z;
        return IOLENS_OK;
    }
#ifdef IOLENS_ZLIB_ONLY
    default:
        break;
#else
    case IOLENS_COMP_BZIP2: {
        bz_stream *bz = calloc(1, sizeof(*bz));
        if (!bz || BZ2_bzDecompressInit(bz, 0, 0) != BZ_OK) {
            free(bz);
            return IOLENS_ERR_NOMEM;
        }
        rg->stream = bz;
        return IOLENS_OK;
    }
    case IOLENS_COMP_ZSTD:
        rg->stream = ZSTD_createDStream();
        if (!rg->stream)
            return IOLENS_ERR_NOMEM;
        /* A frame header may ask for a window of up to 2^31 bytes; refuse
         * more than the levels a writer uses need (level 19: 2^23). */
        if (ZSTD_isError(ZSTD_DCtx_setParameter(rg->stream, ZSTD_d_windowLogMax,
                                                IOL_ZSTD_WINDOW_LOG_MAX)))
            return IOLENS_ERR_NOMEM;
        return IOLENS_OK;
#endif
    case IOLENS_COMP_NONE:
        return IOLENS_OK;
    }
    return IOLENS_ERR_COMPRESSION;
}

/* One decompression step from the input buffer into out.
 * *ended is set when a compressed stream finished. */
static iolens_status step(struct iolens_region *rg, unsigned char *out, size_t room,
                          size_t *made, int *ended)
{
    unsigned char *in = rg->in + rg->in_pos;
    size_t avail = rg->in_len - rg->in_pos;

    *ended = 0;
    switch (rg->comp) {
    case IOLENS_COMP_NONE: {
        size_t n = avail < room ? avail : room;
        memcpy(out, in, n);
        rg->in_pos += n;
        *made = n;
        return IOLENS_OK;
    }
    case IOLENS_COMP_ZLIB: {
        z_stream *z = rg->stream;
        z->next_in = in;
        z->avail_in = (uInt)avail;
        z->next_out = out;
        z->avail_out = (uInt)room;
        int rc = inflate(z, Z_NO_FLUSH);
        rg->in_pos += avail - z->avail_in;
        *made = room - z->avail_out;
        rg->adler = iol_adler32(rg->adler, out, *made);
        if (rc == Z_STREAM_END) {
            /* The stream's last 4 bytes, just consumed, are its Adler-32. */
            if (rg->in_pos < 4)
                return IOLENS_ERR_CORRUPT;
            const unsigned char *t = rg->in + rg->in_pos - 4;
            uint32_t want = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 |
                            (uint32_t)t[2] << 8 | t[3];
            if (want != rg->adler)
                return IOLENS_ERR_CORRUPT;
            *ended = 1;
            rg->adler = 1;
            inflateReset(z);
            inflateValidate(z, 0);
        } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && *made == 0 && avail == 0)) {
            return IOLENS_ERR_CORRUPT;
        }
        return IOLENS_OK;
    }
#ifdef IOLENS_ZLIB_ONLY
    default:
        break;
#else
    case IOLENS_COMP_BZIP2: {
        bz_stream *bz = rg->stream;
        bz->next_in = (char *)in;
        bz->avail_in = (unsigned)avail;
        bz->next_out = (char *)out;
        bz->avail_out = (unsigned)room;
        int rc = BZ2_bzDecompress(bz);
        rg->in_pos += avail - bz->avail_in;
        *made = room - bz->avail_out;
        if (rc == BZ_STREAM_END) {
            *ended = 1;
            BZ2_bzDecompressEnd(bz);
            memset(bz, 0, sizeof(*bz));
            if (BZ2_bzDecompressInit(bz, 0, 0) != BZ_OK)
                return IOLENS_ERR_NOMEM;
        } else if (rc != BZ_OK) {
            return IOLENS_ERR_CORRUPT;
        }
        return IOLENS_OK;
    }
    case IOLENS_COMP_ZSTD: {
        ZSTD_inBuffer ib = {in, avail, 0};
        ZSTD_outBuffer ob = {out, room, 0};
        size_t rc = ZSTD_decompressStream(rg->stream, &ob, &ib);
        if (ZSTD_isError(rc))
            return IOLENS_ERR_CORRUPT;
        rg->in_pos += ib.pos;
        *made = ob.pos;
        if (rc == 0)
            *ended = 1;
        return IOLENS_OK;
    }
#endif
    }
    return IOLENS_ERR_COMPRESSION;
}

/* Compressed regions at least this large are decompressed by a second
 * thread while the caller decodes records: inflate is half the time of
 * reading a large log. */
#define IOL_PREFETCH_MIN_BYTES ((uint64_t)1 << 20)

iolens_status iol_region_read(struct iolens_region *rg, void *buf, size_t n, size_t *got)
{
    if (!rg->pf && rg->produced == 0 && rg->comp != IOLENS_COMP_NONE &&
        rg->len >= IOL_PREFETCH_MIN_BYTES)
        iol_prefetch_start(rg);
    if (rg->pf)
        return iol_prefetch_read(rg, buf, n, got);
    return iol_region_read_direct(rg, buf, n, got);
}

iolens_status iol_region_read_direct(struct iolens_region *rg, void *buf, size_t n,
                                     size_t *got)
{
    unsigned char *out = buf;
    size_t done = 0;
    int stalls = 0;

    while (done < n && !rg->at_end) {
        if (rg->in_pos == rg->in_len && rg->consumed < rg->len) {
            iolens_status st = load_input(rg);
            if (st != IOLENS_OK)
                return st;
        }
        if (input_exhausted(rg) && !rg->stream_live) {
            rg->at_end = 1;
            break;
        }
        size_t made = 0;
        int ended = 0;
        size_t before = rg->in_pos;
        iolens_status st = step(rg, out + done, n - done, &made, &ended);
        if (st != IOLENS_OK)
            return st;
        done += made;
        if (rg->produced + done > output_budget(rg))
            return IOLENS_ERR_CORRUPT; /* a decompression bomb */
        rg->stream_live = rg->comp != IOLENS_COMP_NONE && !ended;
        if (made == 0 && !ended && rg->in_pos == before) {
            /* No progress: a stream cut off before its end marker, or a
             * decoder that can go no further on this input. */
            if (input_exhausted(rg))
                return IOLENS_ERR_TRUNCATED;
            if (++stalls > 2)
                return IOLENS_ERR_CORRUPT;
        } else {
            stalls = 0;
        }
    }
    rg->produced += done;
    *got = done;
    return IOLENS_OK;
}

iolens_status iol_region_read_exact(struct iolens_region *rg, void *buf, size_t n)
{
    size_t got = 0;
    iolens_status st = iol_region_read(rg, buf, n, &got);
    if (st != IOLENS_OK)
        return st;
    if (got == n)
        return IOLENS_OK;
    return got == 0 ? IOLENS_END : IOLENS_ERR_TRUNCATED;
}

void iol_region_end(struct iolens_region *rg)
{
    iol_prefetch_stop(rg);
    if (rg->stream) {
        switch (rg->comp) {
        case IOLENS_COMP_ZLIB:
            inflateEnd(rg->stream);
            free(rg->stream);
            break;
#ifdef IOLENS_ZLIB_ONLY
        default:
            break;
#else
        case IOLENS_COMP_BZIP2:
            BZ2_bzDecompressEnd(rg->stream);
            free(rg->stream);
            break;
        case IOLENS_COMP_ZSTD:
            ZSTD_freeDStream(rg->stream);
            break;
        case IOLENS_COMP_NONE:
            break;
#endif
        }
    }
    free(rg->in);
    memset(rg, 0, sizeof(*rg));
    rg->fd = -1;
}
