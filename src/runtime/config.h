/* Runtime settings, read once from the environment at start-up.
 * Every variable is documented in docs/runtime.md. */
#ifndef IOL_RT_CONFIG_H
#define IOL_RT_CONFIG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define IOL_MAX_EXCLUDES 64

/* Records each module keeps by default: holds 100,000 files without settings. */
#define IOL_DEFAULT_MAX_RECORDS 131072u
/* Bytes of record names by default (32 MiB: 100,000 paths of ~300 characters). */
#define IOL_DEFAULT_NAME_MEM ((size_t)32 << 20)
/* Memory alignment the POSIX records report (Darshan's configure default). */
#define IOL_DEFAULT_MEM_ALIGNMENT 8

struct iol_config {
    int disabled;                 /* IOLENS_DISABLE / DARSHAN_DISABLE */
    char logpath[PATH_MAX];       /* directory for logs, "" if unset */
    char logfile[PATH_MAX];       /* exact log file name, "" if unset */
    char mmap_dir[PATH_MAX];      /* record file directory: /dev/shm, else /tmp */
    size_t mod_mem;               /* bytes of module records in all; 0: no limit */
    size_t name_mem;              /* bytes of record names */
    uint32_t max_records;         /* records per module */
    int mem_alignment;            /* for POSIX_MEM_ALIGNMENT and MEM_NOT_ALIGNED */
    char jobid_env[64];           /* variable holding the job id, "" for the usual list */
    int user_excludes;            /* 1: excludes[] came from the environment */
    size_t nexcludes;
    const char *excludes[IOL_MAX_EXCLUDES]; /* path prefixes not instrumented */
    char exclude_text[4096];      /* storage behind excludes[] */
};

/* Fill c from the environment (IOLENS_* first, then the DARSHAN_* names).
 * Never allocates; unparsable numbers keep the defaults. */
void iol_config_load(struct iol_config *c);

/* Look up an environment variable by its iolens name, then its Darshan name.
 * @return the value, or NULL if neither is set (or both are empty). */
const char *iol_config_env(const char *iolens_name, const char *darshan_name);

#endif
