/* Streaming decompression of one log region. A region is a sequence of one or
 * more complete compressed streams (each MPI rank writes its own); the reader
 * restarts the decompressor at every stream boundary until the bytes of the
 * region run out. */
#include "region.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "sysio.h"

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

    rg->codec = iol_codec(comp);
    if (!rg->codec)
        return IOLENS_ERR_COMPRESSION;
    return rg->codec->dec_new(&rg->stream);
}

/* One decompression step from the input buffer into out.
 * *ended is set when a compressed stream finished. */
static iolens_status step(struct iolens_region *rg, unsigned char *out, size_t room,
                          size_t *made, int *ended)
{
    struct iol_codec_buf b = {rg->in, rg->in_pos, rg->in_len, out, 0, room};
    iolens_status st = rg->codec->dec_step(rg->stream, &b);

    rg->in_pos = b.in_pos;
    *made = b.out_pos;
    *ended = st == IOLENS_END;
    return *ended ? IOLENS_OK : st;
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
    if (rg->stream)
        rg->codec->dec_free(rg->stream);
    free(rg->in);
    memset(rg, 0, sizeof(*rg));
    rg->fd = -1;
}
