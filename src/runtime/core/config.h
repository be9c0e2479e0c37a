/* Runtime settings, read once at start-up: first from the config file named
 * by IOLENS_CONFIG_PATH (or DARSHAN_CONFIG_PATH), then from the environment,
 * which wins. Every key and variable is a row of settings.h's table, which
 * also gives docs/runtime.md its settings table. */
#ifndef IOL_RT_CONFIG_H
#define IOL_RT_CONFIG_H

#include <limits.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/module.h"

#define IOL_MAX_EXCLUDES 64     /* path prefixes excluded */
#define IOL_MAX_INCLUDES 32     /* path prefixes included despite an exclusion */
#define IOL_MAX_NAME_RULES 64   /* NAME_EXCLUDE and NAME_INCLUDE expressions */
#define IOL_MAX_APP_RULES 32    /* APP_EXCLUDE and APP_INCLUDE expressions */
#define IOL_CONFIG_STRINGS 16384 /* bytes of kept strings (prefixes, sources) */

/* Records each module keeps by default: holds 100,000 files without settings. */
#define IOL_DEFAULT_MAX_RECORDS 131072u
/* Largest record limit accepted (IOLENS_MAX_RECORDS, MAX_RECORDS). */
#define IOL_MAX_MAX_RECORDS (1u << 24)
/* Bytes of record names by default (32 MiB: 100,000 paths of ~300 characters). */
#define IOL_DEFAULT_NAME_MEM ((size_t)32 << 20)
/* Bytes of DXT segments by default: 56 MiB, 57,344 chunks, hold 1,032,192
 * segments when each takes the most words (7: a thread change and the long
 * form, 18 a chunk), and about 7 million of one word each (the issue asks
 * for at least 1,000,000 per process). */
#define IOL_DEFAULT_DXT_MEM ((size_t)56 << 20)
/* Memory alignment the POSIX records report (Darshan's configure default). */
#define IOL_DEFAULT_MEM_ALIGNMENT 8

_Static_assert(IOLENS_MOD_KNOWN_COUNT <= 64, "module flags are one 64-bit word");

/* One compiled regular expression of NAME_* or APP_* (POSIX extended). */
struct iol_rule {
    regex_t re;
    uint64_t mods;        /* NAME_*: modules it applies to (bit = module id) */
    int include;          /* 1: an *_INCLUDE rule, which overrides exclusions */
    const char *src;      /* the expression as written (for DUMP_CONFIG) */
};

