/* Pieces of a log for writers that place the regions themselves (internal to
 * iolens; the MPI runtime writes one log from many processes with collective
 * MPI-IO, each process compressing its own part of every region). The normal
 * path is the iolens_writer_* API, which uses the same pieces. */
#ifndef IOLENS_FORMAT_LOG_BUILD_H
#define IOLENS_FORMAT_LOG_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"

#define IOL_LOG_HEADER_BYTES 1328 /* the fixed header at offset 0 */
#define IOL_LOG_JOB_MAX 4096      /* most bytes of an uncompressed job region */

/* Lay out the uncompressed job region in buf (IOL_LOG_JOB_MAX zeroed bytes):
 * job fields, metadata, command line, mount lines, as iolens_writer_put_job.
 * @return its length. */
size_t iol_log_job_bytes(unsigned char *buf, const struct iolens_job *job, const char *exe,
                         const struct iolens_mount *mounts, size_t nmounts);

/* Fill the IOL_LOG_HEADER_BYTES header h: compression, partial flags (bit per
 * module id), the name region's extent, and IOLENS_MAX_MODS module extents and
 * record versions. */
void iol_log_header_bytes(unsigned char *h, iolens_compression comp, uint64_t partial,
                          const struct iolens_region_map *names,
                          const struct iolens_region_map *mods, const uint32_t *versions);

/* Append n records of module mod_id, the first at recs and each stride bytes
 * after the previous, to out as the log stores them (variable-size modules
 * through their encoder). @return IOLENS_OK, IOLENS_ERR_UNKNOWN_MODULE or NOMEM. */
iolens_status iol_log_records_bytes(int mod_id, const void *recs, size_t n, size_t stride,
                                    unsigned char **out, size_t *out_len);

/* Compress len bytes of in into one zlib stream at Darshan's level (records:
 * with the search tuned for records, see region_par.h) in a new buffer *out
 * of *out_len bytes, to be freed by the caller. Nothing in gives *out NULL and
 * *out_len 0 (an empty part of a region).
 * @return IOLENS_OK, IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION. */
iolens_status iol_log_compress(const void *in, size_t len, int records, unsigned char **out,
                               size_t *out_len);

#endif
