/* Printing records in darshan-parser's tab-separated form. Each line is
 * "<module>\t<rank>\t<id>\t<counter>\t<value>\t<name>\t<mount>\t<fs>"; the parts
 * shared by every line of a record are formatted once, lines are assembled in
 * one large buffer, and numbers are formatted by hand (identically to printf),
 * since large logs print tens of millions of such lines. */
#include <stdio.h>
#include <string.h>

#include "../common/numfmt.h"
#include "iolens/module.h"

#define PRINT_BUF (16 * 1024) /* on the stack: the runtime links this file too */
#define HEAD_MAX 64   /* module name (< 16) and two 20-digit numbers */
#define LINE_ROOM(hn, cn, tn) ((hn) + (cn) + 1 + IOL_NUMFMT_MAX + (tn))

/* Format counter i of rec (integer or float) at out. @return characters written. */
static size_t format_value(char *out, const struct iolens_counter *c, const unsigned char *at)
{
    if (c->kind == IOLENS_F64) {
        double d;
        memcpy(&d, at, 8);
        return iol_fmt_f6(out, d);
    }
    int64_t v;
    memcpy(&v, at, 8);
    return c->kind == IOLENS_U64 ? iol_fmt_u64(out, (uint64_t)v) : iol_fmt_i64(out, v);
}

/* Append "\t<s>" at p. @return the new end. */
static char *append_field(char *p, const char *s, size_t n)
{
    *p++ = '\t';
    memcpy(p, s, n);
    return p + n;
}

void iolens_print_counters(FILE *out, const struct iolens_module_desc *mod,
                           const void *rec, const struct iolens_print_ctx *ctx)
{
    char buf[PRINT_BUF];
    const unsigned char *base = rec;
    struct iolens_record_base b;
    char head[HEAD_MAX];
    size_t hn, pos = 0;
    size_t name_n = strlen(ctx->name), mnt_n = strlen(ctx->mnt_pt), fs_n = strlen(ctx->fs_type);
    size_t tn = name_n + mnt_n + fs_n + 4;

    memcpy(&b, rec, sizeof(b));
    hn = strlen(mod->name);
    memcpy(head, mod->name, hn);
    head[hn++] = '\t';
    hn += iol_fmt_i64(head + hn, b.rank);
    head[hn++] = '\t';
    hn += iol_fmt_u64(head + hn, b.id);
    head[hn++] = '\t';

    /* The tail "\t<name>\t<mount>\t<fs>\n" is copied from the buffer's end,
     * where it is built once; a tail too long for that goes out directly. */
    int tail_in_buf = tn <= PRINT_BUF / 4;
    char *tail = buf + PRINT_BUF - tn;
    if (tail_in_buf) {
        char *p = append_field(tail, ctx->name, name_n);
        p = append_field(p, ctx->mnt_pt, mnt_n);
        p = append_field(p, ctx->fs_type, fs_n);
        *p = '\n';
    }
    size_t room = tail_in_buf ? PRINT_BUF - tn : PRINT_BUF;

    size_t total = mod->ncounters + mod->nfcounters;
    for (size_t i = 0; i < total; i++) {
        int is_int = i < mod->ncounters;
        const struct iolens_counter *c =
            is_int ? &mod->counters[i] : &mod->fcounters[i - mod->ncounters];
        const unsigned char *at = is_int ? base + mod->counters_offset + 8 * i
                                         : base + mod->fcounters_offset + 8 * (i - mod->ncounters);
        size_t cn = strlen(c->name);
        if (pos + LINE_ROOM(hn, cn, tail_in_buf ? tn : 0) > room) {
            fwrite(buf, 1, pos, out);
            pos = 0;
        }
        memcpy(buf + pos, head, hn);
        pos += hn;
        memcpy(buf + pos, c->name, cn);
        pos += cn;
        buf[pos++] = '\t';
        pos += format_value(buf + pos, c, at);
        if (tail_in_buf) {
            memcpy(buf + pos, tail, tn);
            pos += tn;
        } else {
            fwrite(buf, 1, pos, out);
            pos = 0;
            fprintf(out, "\t%s\t%s\t%s\n", ctx->name, ctx->mnt_pt, ctx->fs_type);
        }
    }
    fwrite(buf, 1, pos, out);
}