struct iol_config {
    int disabled;                 /* IOLENS_DISABLE, or the application is excluded */
    int debug;                    /* IOLENS_DEBUG as diag.c read it (for the dump) */
    int app_excluded;             /* 1: APP_EXCLUDE matched (and no APP_INCLUDE) */
    /* The strings below are never NULL; they point into strings[] or at a
     * constant (a struct of PATH_MAX arrays took 5 page faults at start). */
    const char *config_path;      /* the config file read, "" if none */
    const char *logpath;          /* directory for logs, "" if unset */
    const char *logfile;          /* exact log file name, "" if unset */
    const char *mmap_dir;         /* record file directory: /dev/shm, else /tmp */
    size_t mod_mem;               /* bytes of module records in all; 0: no limit */
    size_t name_mem;              /* bytes of record names */
    uint32_t max_records;         /* records per module */
    uint32_t mod_max_records[IOLENS_MOD_KNOWN_COUNT]; /* per module; 0: max_records */
    uint64_t mod_disable;         /* MOD_DISABLE as set (bit = module id) */
    uint64_t mod_enable;          /* MOD_ENABLE as set */
    int dxt_enable_io_trace;      /* DXT_ENABLE_IO_TRACE was set */
    size_t dxt_mem;               /* bytes of DXT segments (DXT_MEM) */
    uint64_t mod_disabled;        /* modules not recorded: the three above, the
                                   * DXT modules' default, and compat_left_out */
    iolens_log_compat log_compat; /* LOG_COMPAT: the tools the logs are written for */
    uint64_t compat_left_out;     /* modules enabled but not recorded: a log for
                                   * log_compat cannot hold them */
    int mem_alignment;            /* for POSIX_MEM_ALIGNMENT and MEM_NOT_ALIGNED */
    const char *jobid_env;        /* variable holding the job id, "" for the usual list */
    int user_excludes;            /* 1: excludes[] were set (file or environment) */
    size_t nexcludes;
    const char *excludes[IOL_MAX_EXCLUDES]; /* path prefixes not instrumented */
    int user_includes;            /* 1: includes[] were set (file or environment) */
    size_t nincludes;
    const char *includes[IOL_MAX_INCLUDES]; /* prefixes kept although excluded */
    size_t nname_rules;
    size_t napp_rules;
    /* The DXT triggers (dxt/dxt.c), and the MPI runtime's rank lists. */
    double dxt_small_io_trigger;     /* DXT_SMALL_IO_TRIGGER fraction, < 0: unset */
    double dxt_unaligned_io_trigger; /* DXT_UNALIGNED_IO_TRIGGER fraction, < 0: unset */
    const char *rank_exclude;     /* RANK_EXCLUDE list, NULL if unset */
    const char *rank_include;     /* RANK_INCLUDE list, NULL if unset */
    const char *log_hints;        /* LOGHINTS (MPI-IO hints of the job log), "" for
                                   * none, NULL if unset (libiolens-mpi.so's default) */
    int dump_config;              /* DUMP_CONFIG: print the settings at start */
    int internal_timing;          /* INTERNAL_TIMING: print start and end times */
    int disable_shared_reduction; /* DISABLE_SHARED_REDUCTION */
    int log_per_rank;             /* LOG_PER_RANK */
    /* Live events (events/events.c). */
    const char *events;           /* EVENTS: the sink, "" if off */
    uint64_t events_mods;         /* EVENTS_MODULES (bit = module id) */
    int ldms_enable, ldms_enable_posix, ldms_enable_mpiio, ldms_enable_stdio,
        ldms_enable_hdf5, ldms_enable_all; /* Darshan's DARSHAN_LDMS_ENABLE* */
    const char *ldms_stream, *ldms_xprt, *ldms_host, *ldms_port,
        *ldms_auth; /* Darshan's DARSHAN_LDMS_{STREAM,XPRT,HOST,PORT,AUTH}, "" if unset */
    double events_drain;          /* EVENTS_DRAIN seconds */
    /* Call sites (callsites/callsites.c). */
    int callsites;                /* CALLSITES: the module is on */
    uint32_t callsites_depth;     /* CALLSITES_DEPTH frames, at most 8 */
    uint32_t callsites_max;       /* CALLSITES_MAX sites (and functions) */
    size_t strings_used;
    /* Large and seldom used: last, so that the fields above share a page. */
    struct iol_rule name_rules[IOL_MAX_NAME_RULES];
    struct iol_rule app_rules[IOL_MAX_APP_RULES];
    char strings[IOL_CONFIG_STRINGS]; /* storage behind the const char * above */
};

/* Fill c from the config file, then the environment (IOLENS_* first, then
 * the DARSHAN_* names), as settings.h's table says. Compiles the regular expressions (regcomp allocates);
 * nothing else allocates. Errors are reported with iol_diag and the setting
 * is ignored. Sets c->disabled when the application is excluded. Call once,
 * on zero-filled storage (the runtime's is static: clearing it again would
 * fault in all its pages at every start). */
void iol_config_load(struct iol_config *c);

/* Make the relative LOGPATH, LOGFILE and MMAP_DIR absolute against cwd, the
 * directory the process started in: they keep naming the place they named
 * there after the program changes directory (the record file is reopened by
 * name to grow, and removed by name at the end). One that would not fit in
 * IOL_PATH_MAX bytes is left as it is. */
void iol_config_absolute_paths(struct iol_config *c, const char *cwd);

/* Is module id disabled (MOD_DISABLE)? @return 1 if disabled, else 0. */
int iol_config_mod_disabled(const struct iol_config *c, int mod_id);

/* The record limit of module id: 0 if it is disabled, fixed if the module has
 * a fixed pool (fixed != 0), else its MAX_RECORDS or IOLENS_MAX_RECORDS. */
uint32_t iol_config_max_records(const struct iol_config *c, int mod_id, uint32_t fixed);

/* Is a record name excluded for module mod_id? Path prefixes (EXCLUDE_DIRS,
 * INCLUDE_DIRS) apply when is_path, then NAME_EXCLUDE and NAME_INCLUDE
 * expressions for that module. Called only when a record would be created.
 * @return 1 if excluded, 0 if kept. */
int iol_config_name_excluded(const struct iol_config *c, int mod_id, int is_path,
                             const char *name);

/* Is this MPI rank excluded from recording? It is when RANK_EXCLUDE lists
 * it and RANK_INCLUDE does not (lists of ranks and "start:end" ranges, either
 * end may be left out: 0 and nprocs - 1; "*" is every rank). Malformed items
 * are reported with iol_diag and skipped. @return 1 if excluded, else 0. */
int iol_config_rank_excluded(const struct iol_config *c, int rank, int nprocs);

/* Print the settings on standard error (DUMP_CONFIG), whatever IOLENS_DEBUG:
 * "config: NAME = VALUE", one line per row of settings.h (a list of rules one
 * per rule), then the modules disabled in effect. */
void iol_config_dump(const struct iol_config *c);

#endif
