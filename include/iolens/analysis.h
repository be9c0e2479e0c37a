/* Analysis of a log: one streaming pass over its records builds a bounded
 * job summary (per-module totals, per-interface figures, the heaviest files,
 * per-rank bytes), and the insights are rules over that summary
 * (docs/insights.md). Memory does not grow with the record count: the file
 * and rank tables have fixed capacities and what does not fit is added up.
 *
 * Not yet stable: members may be added before iolens 1.0 (iolens report
 * builds on the summary). */
#ifndef IOLENS_ANALYSIS_H
#define IOLENS_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/accumulate.h"
#include "iolens/api.h"
#include "iolens/log.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The interfaces whose files the summary follows one by one. */
enum iolens_iface {
    IOLENS_IFACE_POSIX,
    IOLENS_IFACE_MPIIO,
    IOLENS_IFACE_STDIO,
    IOLENS_IFACES
};

/* Darshan's ten access-size bins (0-100 bytes ... more than 1 GiB). */
#define IOLENS_SIZE_BINS 10

/* Upper bound in bytes of size bin i (INT64_MAX for the last). */
IOLENS_API int64_t iolens_size_bin_top(int i);

/* What the records of one interface add up to (for one file, or for many).
 * Counters a module does not keep stay 0. */
struct iolens_io_stats {
    int64_t records;          /* records added (one per rank, or one shared) */
    int64_t shared_records;   /* of which shared by all ranks (rank -1) */
    int64_t bytes_read, bytes_written;
    int64_t reads, writes;    /* data operations */
    int64_t meta_ops;         /* opens, stats, seeks, syncs, flushes, views... */
    double read_time, write_time, meta_time;
    int64_t read_sizes[IOLENS_SIZE_BINS], write_sizes[IOLENS_SIZE_BINS];
    int64_t seq_reads, seq_writes;        /* POSIX: at a higher offset than the last */
    int64_t first_reads, first_writes;    /* records with reads (writes): their first
                                           * access has no previous one */
    int64_t mem_not_aligned, file_not_aligned; /* POSIX */
    int64_t file_alignment;               /* POSIX: the largest seen */
    int64_t coll_reads, coll_writes;      /* MPI-IO: collective and split collective */
    int64_t indep_reads, indep_writes;    /* MPI-IO: independent and non-blocking */
    int64_t extent_read, extent_written;  /* highest offset + 1 read (written); 0 for none */
    /* Per-rank records (not shared) of the file: the least and most bytes
     * (read + written) one rank moved, and which ranks. */
    int64_t rank_bytes_min, rank_bytes_max, rank_min, rank_max;
    /* Shared records: the fastest and slowest rank, their bytes and time,
     * and the variance of bytes across ranks (as the MPI reduction left them). */
    int64_t fastest_rank, fastest_bytes, slowest_rank, slowest_bytes;
    double fastest_time, slowest_time, variance_bytes;
    /* The rank that spent the most time (read, write and metadata) on the
     * records added, and that time: a per-rank record's own rank and time, a
     * shared record's slowest rank and its time; -1 and 0 for none. */
    int64_t time_max_rank;
    double time_max;
};

/* One file of the summary's file table. */
struct iolens_file_summary {
    uint64_t id;
    char *name;                  /* NULL when the log has no name for it */
    unsigned ifaces;             /* bit i: records of enum iolens_iface i */
    int partial;                 /* 1 if some of its records went to the rest:
                                  * it left the table once and came back */
    double weight;               /* what ranks it: see iolens_summary_build */
    struct iolens_io_stats io[IOLENS_IFACES];
};

/* What one rank moved and spent on the files it did not share, through the
 * interface its files are judged by (MPI-IO files by their MPI-IO records).
 * Shared records add to their fastest and slowest rank the bytes the record
 * gives for them. */
struct iolens_rank_summary {
    int64_t bytes_read, bytes_written;
    double io_time, meta_time;
};

/* One module of the log. */
struct iolens_module_summary {
    int present;        /* the log has a region for it */
    int partial;        /* the runtime ran out of memory for it */
    int64_t records;    /* records read (0 for trace modules, which are not read) */
    void *total;        /* fixed-size modules that combine: every record merged
                         * (darshan-parser --total's rules), else NULL */
    /* Modules with derived metrics (POSIX, MPI-IO, STDIO, DFS, DAOS): bytes
     * moved, the slowest rank's time and the rate they give, as iolens parse
     * --perf prints them (agg_perf_by_slowest, PyDarshan's "I/O performance
     * estimate"); else NULL. Its file counts (files[]) are not made: all
     * zero (iolens parse --file counts them). Memory: its ranks, not its files. */
    struct iolens_metrics *metrics;
};

