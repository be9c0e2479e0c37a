/* Streaming compression of log regions for the writer (internal to the log library). */
#ifndef IOLENS_FORMAT_REGION_WRITE_H
#define IOLENS_FORMAT_REGION_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"

#define IOL_REGION_OUTBUF (256 * 1024)

/* Compresses the regions of one log, one after the other, into fd. Each region
 * is one complete compressed stream starting where the previous one ended. */
struct iol_region_writer {
    int fd;
    iolens_compression comp;
    void *stream;            /* z_stream, bz_stream or ZSTD_CStream */
    unsigned char *out;      /* IOL_REGION_OUTBUF bytes of output not yet written */
    size_t out_len;
    uint64_t pos;            /* file offset where out[0] goes */
    uint64_t start;          /* file offset where the open region starts */
};

/* Prepare to write regions into fd from offset pos on.
 * @return IOLENS_OK, IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION. */
iolens_status iol_rw_init(struct iol_region_writer *rw, int fd, iolens_compression comp,
                          uint64_t pos);

/* Start a new region at the current end of the data written. */
void iol_rw_begin(struct iol_region_writer *rw);

/* Compress n bytes of buf into the open region.
 * @return IOLENS_OK, IOLENS_ERR_IO or IOLENS_ERR_COMPRESSION. */
iolens_status iol_rw_write(struct iol_region_writer *rw, const void *buf, size_t n);

/* End the open region's stream, write everything out and give its extent in
 * *map ({0, 0} if the region holds nothing). @return IOLENS_OK or an error. */
iolens_status iol_rw_finish(struct iol_region_writer *rw, struct iolens_region_map *map);

/* Release the compressor and buffers; rw may be zeroed memory. */
void iol_rw_free(struct iol_region_writer *rw);

#endif
