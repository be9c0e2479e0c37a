/* Module ids and module descriptors: what the log library knows about each
 * kind of record (name, version, counters, how to decode and print it). */
#ifndef IOLENS_MODULE_H
#define IOLENS_MODULE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iolens/api.h"
#include "iolens/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of per-region state a variable-size module's read hook may keep. */
#define IOL_READ_STATE_BYTES 64

/* Maximum number of module slots in a log header (format 3.41). */
#define IOLENS_MAX_MODS 64

/* Every module id of the format, in id order: X(ENUM_SUFFIX, "log name").
 * Ids are positions in this list and are fixed by the format. */
#define IOLENS_MODULE_IDS(X) \
    X(NULL, "NULL") \
    X(POSIX, "POSIX") \
    X(MPIIO, "MPI-IO") \
    X(H5F, "H5F") \
    X(H5D, "H5D") \
    X(PNETCDF_FILE, "PNETCDF_FILE") \
    X(PNETCDF_VAR, "PNETCDF_VAR") \
    X(BGQ, "BG/Q") \
    X(LUSTRE, "LUSTRE") \
    X(STDIO, "STDIO") \
    X(DXT_POSIX, "DXT_POSIX") \
    X(DXT_MPIIO, "DXT_MPIIO") \
    X(MDHIM, "MDHIM") \
    X(APXC, "APXC") \
    X(APMPI, "APMPI") \
    X(HEATMAP, "HEATMAP") \
    X(DFS, "DFS") \
    X(DAOS, "DAOS")

/* Module ids iolens adds beyond Darshan's: X(ENUM_SUFFIX, "log name", id).
 * Darshan numbers its modules up from 0 in the order above; iolens numbers
 * its own down from the top of the 64-slot module map (63, 62, ...), so the
 * two never meet. darshan-parser skips an id at or above its known count with
 * a warning ("module id 63 is unknown"), PyDarshan 3.5.0 cannot read such a
 * log at all; docs/log-format.md, "Module ids iolens adds". */
#define IOLENS_EXTRA_MODULE_IDS(X) \
    X(DXT_STDIO, "DXT_STDIO", 63) \
    X(CALLSITES, "CALLSITES", 62)

typedef enum iolens_module_id {
#define IOLENS_X_ID(suffix, name) IOLENS_MOD_##suffix,
    IOLENS_MODULE_IDS(IOLENS_X_ID)
#undef IOLENS_X_ID
    /* Darshan's ids are those below this one. */
    IOLENS_MOD_KNOWN_COUNT,
#define IOLENS_X_EXTRA_ID(suffix, name, id) IOLENS_MOD_##suffix = (id),
    IOLENS_EXTRA_MODULE_IDS(IOLENS_X_EXTRA_ID)
#undef IOLENS_X_EXTRA_ID
} iolens_module_id;

/* Module ids Darshan 3.5.0's tools know: those below this one. */
#define IOLENS_MOD_DARSHAN_3_5_COUNT (IOLENS_MOD_DAOS + 1)

/* Lowest id iolens has taken from the top of the map: Darshan's modules must
 * stay below it (checked where the module table is built). */
#define IOLENS_MOD_EXTRA_LOWEST IOLENS_MOD_CALLSITES

/* How a counter's 8 bytes are to be read. */
enum iolens_value_kind {
    IOLENS_I64, /* signed integer; -1 means "not monitored" */
    IOLENS_U64, /* unsigned integer (record ids) */
    IOLENS_F64, /* double: seconds or timestamps */
};

/* How records of one file combine into one (include/iolens/combine.h: the
 * totals of darshan-parser and the MPI runtime's shared-record reduction). */
