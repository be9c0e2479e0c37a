/* The pieces of a log, for writers that place regions themselves, such as a
 * parallel writer: iolens's MPI runtime writes one log from many processes
 * with collective MPI-IO, each process compressing its own part of every
 * region (a region may be several complete compressed streams back to back).
 * Such a writer writes the job region at IOLENS_LOG_HEADER_BYTES, then the
 * name region and the module regions (in increasing module id) one after the
 * other, and the header at offset 0 last, once every extent is known. The
 * iolens_writer_* functions of iolens/log.h are built from the same pieces. */
#ifndef IOLENS_LOG_PARTS_H
#define IOLENS_LOG_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/api.h"
#include "iolens/log.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOLENS_LOG_HEADER_BYTES 1328 /* the uncompressed header at offset 0 */
#define IOLENS_LOG_JOB_MAX 4096      /* most bytes of an uncompressed job region */

/* Lay out the uncompressed job region in buf (IOLENS_LOG_JOB_MAX zeroed bytes):
 * job fields, metadata, command line exe and the mounts that fit, as
 * iolens_writer_put_job does.
 * @return the region's length in bytes (at most IOLENS_LOG_JOB_MAX). */
IOLENS_API size_t iolens_log_job_bytes(unsigned char *buf, const struct iolens_job *job,
                                       const char *exe, const struct iolens_mount *mounts,
                                       size_t nmounts);

/* Fill the IOLENS_LOG_HEADER_BYTES header h, in host byte order: compression
 * comp, partial flags (bit i: module i), the name region's extent names, and
 * IOLENS_MAX_MODS module extents mods and record versions. */
IOLENS_API void iolens_log_header_bytes(unsigned char *h, iolens_compression comp,
                                        uint64_t partial,
                                        const struct iolens_region_map *names,
                                        const struct iolens_region_map *mods,
                                        const uint32_t *versions);

/* Lay out n records of module mod_id, the first at recs and each stride bytes
 * after the previous (stride 0, for a variable-size module: each record right
 * after the previous one's var_size bytes), as the log stores them at record
 * version version (0: the newest; else what iolens_module_compat_version
 * gives; variable-size modules through their encoder), in a new buffer *out
 * of *out_len bytes for the caller to free.
 * @return IOLENS_OK, IOLENS_ERR_UNKNOWN_MODULE, IOLENS_ERR_ARGUMENT (stride 0
 * for a fixed-size module), IOLENS_ERR_VERSION or IOLENS_ERR_NOMEM. */
IOLENS_API iolens_status iolens_log_records_bytes(int mod_id, uint32_t version,
                                                  const void *recs, size_t n, size_t stride,
                                                  unsigned char **out, size_t *out_len);

/* Compress len bytes of in into one complete stream of method comp, as the
 * writer compresses a large region (records: in holds module records, which
 * zlib compresses with a search tuned to them), in a new buffer *out of
 * *out_len bytes for the caller to free. Nothing in gives *out NULL and
 * *out_len 0 (an empty part of a region).
 * @return IOLENS_OK, IOLENS_ERR_NOMEM or IOLENS_ERR_COMPRESSION (also for a
 * method this build cannot write: the runtime's copy writes zlib and none
 * only). */
IOLENS_API iolens_status iolens_log_compress(iolens_compression comp, const void *in,
                                             size_t len, int records, unsigned char **out,
                                             size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
