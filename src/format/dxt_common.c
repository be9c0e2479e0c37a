/* Decoding, encoding and printing what DXT_POSIX and DXT_MPIIO records share. */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "../common/byteorder.h"
#include "dxt_common.h"
#include "varmod.h"

#define HEAD_BYTES sizeof(struct iolens_dxt_record)
#define SEG_BYTES sizeof(struct iolens_dxt_segment)

/* Bytes of the segments of a record with these counts, if they are plausible.
 * @return 0 and *bytes set, or -1. */
static int segment_span(int64_t writes, int64_t reads, size_t *bytes)
{
    size_t w, r;
    if (iol_var_span(writes, SEG_BYTES, HEAD_BYTES, &w) ||
        iol_var_span(reads, SEG_BYTES, HEAD_BYTES + w, &r))
        return -1;
    *bytes = w + r;
    return 0;
}

/* Swap the 8-byte words of the head, leaving the host name's bytes alone.
 * Each run spans several members: addressed from the record itself, not
 * from its first member (GCC's -O3 object-size checks would object). */
static void swap_head(struct iolens_dxt_record *rec)
{
    unsigned char *head = (unsigned char *)rec;
    iol_bswap64_words(head, 3); /* id, rank, shared_record */
    iol_bswap64_words(head + offsetof(struct iolens_dxt_record, write_count), 2);
}

iolens_status iol_dxt_read(struct iolens_region *rg, int swap, struct iolens_recbuf *out)
{
    struct iolens_dxt_record *rec;
    size_t segs;
    iolens_status st = iol_var_read_head(rg, out, HEAD_BYTES);

    if (st != IOLENS_OK)
        return st;
    rec = (void *)out->data;
    if (swap)
        swap_head(rec);
    if (segment_span(rec->write_count, rec->read_count, &segs))
        return IOLENS_ERR_CORRUPT;
    if ((st = iol_var_read_more(rg, out, HEAD_BYTES, segs)) != IOLENS_OK)
        return st;
    if (swap)
        iol_bswap64_words(out->data + HEAD_BYTES, segs / 8);
    out->size = HEAD_BYTES + segs;
    return IOLENS_OK;
}

iolens_status iol_dxt_encode(const void *r, struct iolens_recbuf *out)
{
    const struct iolens_dxt_record *rec = r;
    size_t segs;
    iolens_status st;

    if (segment_span(rec->write_count, rec->read_count, &segs))
        return IOLENS_ERR_ARGUMENT;
    if ((st = iol_recbuf_reserve(out, HEAD_BYTES + segs)) != IOLENS_OK)
        return st;
    memcpy(out->data, rec, HEAD_BYTES + segs);
    out->size = HEAD_BYTES + segs;
    return IOLENS_OK;
}

size_t iol_dxt_size(const void *rec)
{
    return iolens_dxt_record_bytes(rec);
}

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
void iol_dxt_print_head(FILE *out, const struct iolens_dxt_record *rec,
                        const struct iolens_print_ctx *ctx)
{
    fprintf(out, "\n# DXT, file_id: %" PRIu64 ", file_name: %s\n", rec->base.id, ctx->name);
    fprintf(out, "# DXT, rank: %" PRId64 ", hostname: %.*s\n", rec->base.rank,
            IOLENS_DXT_HOSTNAME_SIZE, rec->hostname);
    /* Records of these versions carry no thread ids: one thread is assumed. */
    fprintf(out, "# DXT, number of threads: 1\n");
    fprintf(out, "# DXT, write_count: %" PRId64 ", read_count: %" PRId64 "\n",
            rec->write_count, rec->read_count);
    fprintf(out, "# DXT, mnt_pt: %s, fs_type: %s\n", ctx->mnt_pt, ctx->fs_type);
}

void iol_dxt_print_segment(FILE *out, const char *tag, const struct iolens_dxt_record *rec,
                           int64_t i)
{
    const struct iolens_dxt_segment *s = &rec->segments[i];
    int write = i < rec->write_count;

    fprintf(out, "%8s%8" PRId64 "%7s%9" PRId64 "%16" PRId64 "%16" PRId64 "%12.4f%12.4f  ", tag,
            rec->base.rank, write ? "write" : "read", write ? i : i - rec->write_count,
            s->offset, s->length, s->start_time, s->end_time);
}

void iol_dxt_print_plain(FILE *out, const struct iolens_dxt_record *rec,
                         const struct iolens_print_ctx *ctx, const char *tag)
{
    int64_t n = rec->write_count + rec->read_count;

    iol_dxt_print_head(out, rec, ctx);
    fprintf(out, "# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)"
                 "      End(s)   Pthread-ID\n");
    for (int64_t i = 0; i < n; i++) {
        iol_dxt_print_segment(out, tag, rec, i);
        fputs(IOL_DXT_NO_THREAD, out);
    }
}
#endif