enum iolens_merge {
    IOLENS_MERGE_SUM,         /* add; a negative integer sum becomes -1 in the totals only */
    IOLENS_MERGE_LAST,        /* take the incoming value */
    IOLENS_MERGE_MAX,         /* larger value */
    IOLENS_MERGE_MIN_NONZERO, /* smaller positive value (start timestamps) */
    IOLENS_MERGE_MAX_PAIRED,  /* larger value; carries its paired counter along */
    IOLENS_MERGE_PAIRED,      /* set together with the counter it is paired with */
    IOLENS_MERGE_TOP4,        /* head of a 4 values + 4 counts "most common" group */
    IOLENS_MERGE_FASTEST,     /* fastest rank's time; carries rank and bytes */
    IOLENS_MERGE_SLOWEST,     /* slowest rank's time; carries rank and bytes */
    IOLENS_MERGE_ZERO,        /* not derivable from the inputs: reset to 0 */
    /* Rules of the BG/Q, HDF5, PnetCDF and MDHIM modules' aggregation. */
    IOLENS_MERGE_FIRST,       /* keep the first record's value */
    IOLENS_MERGE_UNSET,       /* the aggregation leaves it out: -1 */
    IOLENS_MERGE_FLAG,        /* becomes 1 once any input is positive, else unchanged */
    IOLENS_MERGE_TOP4_TUPLE,  /* head of 4 tuples of 11 words (size, 5 lengths, 5 strides)
                               * then their 4 counts: TOP4 comparing whole tuples; an
                               * incoming group whose first size is 0 is ignored */
    IOLENS_MERGE_FASTEST_OWN, /* like FASTEST, but every input (shared or not, any file)
                               * offers its own rank, bytes read+written and
                               * read+write+meta time */
    IOLENS_MERGE_SLOWEST_OWN, /* the same for the slowest input */
    IOLENS_MERGE_VARIANCE_TIME,  /* population variance over inputs of read+write+meta time */
    IOLENS_MERGE_VARIANCE_BYTES, /* population variance over inputs of bytes read+written */
    IOLENS_MERGE_COUNT,       /* add; a negative integer sum ("not monitored") becomes -1 in
                               * the totals and in the runtime's reduction */
    IOLENS_MERGE_UNSET_SUM,   /* added by the runtime's reduction; the aggregation leaves
                               * it out (UNSET): PnetCDF's non-blocking counts */
};

/* One counter of a module: its name as printed, kind, merge rule, meaning. */
struct iolens_counter {
    const char *name;
    unsigned char kind;  /* enum iolens_value_kind */
    unsigned char merge; /* enum iolens_merge */
    const char *desc;
};

/* Id and rank every record starts with; rank -1 marks a record shared by all ranks. */
struct iolens_record_base {
    uint64_t id;
    int64_t rank;
};

/* One in-place edit applied to an old record layout, seen as 8-byte words,
 * to move it one version closer to the newest layout. */
struct iolens_edit {
    unsigned short at;    /* word index where the edit applies */
    short count;          /* > 0: insert that many words; < 0: delete -count words */
    unsigned char fill;   /* for inserts: enum iolens_fill */
};

/* Values that up-conversion writes into counters an old version lacked. */
enum iolens_fill { IOLENS_FILL_ZERO, IOLENS_FILL_MINUS_ONE, IOLENS_FILL_MINUS_ONE_F };

/* How to read one old version of a fixed-size record: its size in 8-byte
 * words, and the edits that turn it into the next version's layout. */
struct iolens_layout {
    uint32_t version;
    unsigned short words;
    unsigned short skip_word; /* if not 0: records whose word here is > 0 cannot
                               * be converted and are skipped */
    unsigned char nedits;
    struct iolens_edit edits[6];
};

/* Module-wide exceptions to the merge rules (bits of iolens_module_roles.flags). */
enum iolens_role_flags {
    /* The module has totals, file counts and performance figures (what
     * darshan-parser's --total, --file and --perf print). */
    IOLENS_ROLE_METRICS = 1 << 0,
    /* Integer SUM and COUNT keep a negative result instead of making it -1
     * (Darshan's MPI-IO and STDIO aggregation and reduction). */
    IOLENS_ROLE_SUM_UNCLAMPED = 1 << 1,
    /* In the totals, a TOP4 group is left alone when the incoming record's
     * first value is 0 (Darshan's MPI-IO aggregation). */
    IOLENS_ROLE_TOP4_NEEDS_HEAD = 1 << 2,
    /* The totals leave VARIANCE_* counters 0 (Darshan's POSIX, MPI-IO and
     * STDIO aggregation); only the runtime's reduction computes them. */
    IOLENS_ROLE_TOTAL_NO_VARIANCE = 1 << 3,
};

