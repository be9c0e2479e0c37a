/* Building blocks for the variable-size module decoders. */
#include <inttypes.h>

#include "varmod.h"

/* Bytes read per step while a record's variable part arrives. */
#define VAR_STEP ((size_t)64 * 1024)

int iol_var_span(int64_t count, size_t size, size_t head, size_t *bytes)
{
    if (count < 0 || head > IOL_MAX_RECORD_BYTES)
        return -1;
    if ((uint64_t)count > (IOL_MAX_RECORD_BYTES - head) / size)
        return -1;
    *bytes = (size_t)count * size;
    return 0;
}

iolens_status iol_var_read_more(struct iolens_region *rg, struct iolens_recbuf *out, size_t off,
                                size_t n)
{
    size_t done = 0;

    while (done < n) {
        /* Grow by what has already arrived (at least one step): doubling,
         * but only ever backed by bytes the region really produced. */
        size_t want = done > VAR_STEP ? done : VAR_STEP;
        if (want > n - done)
            want = n - done;
        iolens_status st = iol_recbuf_reserve(out, off + done + want);
        if (st != IOLENS_OK)
            return st;
        st = iol_region_read_exact(rg, out->data + off + done, want);
        if (st == IOLENS_END)
            return IOLENS_ERR_TRUNCATED;
        if (st != IOLENS_OK)
            return st;
        done += want;
    }
    return IOLENS_OK;
}

iolens_status iol_var_read_head(struct iolens_region *rg, struct iolens_recbuf *out, size_t n)
{
    iolens_status st = iol_recbuf_reserve(out, n);
    if (st != IOLENS_OK)
        return st;
    return iol_region_read_exact(rg, out->data, n);
}

#ifndef IOLENS_RUNTIME_IO /* see varmod.h */
void iol_var_line_i64(FILE *out, const char *mod, const struct iolens_record_base *b,
                      const char *counter, int64_t v, const struct iolens_print_ctx *ctx)
{
    fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%" PRId64 "\t%s\t%s\t%s\n", mod, b->rank,
            b->id, counter, v, ctx->name, ctx->mnt_pt, ctx->fs_type);
}

void iol_var_line_f64(FILE *out, const char *mod, const struct iolens_record_base *b,
                      const char *counter, double v, const struct iolens_print_ctx *ctx)
{
    fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%f\t%s\t%s\t%s\n", mod, b->rank, b->id,
            counter, v, ctx->name, ctx->mnt_pt, ctx->fs_type);
}

void iol_var_line_str(FILE *out, const char *mod, const struct iolens_record_base *b,
                      const char *counter, const char *v, const struct iolens_print_ctx *ctx)
{
    fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%s\t%s\t%s\t%s\n", mod, b->rank, b->id,
            counter, v, ctx->name, ctx->mnt_pt, ctx->fs_type);
}
#endif
