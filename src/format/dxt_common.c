/* Decoding, encoding and printing what the DXT records share. */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/byteorder.h"
#include "dxt_common.h"
#include "varmod.h"

#define HEAD_BYTES sizeof(struct iolens_dxt_record)
#define SEG_BYTES sizeof(struct iolens_dxt_segment)
/* A segment of the versions without thread ids: the first four words. */
#define OLD_SEG_BYTES offsetof(struct iolens_dxt_segment, thread_id)

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

/* Widen the n segments of 32 bytes at segs (room for n of 40) to the
 * newest layout, each thread id IOLENS_DXT_NO_THREAD: from the last one down,
 * so that none is overwritten before it is moved. */
static void widen_segments(unsigned char *segs, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        struct iolens_dxt_segment s;
        memcpy(&s, segs + i * OLD_SEG_BYTES, OLD_SEG_BYTES);
        s.thread_id = IOLENS_DXT_NO_THREAD;
        memcpy(segs + i * SEG_BYTES, &s, SEG_BYTES);
    }
}

iolens_status iol_dxt_read(struct iolens_region *rg, int swap, int threads,
                           struct iolens_recbuf *out)
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
    size_t n = segs / SEG_BYTES, on_disk = threads ? segs : n * OLD_SEG_BYTES;
    if ((st = iol_var_read_more(rg, out, HEAD_BYTES, on_disk)) != IOLENS_OK)
        return st;
    /* Every word of a segment is a number, the thread id too (Darshan's
     * reader leaves that one unswapped). */
    if (swap)
        iol_bswap64_words(out->data + HEAD_BYTES, on_disk / 8);
    if (!threads) {
        if ((st = iol_recbuf_reserve(out, HEAD_BYTES + segs)) != IOLENS_OK)
            return st;
        widen_segments(out->data + HEAD_BYTES, n);
    }
    out->size = HEAD_BYTES + segs;
    return IOLENS_OK;
}

iolens_status iol_dxt_encode(const void *r, int threads, struct iolens_recbuf *out)
{
    const struct iolens_dxt_record *rec = r;
    size_t segs;
    iolens_status st;

    if (segment_span(rec->write_count, rec->read_count, &segs))
        return IOLENS_ERR_ARGUMENT;
    size_t n = segs / SEG_BYTES, on_disk = threads ? segs : n * OLD_SEG_BYTES;
    if ((st = iol_recbuf_reserve(out, HEAD_BYTES + on_disk)) != IOLENS_OK)
        return st;
    memcpy(out->data, rec, HEAD_BYTES);
    if (threads)
        memcpy(out->data + HEAD_BYTES, rec->segments, segs);
    else /* each segment without its thread id: the first four words */
        for (size_t i = 0; i < n; i++)
            memcpy(out->data + HEAD_BYTES + i * OLD_SEG_BYTES, &rec->segments[i],
                   OLD_SEG_BYTES);
    out->size = HEAD_BYTES + on_disk;
    return IOLENS_OK;
}

size_t iol_dxt_size(const void *rec)
{
    return iolens_dxt_record_bytes(rec);
}

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int64_t iol_dxt_thread_count(const struct iolens_dxt_record *rec)
{
    int64_t n = rec->write_count + rec->read_count, distinct = 1;
    uint64_t *ids;

    if (n <= 1)
        return 1;
    if (!(ids = malloc((size_t)n * sizeof(*ids))))
        return -1;
    for (int64_t i = 0; i < n; i++)
        ids[i] = rec->segments[i].thread_id;
    qsort(ids, (size_t)n, sizeof(*ids), by_value);
    for (int64_t i = 1; i < n; i++)
        distinct += ids[i] != ids[i - 1];
    free(ids);
    return distinct;
}

void iol_dxt_print_head(FILE *out, const struct iolens_dxt_record *rec,
                        const struct iolens_print_ctx *ctx)
{
    fprintf(out, "\n# DXT, file_id: %" PRIu64 ", file_name: %s\n", rec->base.id, ctx->name);
    fprintf(out, "# DXT, rank: %" PRId64 ", hostname: %.*s\n", rec->base.rank,
            IOLENS_DXT_HOSTNAME_SIZE, rec->hostname);
    fprintf(out, "# DXT, number of threads: %" PRId64 "\n", iol_dxt_thread_count(rec));
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

void iol_dxt_print_thread(FILE *out, const struct iolens_dxt_segment *s)
{
    if (s->thread_id == IOLENS_DXT_NO_THREAD)
        fputs(" N/A\n", out);
    else
        fprintf(out, " %4" PRIu64 "\n", s->thread_id);
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
        iol_dxt_print_thread(out, &rec->segments[i]);
    }
}
#endif
