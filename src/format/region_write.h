/* Streaming compression of log regions for the writer (internal to the log library). */
#ifndef IOLENS_FORMAT_REGION_WRITE_H
#define IOLENS_FORMAT_REGION_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"

#define IOL_REGION_OUTBUF (256 * 1024) /* output buffer of a large region */
/* Input gathered before it goes to the compressor (region_write.c). */
#define IOL_REGION_GATHER ((size_t)64 << 10)
/* A zlib region this large goes on several threads, one stream per chunk. */
#define IOL_REGION_PAR_MIN ((size_t)1 << 20)
/* The memory the threads keep is about (threads + 2) chunks and a deflate
 * state each (270 KiB): the chunk is small, so that a process of 10,000 files
 * ends within Darshan's memory; each halving costs about 0.1 byte per record. */
#define IOL_REGION_CHUNK ((size_t)256 << 10)

struct iol_codec;
struct iol_par;

/* Compresses the regions of one log, one after the other, into fd. Each region
 * is one complete compressed stream starting where the previous one ended, or
 * (zlib, large region, more than one thread) several complete streams. */
struct iol_region_writer {
    int fd;
    const struct iol_codec *codec;
    void *stream;            /* the codec's encoder, or NULL */
    int region_ready;        /* the open region's stream and buffer are set up */
    unsigned char *out;      /* output not yet written (made by a region's first step) */
    size_t out_cap;          /* bytes allocated at out: up to IOL_REGION_OUTBUF */
    size_t out_len;
    uint64_t pos;            /* file offset where out[0] goes */
    uint64_t start;          /* file offset where the open region starts */
    unsigned char *in;       /* input gathered, up to IOL_REGION_GATHER (one stream) or
                              * IOL_REGION_CHUNK (on the pool) bytes */
    size_t in_len;
    size_t in_cap;           /* bytes allocated at in */
    uint64_t region_in;      /* bytes of input given to the open region so far */
    int threads;             /* compression threads allowed (1: one stream per region;
                              * 0: as many as the CPUs, asked at the first large region) */
    int region_par;          /* the open region goes through par */
    int region_records;      /* the open region holds module records */
    uint64_t region_expect;  /* bytes the open region is expected to hold (0: not known) */
    struct iol_par *par;     /* thread pool, started by the first large region */
};

/* Prepare to write regions into fd from offset pos on, with as many threads
 * as the process may run on (see iol_rw_set_threads).
 * @return IOLENS_OK, IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION. */
iolens_status iol_rw_init(struct iol_region_writer *rw, int fd, iolens_compression comp,
                          uint64_t pos);

/* Allow at most n threads for compressing later regions (0: as many as the
 * process may run on, at most IOL_PAR_MAX_THREADS; 1: one stream per region
 * on the calling thread). Only zlib regions use more than one. */
void iol_rw_set_threads(struct iol_region_writer *rw, int n);

/* Start a new region at the current end of the data written; records: it
 * holds module records (a large zlib one gets iol_par_tune's search), not
 * text such as names; expect: about how many bytes of input it will hold,
 * at most (0: not known), which lets a large one start on several threads at
 * once and a small one get a compressor sized to it. */
void iol_rw_begin(struct iol_region_writer *rw, int records, uint64_t expect);

/* Compress n bytes of buf into the open region.
 * @return IOLENS_OK, IOLENS_ERR_IO, IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION. */
iolens_status iol_rw_write(struct iol_region_writer *rw, const void *buf, size_t n);

/* End the open region's stream, write everything out and give its extent in
 * *map ({0, 0} if the region holds nothing). @return IOLENS_OK or an error. */
iolens_status iol_rw_finish(struct iol_region_writer *rw, struct iolens_region_map *map);

/* Release the compressor, the threads and buffers; rw may be zeroed memory. */
void iol_rw_free(struct iol_region_writer *rw);

#endif