/* Bins of the written-file size histogram: bin b holds files of size s with
 * 2^(b-1) <= s < 2^b (bin 0: empty files). */
#define IOLENS_FILE_SIZE_BINS 64

/* The HEATMAP module's bins, one grid per interface: bytes read and written
 * per rank row and time bin. The grid has at most IOLENS_HEATMAP_MAX_BINS
 * time bins over the first record's span (nbins x bin width, which covers
 * the job), each made of whole source bins, and at most
 * IOLENS_HEATMAP_MAX_ROWS rows of ranks_per_row consecutive ranks. */
#define IOLENS_HEATMAP_MAX_BINS 200
#define IOLENS_HEATMAP_MAX_ROWS 256

struct iolens_heatmap_grid {
    int present;            /* the log has HEATMAP records of this interface */
    int nbins, nrows;
    double bin_seconds;     /* width of one grid bin */
    int64_t ranks_per_row;
    int64_t *read, *written; /* nrows x nbins, row-major */
};

/* Fixed capacities; 0 in iolens_summary_options means the default. */
#define IOLENS_SUMMARY_DEFAULT_FILES 4096
#define IOLENS_SUMMARY_DEFAULT_RANKS 65536

struct iolens_summary_options {
    size_t max_files; /* files kept one by one (default 4096) */
    size_t max_ranks; /* ranks kept one by one (default 65536) */
};

/* The job summary. Everything is owned by it. */
struct iolens_summary {
    int64_t nprocs;
    double run_time;            /* seconds, from the job's start and end */
    char *exe;
    uint64_t partial_flags;     /* as in the log header */
    struct iolens_module_summary modules[IOLENS_MAX_MODS];
    int uses_hdf5, uses_pnetcdf; /* the log has H5F/H5D or PnetCDF records */

    /* Per interface, all records. */
    struct iolens_io_stats iface[IOLENS_IFACES];

    /* Files: at most max_files, heaviest first after the build; the rest
     * added up per interface in rest. */
    struct iolens_file_summary *files;
    size_t nfiles;
    struct iolens_io_stats rest[IOLENS_IFACES];
    int64_t rest_files;         /* files that left the table, plus records of files
                                 * never kept (such a file counts once per record) */

    /* Ranks 0 .. nranks-1 one by one; higher ranks added up in rest_ranks. */
    struct iolens_rank_summary *ranks;
    size_t nranks;
    struct iolens_rank_summary rest_ranks;
    /* Bytes of shared records not given to a fastest or slowest rank. */
    int64_t shared_unattributed_bytes;
    double shared_meta_time;    /* meta time of shared records, all ranks */

    /* Written files (POSIX and STDIO records with bytes written), by size. */
    int64_t written_file_sizes[IOLENS_FILE_SIZE_BINS];

    /* Seconds in read, write and metadata calls, summed over every rank, of
     * the records the job is judged by (all but the POSIX records of MPI-IO
     * files, whose time the MPI-IO records already hold). */
    double judged_time;

    /* HEATMAP bins per interface (none when the log has no HEATMAP). */
    struct iolens_heatmap_grid heatmap[IOLENS_IFACES];
};

/* The share of the job's time spent in I/O: judged_time over nprocs x
 * run_time (0 when either is not positive). Threads doing I/O at once can
 * make it exceed 1. */
IOLENS_API double iolens_summary_io_share(const struct iolens_summary *s);

/* Read every record of an open log once and build its summary. Files are
 * ranked by weight: bytes read and written plus 10^9 per second of I/O
 * time; when the table is full, a new file takes the place of the lightest
 * one if it weighs more (the lightest goes to rest), else goes to rest.
 * Names are loaded and copied for the kept files. opts may be NULL.
 * @return IOLENS_OK and *out set, or an error (detail in iolens_log_error
 *         for a read error) with *out NULL. */
IOLENS_API iolens_status iolens_summary_build(iolens_log *log,
                                              const struct iolens_summary_options *opts,
                                              struct iolens_summary **out);

/* Free a summary; NULL is allowed. */
IOLENS_API void iolens_summary_free(struct iolens_summary *s);

/* ---- DXT timeline ---- */

