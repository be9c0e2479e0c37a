/* HEATMAP module descriptor: decoding and encoding record version 1 (the
 * layout of include/iolens/modules/heatmap.h), and printing. */
#include <string.h>

#include "../common/byteorder.h"
#include "iolens/modules/heatmap.h"
#include "varmod.h"

#define HEAD_BYTES sizeof(struct iolens_heatmap_record)
/* On disk the head also holds two 8-byte slots where the runtime kept
 * pointers to the bin arrays; readers ignore them, the writer zeroes them. */
#define DISK_HEAD_BYTES (HEAD_BYTES + 16)

/* Bin count and width of the region's first record (each taken from the
 * first record where it is non-zero), which later records are held to. */
struct ref {
    int64_t nbins;
    double width;
};
_Static_assert(sizeof(struct ref) <= IOL_READ_STATE_BYTES, "heatmap read state");

/* A record one bin longer or shorter than the reference (same width) comes
 * from a runtime clock-skew bug: drop its extra last bin, or add an empty one. */
static iolens_status fix_bin_count(struct iolens_recbuf *out, const struct ref *r)
{
    struct iolens_heatmap_record *rec = (void *)out->data;
    int64_t n = rec->nbins;

    if (rec->bin_width_seconds != r->width)
        return IOLENS_OK;
    if (n == r->nbins + 1) {
        memmove(rec->bins + n - 1, rec->bins + n, (size_t)(n - 1) * sizeof(int64_t));
        rec->nbins = n - 1;
    } else if (n == r->nbins - 1) {
        iolens_status st = iol_recbuf_reserve(out, HEAD_BYTES + 2 * (size_t)r->nbins * 8);
        if (st != IOLENS_OK)
            return st;
        rec = (void *)out->data;
        memmove(rec->bins + n + 1, rec->bins + n, (size_t)n * sizeof(int64_t));
        rec->bins[n] = 0;
        rec->bins[2 * n + 1] = 0;
        rec->nbins = n + 1;
    }
    return IOLENS_OK;
}

static iolens_status heatmap_read(struct iolens_region *rg, uint32_t ver, int swap,
                                  void *state, struct iolens_recbuf *out)
{
    struct ref *r = state;
    struct iolens_heatmap_record *rec;
    size_t bins;
    iolens_status st;

    if (ver != IOLENS_HEATMAP_VERSION)
        return IOLENS_ERR_VERSION;
    if ((st = iol_var_read_head(rg, out, DISK_HEAD_BYTES)) != IOLENS_OK)
        return st;
    rec = (void *)out->data;
    if (swap)
        iol_bswap64_words(rec, HEAD_BYTES / 8);
    if (iol_var_span(rec->nbins, 2 * sizeof(int64_t), HEAD_BYTES + 2 * sizeof(int64_t), &bins))
        return IOLENS_ERR_CORRUPT;
    /* The bins overwrite the ignored pointer slots. */
    if ((st = iol_var_read_more(rg, out, HEAD_BYTES, bins)) != IOLENS_OK)
        return st;
    rec = (void *)out->data;
    if (swap)
        iol_bswap64_words(rec->bins, bins / 8);

    if (r->nbins == 0)
        r->nbins = rec->nbins;
    if (r->width == 0)
        r->width = rec->bin_width_seconds;
    if ((st = fix_bin_count(out, r)) != IOLENS_OK)
        return st;
    out->size = iolens_heatmap_record_bytes((void *)out->data);
    return IOLENS_OK;
}

static iolens_status heatmap_encode(const void *r, uint32_t ver, struct iolens_recbuf *out)
{
    (void)ver; /* one version written: the newest */
    const struct iolens_heatmap_record *rec = r;
    size_t bins;
    iolens_status st;

    if (iol_var_span(rec->nbins, 2 * sizeof(int64_t), DISK_HEAD_BYTES, &bins))
        return IOLENS_ERR_ARGUMENT;
    if ((st = iol_recbuf_reserve(out, DISK_HEAD_BYTES + bins)) != IOLENS_OK)
        return st;
    memcpy(out->data, rec, HEAD_BYTES);
    memset(out->data + HEAD_BYTES, 0, DISK_HEAD_BYTES - HEAD_BYTES);
    memcpy(out->data + DISK_HEAD_BYTES, rec->bins, bins);
    out->size = DISK_HEAD_BYTES + bins;
    return IOLENS_OK;
}

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
static void heatmap_print(FILE *out, const void *r, const struct iolens_print_ctx *ctx)
{
    const struct iolens_heatmap_record *rec = r;
    const int64_t *rd = iolens_heatmap_read_bins(rec), *wr = iolens_heatmap_write_bins(rec);
    char name[64];

    iol_var_line_f64(out, "HEATMAP", &rec->base, "HEATMAP_F_BIN_WIDTH_SECONDS",
                     rec->bin_width_seconds, ctx);
    for (int64_t i = 0; i < rec->nbins; i++) {
        snprintf(name, sizeof(name), "HEATMAP_READ_BIN_%lld", (long long)i);
        iol_var_line_i64(out, "HEATMAP", &rec->base, name, rd[i], ctx);
    }
    for (int64_t i = 0; i < rec->nbins; i++) {
        snprintf(name, sizeof(name), "HEATMAP_WRITE_BIN_%lld", (long long)i);
        iol_var_line_i64(out, "HEATMAP", &rec->base, name, wr[i], ctx);
    }
}
#endif

static size_t heatmap_size(const void *rec)
{
    return iolens_heatmap_record_bytes(rec);
}

const struct iolens_module_desc iolens_heatmap_module = {
    .id = IOLENS_MOD_HEATMAP,
    .name = "HEATMAP",
    .version = IOLENS_HEATMAP_VERSION,
    .record_size = 0,
    .summary = "bytes read and written in each time bin of the run, per rank and interface; "
               "HEATMAP_F_BIN_WIDTH_SECONDS is a bin's length, HEATMAP_READ_BIN_<i> and "
               "HEATMAP_WRITE_BIN_<i> the bytes moved in bin i",
    .legend_name = "heatmap",
    .read = heatmap_read,
    .encode = heatmap_encode,
#ifndef IOLENS_RUNTIME_IO
    .print = heatmap_print,
#endif
    .var_size = heatmap_size,
    .summarises_others = 1,
};