/* Which counter of a module has a fixed meaning: its index + 1, or 0 when the
 * module has no such counter. Being 0, an absent role is simply left out of a
 * designated initialiser. Set with IOLENS_ROLE(index), read with
 * iolens_role_index(); a set role is non-zero, so `if (r->c_bytes_read)` asks
 * whether the module has it. */
typedef unsigned short iolens_role;

/* The role of the counter (or fcounter) with index i, an enum value of the
 * module's header: `.c_bytes_read = IOLENS_ROLE(POSIX_BYTES_READ)`. */
#define IOLENS_ROLE(i) ((iolens_role)((i) + 1))

/* The counter index a role names.
 * @return the index into the module's counters or fcounters, or -1 for none. */
static inline int iolens_role_index(iolens_role role)
{
    return (int)role - 1;
}

/* Counters with a fixed meaning that the combining engine and the accumulator
 * need: c_ members name counters, f_ members fcounters. A member a module
 * leaves out (0) means it has no such counter. tests/unit/test_merge.c checks
 * every module's roles: each one set names a counter of the matching name and
 * merge rule, and no counter of such a name and rule is left without its role. */
struct iolens_module_roles {
    iolens_role c_bytes_read, c_bytes_written;
    iolens_role c_max_byte_read, c_max_byte_written;   /* 0: the module keeps no offsets */
    iolens_role f_read_time, f_write_time, f_meta_time;
    iolens_role f_max_read_time, c_max_read_time_size;   /* MAX_PAIRED and its companion */
    iolens_role f_max_write_time, c_max_write_time_size;
    iolens_role f_fastest_time, c_fastest_rank, c_fastest_rank_bytes; /* FASTEST and companions */
    iolens_role f_slowest_time, c_slowest_rank, c_slowest_rank_bytes; /* SLOWEST and companions */
    unsigned flags;                                      /* enum iolens_role_flags */
};

struct iolens_region;
struct iolens_recbuf;
struct iolens_print_ctx;

/* Everything the library knows about one module. A module is one const
 * descriptor plus one line in the module table (src/format/module_table.c). */
struct iolens_module_desc {
    iolens_module_id id;
    const char *name;         /* as printed in logs and by the tools */
    uint32_t version;         /* newest record version; what callers see */
    /* The record version Darshan 3.5.0's tools read, when older than version:
     * encode writes it too, for logs of IOLENS_COMPAT_DARSHAN_3_5 (DXT: the
     * segments without thread ids). 0: they read version, or (a module iolens
     * adds) none. */
    uint32_t darshan_3_5_version;
    size_t record_size;       /* bytes of a decoded fixed-size record; 0 if variable */
    const char *summary;      /* one line: what the module records */
    const char *legend_name;  /* as in "# description of <legend_name> counters:" */

    /* Counter tables (may be empty) and where the arrays sit in a record. */
    const struct iolens_counter *counters;
    size_t ncounters;
    size_t counters_offset;
    const struct iolens_counter *fcounters;
    size_t nfcounters;
    size_t fcounters_offset;

    /* Fixed-size modules: 8-byte words before the counters (id, rank and any
     * extra ids), trailing raw bytes that are never byte-swapped (uuids),
     * and the older layouts this library up-converts, oldest first. */
    unsigned short head_words;
    unsigned short tail_bytes;
    const struct iolens_layout *layouts;
    size_t nlayouts;

    /* Fixed-size modules: adjust a record after the tables decoded it, for
     * conversions the edits cannot express (a sum of two old counters, fields
     * that are not plain 8-byte words). NULL when nothing is left to do. */
    void (*fixup)(void *rec, uint32_t ver, int swap);

    /* Variable-size modules: decode the next record of a region of version
     * ver (byte-swapped if swap) into out. state is IOL_READ_STATE_BYTES of
     * zeroed memory private to the module, kept from the region's first record
     * to its last (e.g. to hold later records to the first one's shape).
     * NULL for fixed-size modules, which the library decodes from the tables.
     * @return IOLENS_OK with a record, IOLENS_END at the region's end, or an error. */
    iolens_status (*read)(struct iolens_region *rg, uint32_t ver, int swap, void *state,
                          struct iolens_recbuf *out);