/* A timeline of a log's DXT traces (DXT_POSIX, DXT_MPIIO, DXT_STDIO) whose
 * memory does not grow with the segment count: exact totals per lane (one
 * module, rank and thread), and a bounded sample of the segments
 * (docs/report.md, "Timeline"):
 * - each lane keeps every s-th of its segments in log order (its stride s, a
 *   power of two), s the smallest that keeps at most M of them, where M is
 *   max_segments halved until every lane's share fits in max_segments;
 * - the max_slowest longest segments that the strides leave out are kept too;
 * - lanes past max_lanes are added up in one lane with no samples of its own
 *   but its slowest segments. */
#define IOLENS_DXT_DEFAULT_SEGMENTS 10000
#define IOLENS_DXT_DEFAULT_SLOWEST 1000
#define IOLENS_DXT_DEFAULT_LANES 65536

struct iolens_dxt_options {
    size_t max_segments; /* strided samples at most (default 10,000) */
    size_t max_slowest;  /* slowest segments kept besides (default 1,000) */
    size_t max_lanes;    /* lanes kept one by one (default 65,536) */
};

/* One lane: what a rank's thread did through one trace module. */
struct iolens_dxt_lane {
    int mod_id;             /* IOLENS_MOD_DXT_POSIX, ... */
    int overflow;           /* 1: the lane adding up lanes past max_lanes */
    int64_t rank;
    uint64_t thread_id;     /* IOLENS_DXT_NO_THREAD when the log has none */
    int64_t segments, reads, writes;
    int64_t bytes_read, bytes_written;
    double busy;            /* sum of the segments' durations */
    double first_start, last_end;
    int64_t stride;         /* 0: no strided samples (see above) */
    int64_t shown;          /* samples kept, strided and slowest */
};

/* One kept segment. */
struct iolens_dxt_sample {
    uint32_t lane;          /* index in lanes */
    int write;              /* 1 for a write, 0 for a read */
    uint64_t file;          /* record id (iolens_log_name gives its name) */
    int64_t offset, length;
    double start, end;      /* seconds since the job's start */
    int64_t seq;            /* its place among its lane's segments */
};

/* Bytes per rank row and time bin of one trace module, from every segment
 * (docs/report.md, "Heatmap"): IOLENS_HEATMAP_MAX_BINS bins over the job's
 * run time, rows as the HEATMAP grid's; a segment's bytes spread over the
 * bins in proportion to its time in each, what lies before the first bin
 * or past the last counted in that bin. */
#define IOLENS_DXT_HEATMAPS 3

struct iolens_dxt_heatmap {
    int mod_id;             /* IOLENS_MOD_DXT_POSIX, ... */
    struct iolens_heatmap_grid grid;
};

struct iolens_dxt_timeline {
    int present;            /* the log has a trace module */
    int partial;            /* a trace module is partial (the runtime ran out of memory) */
    struct iolens_dxt_lane *lanes; /* in the order first seen */
    size_t nlanes;
    int64_t segments;       /* all segments of the log */
    struct iolens_dxt_sample *samples; /* by lane, then start time */
    size_t nsamples;
    size_t max_segments, max_slowest;
    int64_t lane_limit;     /* M at the end: the strided samples one lane may keep */
    struct iolens_dxt_heatmap heat[IOLENS_DXT_HEATMAPS]; /* per trace module of the log */
    size_t nheat;
};

/* Read the log's trace modules once and build their timeline. opts may be
 * NULL (the defaults).
 * @return IOLENS_OK and *out set, or an error (detail in iolens_log_error
 *         for a read error) with *out NULL. */
IOLENS_API iolens_status iolens_dxt_timeline_build(iolens_log *log,
                                                   const struct iolens_dxt_options *opts,
                                                   struct iolens_dxt_timeline **out);

/* Free a timeline; NULL is allowed. */
IOLENS_API void iolens_dxt_timeline_free(struct iolens_dxt_timeline *t);

/* ---- insights ---- */

enum iolens_severity { IOLENS_SEV_INFO, IOLENS_SEV_WARN, IOLENS_SEV_HIGH };

/* "info", "warn" or "high". */
IOLENS_API const char *iolens_severity_name(enum iolens_severity sev);

/* One threshold of the insight rules: its key ("small-io.size"), default,
 * unit, where it comes from ("Drishti" or "iolens") and meaning. */
struct iolens_threshold_info {
    const char *key;
    double value;
    const char *unit;
    const char *source;
    const char *meaning;
};

