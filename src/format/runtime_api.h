/* The runtime's contract with its copy of the log library.
 *
 * libiolens.so and libiolens-mpi.so each link the log library in statically
 * (iolens-log-rt: zlib only, no printers, file I/O by system calls; see
 * CMakeLists.txt). Besides the public API (include/iolens/), the runtime uses
 * what this header declares and nothing else of src/format/
 * (scripts/check-style fails if a runtime file includes another of its
 * headers). None of it is public API, for the reason given with each part:
 * mostly, it works on the record file's layout (src/common/recfile.h), which
 * belongs to one iolens version and is not public; a program reads a record
 * file through iolens/recfile.h or iolens_log_open instead. The library's own
 * files use these functions too, and see them through this header. */
#ifndef IOL_FORMAT_RUNTIME_API_H
#define IOL_FORMAT_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>

#include "../common/recfile.h"
#include "iolens/combine.h"
#include "iolens/log.h"
#include "iolens/modules/heatmap.h"
#include "iolens/status.h"
#include "sysio.h"

/* ---- The record file as a log (maplog.c) ---------------------------------
 * At its end a process writes its log from its record file in memory
 * (iol_maplog_write); in an MPI job each rank hands its records to the job's
 * log instead, read from the record file with the functions after it. All
 * take the record file's header, checked (iol_maplog_write checks it). */

/* The job data of a record file, in the form the log writer takes. */
struct iol_maplog_job {
    struct iolens_job job;
    char exe[IOL_MAP_EXE_BYTES];
    char mount_text[IOL_MAP_MOUNT_BYTES]; /* the strings mounts[] point into */
    struct iolens_mount mounts[64];
    size_t nmounts;
};

/* The whole record of a live slot of a trace module (a descriptor with
 * .trace set, DXT), as the process that writes the record file builds it (its
 * triggers applied, under its locks). Called with the slot's lock held;
 * copies the record, decoded, into buf (cap bytes).
 * @return its bytes (more than cap: nothing copied, ask again with that
 *         many), or 0 to leave the record out. */
typedef size_t (*iol_maplog_trace_fn)(const struct iol_map_module *m, unsigned char *slot,
                                      void *buf, size_t cap);

/* Write the log of the record file h of len bytes to path, zlib compressed,
 * mode 0400, for the tools h->log_compat names: job data from the header (end
 * time included), the names of the live records, then each module's live
 * records in increasing module id,
 * each module's partial flag (set where records were dropped); trace
 * modules' records come from traces, or when it is NULL (a record file read
 * from outside the process that wrote it) from the file's trace area
 * (iol_dxt_recfile_build); recovered != 0 (the file of a process that died before
 * writing its log) adds the metadata line IOLENS_META_KILLED=1.
 * @return IOLENS_OK, or an error with detail filled. */
iolens_status iol_maplog_write(const struct iol_map_header *h, size_t len, const char *path,
                               int recovered, iol_maplog_trace_fn traces, char *detail,
                               size_t detail_len);

/* Fill *out from the record file h: job fields, command line, mount table. */
void iol_maplog_job(const struct iol_map_header *h, struct iol_maplog_job *out);

/* Slots of module m that may be live (count clamped to capacity). */
uint32_t iol_maplog_live_count(const struct iol_map_module *m);

/* The indexes of h's modules in increasing module id, the order the format
 * requires, into order (h->nmods entries). */
void iol_maplog_module_order(const struct iol_map_header *h, uint32_t *order);

/* Copy the record in slot j of module m of h into buf (m->rec_size bytes),
 * under its lock taken for a bounded time, with a HEATMAP record's bins
 * folded in. @return its id, or 0 if the slot is not live (nothing copied). */
uint64_t iol_maplog_copy_record(const struct iol_map_header *h, const struct iol_map_module *m,
                                uint32_t j, void *buf);

/* The name of the record in slot j of module m, or NULL if damaged. */
const char *iol_maplog_record_name(const struct iol_map_header *h,
                                   const struct iol_map_module *m, uint32_t j);

