/* iolens convert's parts: what to keep (modules, records), the record ids a
 * conversion renames, and the pseudonyms of the job's identifying fields. */
#ifndef IOLENS_CLI_CONVERT_H
#define IOLENS_CLI_CONVERT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"

/* A set of record ids, or a map from old to new ids: a sorted array. */
struct id_table {
    uint64_t *from, *to; /* to: NULL for a set */
    size_t n, alloc;
    int sorted;
};

/* Add id (mapped to new_id when the table is a map, made with map = 1).
 * @return 0, or -1 when out of memory. */
int id_table_add(struct id_table *t, int map, uint64_t id, uint64_t new_id);

/* Sort the table for lookups (and drop a set's duplicates).
 * @return 0, or -1 when out of memory. */
int id_table_sort(struct id_table *t);

/* @return the index of id in a sorted table, or -1. */
long id_table_find(const struct id_table *t, uint64_t id);

void id_table_free(struct id_table *t);

/* What `iolens convert` does. */
struct convert_opts {
    const char *in, *out;
    iolens_compression comp;
    const char *key;          /* --obfuscate: the key; NULL: names kept */
    int keep_mounts;          /* --keep-mounts */
    uint64_t modules;         /* bit per module id kept */
    const regex_t *records;   /* --records: names kept; NULL: all */
};

/* The job, command line and mount table as the converted log holds them:
 * with a key, uid, job id and command line become pseudonyms, and so do the
 * mount points unless keep_mounts. */
struct convert_job {
    struct iolens_job job;
    char *exe;                  /* owned */
    struct iolens_mount *mounts; /* owned array; paths owned */
    char **obf_mounts;          /* mounts[i].path, or NULL when kept */
    size_t nmounts;
};

/* Fill cj from the log's info as opts asks. @return 0, or -1 when out of memory. */
int convert_job_make(struct convert_job *cj, const struct iolens_log_info *in,
                     const struct convert_opts *opts);

void convert_job_free(struct convert_job *cj);

/* Replace the record ids a record holds (its own and, for fixed-size
 * modules, the other records' ids among its head words: H5D's and
 * PNETCDF_VAR's file) through map, and a trace record's host name with its
 * pseudonym. Ids the map lacks get pseudonym ids. rec is a writable copy. */
void convert_rename_record(const struct iolens_module_desc *mod, void *rec,
                           const struct id_table *map, const char *key);

/* Call fn(id) for every record id rec refers to (see convert_rename_record).
 * @return 0, or the first non-zero value of fn. */
int convert_record_ids(const struct iolens_module_desc *mod, const void *rec,
                       int (*fn)(uint64_t id, void *arg), void *arg);

#endif
