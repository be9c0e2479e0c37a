/* Streaming decompression of one log region (internal to the log library). */
#ifndef IOLENS_FORMAT_REGION_H
#define IOLENS_FORMAT_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"

#define IOL_REGION_INBUF (64 * 1024)

struct iol_codec;

/* A region being read: its compressed bytes come from fd by pread, and the
 * decompressed bytes go to the caller as a stream, across the concatenated
 * compressed streams that MPI logs hold (one per rank). */
struct iolens_region {
    int fd;
    iolens_compression comp;
    const struct iol_codec *codec;
    uint64_t off, len;       /* compressed extent in the file */
    uint64_t consumed;       /* compressed bytes loaded so far */
    unsigned char *in;       /* IOL_REGION_INBUF bytes */
    size_t in_len, in_pos;
    void *stream;            /* the codec's decoder, or NULL */
    int stream_live;         /* a compressed stream is open mid-way */
    int at_end;
    uint64_t produced;       /* decompressed bytes handed out */
    struct iol_prefetch *pf; /* decompressing thread of a large region, or NULL */
};

/* Start reading the region map of fd (compressed with comp); rg must be zeroed
 * or ended. @return IOLENS_OK or IOLENS_ERR_NOMEM/IOLENS_ERR_COMPRESSION. */
iolens_status iol_region_begin(struct iolens_region *rg, int fd, iolens_compression comp,
                               struct iolens_region_map map);

/* Read up to n decompressed bytes into buf; *got < n only at the region's end.
 * @return IOLENS_OK (also at the end, with *got possibly 0) or an error. */
iolens_status iol_region_read(struct iolens_region *rg, void *buf, size_t n, size_t *got);

/* Read exactly n bytes. @return IOLENS_OK, IOLENS_END if the region ended
 * before the first byte, IOLENS_ERR_TRUNCATED if it ended part-way, or an error. */
iolens_status iol_region_read_exact(struct iolens_region *rg, void *buf, size_t n);

/* Read up to n bytes on the calling thread, bypassing any prefetcher: what
 * iol_region_read does for small regions, and the prefetch thread's source. */
iolens_status iol_region_read_direct(struct iolens_region *rg, void *buf, size_t n,
                                     size_t *got);

/* Start a thread that decompresses rg ahead of its reader (large regions).
 * On failure the region is simply read without one. */
void iol_prefetch_start(struct iolens_region *rg);

/* Read up to n bytes decompressed by rg's prefetch thread; same contract as
 * iol_region_read. */
iolens_status iol_prefetch_read(struct iolens_region *rg, void *buf, size_t n, size_t *got);

/* Stop and free rg's prefetch thread, if any. */
void iol_prefetch_stop(struct iolens_region *rg);

/* Release the decompressor; the region may be begun again. */
void iol_region_end(struct iolens_region *rg);

#endif
