/* Printing records in darshan-parser's tab-separated form. */
#include <inttypes.h>
#include <string.h>

#include "iolens/module.h"

void iolens_print_counters(FILE *out, const struct iolens_module_desc *mod,
                           const void *rec, const struct iolens_print_ctx *ctx)
{
    const unsigned char *base = rec;
    struct iolens_record_base b;
    memcpy(&b, rec, sizeof(b));

    for (size_t i = 0; i < mod->ncounters; i++) {
        int64_t v;
        memcpy(&v, base + mod->counters_offset + 8 * i, 8);
        if (mod->counters[i].kind == IOLENS_U64)
            fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%" PRIu64 "\t%s\t%s\t%s\n", mod->name,
                    b.rank, b.id, mod->counters[i].name, (uint64_t)v, ctx->name, ctx->mnt_pt,
                    ctx->fs_type);
        else
            fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%" PRId64 "\t%s\t%s\t%s\n", mod->name,
                    b.rank, b.id, mod->counters[i].name, v, ctx->name, ctx->mnt_pt,
                    ctx->fs_type);
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        double v;
        memcpy(&v, base + mod->fcounters_offset + 8 * i, 8);
        fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%f\t%s\t%s\t%s\n", mod->name, b.rank,
                b.id, mod->fcounters[i].name, v, ctx->name, ctx->mnt_pt, ctx->fs_type);
    }
}
