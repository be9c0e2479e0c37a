/* iolens export's parts: one writer per format over one read pass of a log,
 * and what they share (a record's named values, JSON and CSV text). */
#ifndef IOLENS_CLI_EXPORT_H
#define IOLENS_CLI_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "iolens/log.h"

/* The log being exported. Names are loaded; records are read one at a time. */
struct export_ctx {
    iolens_log *log;
    const struct iolens_log_info *in;
    const char *path; /* the log, for messages */
    const char *out;  /* -o: a file (json, perfetto; NULL or "-": stdout) or a directory (csv) */
};

/* One named value of a record: a counter, an id it refers to, or a text. */
struct export_value {
    const char *name;
    enum { EXPORT_I64, EXPORT_U64, EXPORT_F64, EXPORT_TEXT } kind;
    int64_t i;
    uint64_t u;
    double f;
    const char *text;
};

/* Scratch memory of export_each_value, kept across records; zero it first. */
struct export_scratch {
    char *text;
    size_t len;
};

/* Call fn for each named value of a record of a non-trace module, in a
 * fixed order: for a fixed-size module, the other records' ids among its
 * head words ("file_rec_id"), every counter and fcounter of its tables and
 * its raw uuids ("uuid_0", ...); for a variable-size one (HEATMAP, LUSTRE,
 * MDHIM), the counter lines its printer prints, as darshan-parser names them.
 * @return 0, the first non-zero value of fn, or -1 when out of memory. */
int export_each_value(const struct iolens_module_desc *mod, const void *rec,
                      struct export_scratch *s,
                      int (*fn)(const struct export_value *v, void *arg), void *arg);

void export_scratch_free(struct export_scratch *s);

/* Write v in decimal. */
void export_i64(FILE *out, int64_t v);
void export_u64(FILE *out, uint64_t v);

/* Write v as text that reads back as the same double ("null" if not finite
 * in JSON, "" in CSV, when json is 0). */
void export_double(FILE *out, double v, int json);

/* Write a value as JSON (json 1) or as a CSV field (json 0). */
void export_value_write(FILE *out, const struct export_value *v, int json);

/* Write s as one CSV field, quoted when it holds a comma, quote or line break. */
void export_csv_field(FILE *out, const char *s);

/* Open ctx->out for writing (stdout for NULL or "-").
 * @return the stream, or NULL after printing the reason. */
FILE *export_open_output(const struct export_ctx *ctx);

/* Flush and close a stream export_open_output gave.
 * @return 0, or 1 after printing the reason. */
int export_close_output(const struct export_ctx *ctx, FILE *f);

/* Remove a half-written output after a failure, if it is a regular file. */
void export_discard_output(const struct export_ctx *ctx);

/* The formats: each writes the whole log. @return 0, or 1 after printing the reason. */
int export_json(const struct export_ctx *ctx);
int export_csv(const struct export_ctx *ctx);
int export_perfetto(const struct export_ctx *ctx);

#endif