/* One insight rule: its id, severity when it fires, what it detects and
 * what to change, per interface (NULL where nothing specific applies). */
struct iolens_rule_info {
    const char *id;
    enum iolens_severity severity;
    const char *meaning;
    const char *rec_posix, *rec_stdio, *rec_mpiio, *rec_hdf5;
};

/* Rule i of the table (0, 1, ...). @return it, or NULL past the last. */
IOLENS_API const struct iolens_rule_info *iolens_insight_rule(size_t i);

/* The thresholds, in table order. @return their number. */
IOLENS_API size_t iolens_insight_thresholds(const struct iolens_threshold_info **out);

/* Threshold values, one per threshold in table order. */
typedef struct iolens_insight_config iolens_insight_config;

/* A configuration holding every default. @return it, or NULL (no memory). */
IOLENS_API iolens_insight_config *iolens_insight_config_new(void);

/* Free a configuration; NULL is allowed. */
IOLENS_API void iolens_insight_config_free(iolens_insight_config *c);

/* Set one threshold from "KEY=VALUE" (spaces around '=' allowed).
 * @return IOLENS_OK, or IOLENS_ERR_ARGUMENT with a reason in detail. */
IOLENS_API iolens_status iolens_insight_config_set(iolens_insight_config *c, const char *assignment,
                                                   char *detail, size_t detail_len);

/* Set thresholds from a text of "KEY = VALUE" lines ('#' starts a comment,
 * blank lines allowed), e.g. a file's contents of len bytes.
 * @return IOLENS_OK, or IOLENS_ERR_ARGUMENT with "line N: reason" in detail. */
IOLENS_API iolens_status iolens_insight_config_parse(iolens_insight_config *c, const char *text,
                                                     size_t len, char *detail, size_t detail_len);

/* The value of a threshold. @return it, or NAN for an unknown key. */
IOLENS_API double iolens_insight_config_get(const iolens_insight_config *c, const char *key);

/* One figure of a finding's evidence: a count, a share (0..1), bytes,
 * seconds, or a text. */
enum iolens_evidence_kind { IOLENS_EV_COUNT, IOLENS_EV_SHARE, IOLENS_EV_BYTES, IOLENS_EV_SECONDS,
                            IOLENS_EV_TEXT };

struct iolens_evidence {
    const char *key;            /* e.g. "small_writes" */
    enum iolens_evidence_kind kind;
    double value;
    char text[64];              /* IOLENS_EV_TEXT */
};

#define IOLENS_FINDING_MAX_EVIDENCE 12
#define IOLENS_FINDING_MAX_FILES 5
#define IOLENS_FINDING_MAX_RANKS 8

/* A file a finding names, with the figure that put it there. */
struct iolens_finding_file {
    const char *name;           /* points into the summary; "<unknown>" if unnamed */
    const char *figure;         /* what value is, e.g. "small_writes" */
    double value;
};

/* Where in the program a finding's operations were made. Logs carry no call
 * sites yet (a later issue adds them); findings have none for now. */
struct iolens_call_site {
    const char *function;
    const char *file;
    int line;
};

struct iolens_finding {
    const struct iolens_rule_info *rule;   /* id, severity, recommendations */
    enum iolens_severity severity;
    char summary[256];                     /* one line for people */
    const char *iface;                     /* the interface judged: "POSIX", ... */
    struct iolens_evidence evidence[IOLENS_FINDING_MAX_EVIDENCE];
    size_t nevidence;
    struct iolens_finding_file files[IOLENS_FINDING_MAX_FILES];
    size_t nfiles;
    int64_t more_files;                    /* files involved beyond those listed */
    int64_t ranks[IOLENS_FINDING_MAX_RANKS];
    size_t nranks;
    const struct iolens_call_site *call_sites;
    size_t ncall_sites;
};

/* The findings of a summary under a configuration (NULL: the defaults),
 * highest severity first, then in rule table order. The findings point into
 * s, which must outlive them.
 * @return IOLENS_OK with *out (free with iolens_findings_free) and *n set,
 *         or IOLENS_ERR_NOMEM. */
IOLENS_API iolens_status iolens_insights(const struct iolens_summary *s,
                                         const iolens_insight_config *c,
                                         struct iolens_finding **out, size_t *n);

/* Free what iolens_insights returned; NULL is allowed. */
IOLENS_API void iolens_findings_free(struct iolens_finding *f);

#ifdef __cplusplus
}
#endif
#endif