/* The whole record of module m's j-th slot (a trace module's), built by
 * traces into buf (cap bytes) under the slot's (bounded) lock.
 * @return its bytes (more than cap: nothing copied, ask again with that
 *         many), or 0 when the slot is not live or traces leaves it out. */
size_t iol_maplog_trace_record(const struct iol_map_header *h, const struct iol_map_module *m,
                               uint32_t j, iol_maplog_trace_fn traces, void *buf, size_t cap);

/* ---- DXT records from the record file's trace area (dxt_recfile.c) -------
 * The one reader of the segments a record file holds: the running process's
 * DXT modules build their records with it at the end, and iol_maplog_write
 * with no traces hook (iolens recover) does the same from outside.
 * The whole DXT record of the live slot slot of trace module m (a DXT
 * module's) in the record file h, decoded (iolens/modules/dxt.h), into buf
 * (cap bytes): the head from the slot, write and read counts and segments
 * from the trace area, each list up to its first segment not yet stored.
 * @return its bytes (more than cap: nothing copied, ask again with that
 *         many), or 0 for a record without segments or a slot of another
 *         layout. */
size_t iol_dxt_recfile_build(const struct iol_map_header *h, const struct iol_map_module *m,
                             const unsigned char *slot, void *buf, size_t cap);

/* ---- Combining (combine.c) -----------------------------------------------
 * iolens_combine_record without its checks, for the MPI reduction's
 * operation: MPI calls it on record after record of a module checked once
 * (iolens_combine_supported), where checking the whole counter table at every
 * call would cost about as much as combining. A program combining many
 * records has iolens/accumulate.h. mod must be supported in mode. */
void iol_combine_checked(const struct iolens_module_desc *mod, iolens_combine_mode mode,
                         void *dst, const void *src, int first);

/* ---- The four most common access tuples (combine_tuple.c) ---------------
 * H5D and PNETCDF_VAR records keep the four most common accesses as tuples
 * ranked by count; the runtime places each access's tuple by the rule the
 * REDUCE mode merges records' tuples by (iol_tuple4_reduce), so the two
 * cannot drift apart. Not public: it is Darshan's runtime counting, not
 * something a reader of logs needs.
 * Words of one tuple of a TOP4_TUPLE group: the access size, five lengths
 * and five strides. */
#define IOL_TUPLE_WORDS 11

/* Place tuple (IOL_TUPLE_WORDS words) with count into the list of four
 * tuples vals / counts cnts, as Darshan's runtime does at each access (the
 * H5D and PNETCDF_VAR modules) and its reduction for each tuple: the
 * tuples before it are those with a larger count, or an equal count and a
 * larger size; the tuple's old entry leaves the list. A tuple of size 0 is
 * never placed; one that ranks below all four is dropped. */
void iol_tuple4_place(int64_t *vals, int64_t cnts[4], const int64_t *tuple, int64_t count);

/* ---- HEATMAP records on a job's common end (heatmap_extend.c) ------------
 * For a log of several processes, whose heatmaps each ended at its own
 * process's end. iolens/joblog.h applies it to the logs it combines; the MPI
 * job log is made outside that API, from every rank's records.
 * Give r (room for cap bins per array) the bins needed to span span seconds
 * in its width, doubling the width (bins merged pairwise) until cap bins
 * reach; never fewer bins than it had. A record with no bins, more than cap,
 * or no width is left as it is. */
void iol_heatmap_extend(struct iolens_heatmap_record *r, double span, int64_t cap);

/* ---- File calls (sysio.h, included above) --------------------------------
 * The library's file calls, system calls in this copy: libiolens-mpi.so,
 * where libc's names reach the preloaded wrappers and libiolens.so's
 * iol_sys_* are hidden, renames the MPI job log with iol_io_rename and
 * writes each rank's own log (LOG_PER_RANK) with iol_io_*. */

#endif
