/* Compressing one log region on several threads (internal to the log library).
 *
 * The format lets a region be several complete zlib streams back to back
 * (MPI logs have one per rank; Darshan's reader and ours inflate them one
 * after the other). A large region is therefore cut into chunks of input
 * (region_write.h), each compressed as its own stream by a pool of threads,
 * and the streams are written in order. The thread that feeds the pool compresses too whenever
 * it would otherwise wait, so n threads means n - 1 workers plus the caller. */
#ifndef IOLENS_FORMAT_REGION_PAR_H
#define IOLENS_FORMAT_REGION_PAR_H

#include <stddef.h>
#include <zlib.h>

#include "iolens/status.h"

/* Most threads a pool uses, the caller included. */
#define IOL_PAR_MAX_THREADS 8

struct iol_par;

/* Set the deflate search parameters used for large record regions on z
 * (after deflateInit or deflateReset, before any input): level 6 as Darshan
 * writes, with a shorter hash chain and full lazy matching, tuned to
 * fixed-size records that are mostly zeros: ~20% less time and no larger
 * output than the level's default on bench/shutdown's records (on varied
 * records: 35% less time, 2% larger; bench/README.md); on names it gains no
 * time and loses 1%, so they keep the default. Faster settings cost bytes
 * the logs of 10,000 records cannot spare against the reference's.
 * @return zlib's status. */
int iol_par_tune(z_stream *z);

/* Receives each compressed stream, in input order, on the submitting thread.
 * @return IOLENS_OK or an error (the pool then stops writing). */
typedef iolens_status (*iol_par_emit_fn)(void *arg, const void *data, size_t len);

/* Threads worth using: the CPUs this process may run on, at most
 * IOL_PAR_MAX_THREADS. @return at least 1. */
int iol_par_auto_threads(void);

/* Start a pool of nthreads - 1 workers (2 <= nthreads <= IOL_PAR_MAX_THREADS)
 * compressing chunks of at most chunk bytes with zlib at Darshan's level,
 * every stream handed to emit(arg, ...). Workers block every signal.
 * @return IOLENS_OK and *out set, or IOLENS_ERR_NOMEM (no thread left running). */
iolens_status iol_par_create(int nthreads, size_t chunk, iol_par_emit_fn emit, void *arg,
                             struct iol_par **out);

/* Queue the len bytes of *buf (a buffer of chunk bytes) as the next stream
 * (with tune, compressed with iol_par_tune's search; else zlib's level 6) and
 * take in exchange, in *buf, a free buffer of chunk bytes. Writes out the
 * streams already done, in order; may compress one itself while waiting for a
 * free slot. @return IOLENS_OK, or the first error of a stream or of emit. */
iolens_status iol_par_submit(struct iol_par *p, unsigned char **buf, size_t len, int tune);

/* Wait until every queued stream is compressed and written out.
 * @return IOLENS_OK, or the first error since the pool started. */
iolens_status iol_par_drain(struct iol_par *p);

/* Stop the workers and free the pool; NULL is allowed. Streams still queued
 * are dropped. */
void iol_par_free(struct iol_par *p);

#endif