    /* Encode a decoded record for writing, in host byte order, at record
     * version ver: version, or darshan_3_5_version when that is set (the
     * writer asks for no other). NULL for fixed-size modules (the record is
     * written as is).
     * @return IOLENS_OK and the encoding in out, or an error. */
    iolens_status (*encode)(const void *rec, uint32_t ver, struct iolens_recbuf *out);

    /* Print one decoded record the way darshan-parser prints it (trace
     * modules: darshan-dxt-parser). NULL for modules whose records are
     * printed generically from the counter tables. */
    void (*print)(FILE *out, const void *rec, const struct iolens_print_ctx *ctx);

    /* Counters with a fixed role (bytes, times, slowest rank...), for merging
     * records and for derived metrics. NULL if the module has none; such a
     * module's counter tables must then use no MAX_PAIRED, FASTEST or SLOWEST rule. */
    const struct iolens_module_roles *roles;

    /* Variable-size modules: bytes of the decoded record rec. Such a record is
     * one contiguous block without pointers, so copying that many bytes copies
     * it. NULL for fixed-size modules, whose records are record_size bytes. */
    size_t (*var_size)(const void *rec);

    /* How the command-line tools (src/cli) treat the module's records, so
     * that they loop over the module table instead of naming modules. Each
     * member is 0 or NULL for an ordinary module. */

    /* Printed in place of a record's name when the log names no record of
     * its id (BG/Q: "darshan-bgq-record", its one record describing the
     * machine rather than a file). NULL: "(null)". */
    const char *default_name;

    /* 1 for a DXT trace module: `iolens dxt` prints its records with print
     * under a "# <name> module data" banner, as darshan-dxt-parser does, and
     * `iolens parse` skips them, as darshan-parser does. */
    unsigned char trace;

    /* Trace modules: id of the module whose record of the same file gives
     * the file's layout (DXT_POSIX: LUSTRE, the striping), handed to print
     * as ctx->layout; IOLENS_MOD_NULL for none. `iolens dxt` reads modules
     * in id order, so it must be lower than the trace module's own id. */
    iolens_module_id layout_module;

    /* 1 when the records only summarise other modules' records (HEATMAP):
     * `iolens run` does not count them as I/O a process did of its own. */
    unsigned char summarises_others;
};

/* Where a printed record's name, mount point and file-system type come from. */
struct iolens_print_ctx {
    const char *name;     /* record name, or a placeholder when unknown */
    const char *mnt_pt;
    const char *fs_type;
    const void *layout;   /* trace modules: the file's record of the descriptor's
                           * layout_module, or NULL when there is none */
};

/* Which tools a log is written for (docs/log-format.md, "Reading iolens
 * logs with Darshan's tools"). */
typedef enum iolens_log_compat {
    /* Every module at its newest record version (DXT with thread ids), and
     * the modules iolens adds: iolens and Darshan's development branch. */
    IOLENS_COMPAT_NEWEST = 0,
    /* Only what Darshan 3.5.0's tools (and PyDarshan 3.5.0) read whole: each
     * module at its darshan_3_5_version if it has one, and no module they do
     * not know (an id at or above IOLENS_MOD_DARSHAN_3_5_COUNT: those iolens
     * adds). */
    IOLENS_COMPAT_DARSHAN_3_5 = 1,
} iolens_log_compat;

/* The record version a log written for compat holds mod's records at.
 * @return the version, or 0 when such a log leaves the module out. */
IOLENS_API uint32_t iolens_module_compat_version(const struct iolens_module_desc *mod,
                                                 iolens_log_compat compat);

/* Look up the descriptor of a module id (any id below IOLENS_MAX_MODS).
 * @return the descriptor, or NULL if id has no definition in this library. */
IOLENS_API const struct iolens_module_desc *iolens_module(int id);

/* Name of a module id as logs print it, also for ids without a descriptor.
 * @return a static string, or NULL past the known ids. */
IOLENS_API const char *iolens_module_name(int id);

/* Print one record generically: one line per counter in darshan-parser's
 * tab-separated form. Used for fixed-size modules and by custom printers. */
IOLENS_API void iolens_print_counters(FILE *out, const struct iolens_module_desc *mod,
                           const void *rec, const struct iolens_print_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
