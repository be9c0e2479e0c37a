/* Printing records in darshan-parser's tab-separated form. Each line is
 * "<module>\t<rank>\t<id>\t<counter>\t<value>\t<name>\t<mount>\t<fs>"; the parts
 * shared by every line of a record are formatted once, and numbers are
 * formatted by hand (identically to printf), since large logs print tens of
 * millions of such lines. */
#include <string.h>

#include "../common/numfmt.h"
#include "iolens/module.h"

/* Append s to the line at *pos, or to the stream when the line is full. */
static void put(FILE *out, char *line, size_t cap, size_t *pos, const char *s, size_t n)
{
    if (*pos + n > cap) {
        fwrite(line, 1, *pos, out);
        *pos = 0;
        if (n > cap) {
            fwrite(s, 1, n, out);
            return;
        }
    }
    memcpy(line + *pos, s, n);
    *pos += n;
}

void iolens_print_counters(FILE *out, const struct iolens_module_desc *mod,
                           const void *rec, const struct iolens_print_ctx *ctx)
{
    const unsigned char *base = rec;
    struct iolens_record_base b;
    char head[128], num[IOL_NUMFMT_MAX], line[4096];
    size_t hn = 0, pos = 0, nn;

    memcpy(&b, rec, sizeof(b));
    nn = strlen(mod->name);
    memcpy(head, mod->name, nn);
    hn = nn;
    head[hn++] = '\t';
    hn += iol_fmt_i64(head + hn, b.rank);
    head[hn++] = '\t';
    hn += iol_fmt_u64(head + hn, b.id);
    head[hn++] = '\t';

    size_t total = mod->ncounters + mod->nfcounters;
    for (size_t i = 0; i < total; i++) {
        const struct iolens_counter *c;
        const unsigned char *at;
        if (i < mod->ncounters) {
            c = &mod->counters[i];
            at = base + mod->counters_offset + 8 * i;
        } else {
            c = &mod->fcounters[i - mod->ncounters];
            at = base + mod->fcounters_offset + 8 * (i - mod->ncounters);
        }
        if (c->kind == IOLENS_F64) {
            double d;
            memcpy(&d, at, 8);
            nn = iol_fmt_f6(num, d);
        } else {
            int64_t v;
            memcpy(&v, at, 8);
            nn = c->kind == IOLENS_U64 ? iol_fmt_u64(num, (uint64_t)v) : iol_fmt_i64(num, v);
        }
        put(out, line, sizeof(line), &pos, head, hn);
        put(out, line, sizeof(line), &pos, c->name, strlen(c->name));
        put(out, line, sizeof(line), &pos, "\t", 1);
        put(out, line, sizeof(line), &pos, num, nn);
        put(out, line, sizeof(line), &pos, "\t", 1);
        put(out, line, sizeof(line), &pos, ctx->name, strlen(ctx->name));
        put(out, line, sizeof(line), &pos, "\t", 1);
        put(out, line, sizeof(line), &pos, ctx->mnt_pt, strlen(ctx->mnt_pt));
        put(out, line, sizeof(line), &pos, "\t", 1);
        put(out, line, sizeof(line), &pos, ctx->fs_type, strlen(ctx->fs_type));
        put(out, line, sizeof(line), &pos, "\n", 1);
    }
    fwrite(line, 1, pos, out);
}
