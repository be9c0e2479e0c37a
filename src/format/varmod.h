/* Building blocks for the variable-size module decoders (LUSTRE, HEATMAP,
 * DXT): bounded reading of a record's variable part, and darshan-parser's
 * counter lines (internal to the log library). */
#ifndef IOLENS_FORMAT_VARMOD_H
#define IOLENS_FORMAT_VARMOD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log_internal.h"

/* Bytes taken by count items of size bytes, if count is a plausible length
 * field: 0 <= count and head + count * size <= IOL_MAX_RECORD_BYTES.
 * @return 0 and *bytes set, or -1 when the count cannot be right. */
int iol_var_span(int64_t count, size_t size, size_t head, size_t *bytes);

/* Read the next n bytes of the current record from rg into out at offset off.
 * out grows only as the bytes arrive (never past about twice what the region
 * has actually produced), so a hostile length field costs no memory that the
 * file does not back. out->size is not changed.
 * @return IOLENS_OK; IOLENS_ERR_TRUNCATED if the region ends first;
 *         IOLENS_ERR_CORRUPT past out's cap; or a read error. */
iolens_status iol_var_read_more(struct iolens_region *rg, struct iolens_recbuf *out, size_t off,
                                size_t n);

/* Read the fixed head (n bytes) of the next record into out->data.
 * @return IOLENS_OK, IOLENS_END at the region's clean end, IOLENS_ERR_TRUNCATED
 *         if it ends part-way, or an error. */
iolens_status iol_var_read_head(struct iolens_region *rg, struct iolens_recbuf *out, size_t n);

/* One darshan-parser line "<mod>\t<rank>\t<id>\t<counter>\t<value>\t<name>\t<mount>\t<fs>"
 * with an integer ("%" PRId64), float ("%f") or string value. Not defined in
 * the runtime's copy (IOLENS_RUNTIME_IO, sysio.h): the runtime prints
 * nothing, and in it the stdio names are its own wrappers. */
void iol_var_line_i64(FILE *out, const char *mod, const struct iolens_record_base *b,
                      const char *counter, int64_t v, const struct iolens_print_ctx *ctx);
void iol_var_line_f64(FILE *out, const char *mod, const struct iolens_record_base *b,
                      const char *counter, double v, const struct iolens_print_ctx *ctx);
void iol_var_line_str(FILE *out, const char *mod, const struct iolens_record_base *b,
                      const char *counter, const char *v, const struct iolens_print_ctx *ctx);

#endif
