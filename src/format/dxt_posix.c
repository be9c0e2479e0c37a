/* DXT_POSIX module descriptor: record versions 1 (no thread ids; Darshan
 * 3.5.0's) and 2, read and written, in the layout of
 * include/iolens/modules/dxt.h, printed as darshan-dxt-parser prints it,
 * with the Lustre OSTs each access touched when the file's LUSTRE record is
 * given (as ctx->layout: LUSTRE is the descriptor's layout_module). */
#include <inttypes.h>

#include "dxt_common.h"
#include "iolens/modules/dxt_posix.h"
#include "iolens/modules/lustre.h"

static iolens_status dxt_posix_read(struct iolens_region *rg, uint32_t ver, int swap,
                                    void *state, struct iolens_recbuf *out)
{
    (void)state;
    if (ver != 1 && ver != IOLENS_DXT_POSIX_VERSION)
        return IOLENS_ERR_VERSION;
    return iol_dxt_read(rg, swap, ver != 1, out);
}

/* Version 2, or version 1 (Darshan 3.5.0's) without the thread ids. */
static iolens_status dxt_posix_encode(const void *rec, uint32_t ver, struct iolens_recbuf *out)
{
    if (ver != 1 && ver != IOLENS_DXT_POSIX_VERSION)
        return IOLENS_ERR_VERSION;
    return iol_dxt_encode(rec, ver != 1, out);
}

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
/* The file's striping: each component's extent, stripe size and count, OSTs. */
static void print_layout(FILE *out, const struct iolens_lustre_record *lr)
{
    const int64_t *ost = iolens_lustre_osts(lr);

    fprintf(out, "# DXT, Lustre stripe components:\n");
    for (int64_t i = 0; i < lr->num_comps; i++) {
        const int64_t *c = lr->comps[i].counters;
        fprintf(out, "#\t[Component %" PRId64 "] stripe_ext: %" PRId64 " - ", i + 1,
                c[LUSTRE_COMP_EXT_START]);
        if (c[LUSTRE_COMP_EXT_END] == -1)
            fprintf(out, "EOF, ");
        else
            fprintf(out, "%" PRId64 ", ", c[LUSTRE_COMP_EXT_END]);
        fprintf(out, "stripe_size: %" PRId64 ", stripe_count: %" PRId64 ", OSTs:",
                c[LUSTRE_COMP_STRIPE_SIZE], c[LUSTRE_COMP_STRIPE_COUNT]);
        for (int64_t j = 0; j < c[LUSTRE_COMP_STRIPE_COUNT]; j++)
            fprintf(out, " %" PRId64, *ost++);
        fprintf(out, "\n");
    }
}

/* Print the OSTs (ost: this component's) of the stripes of one component
 * from *cur on, while they lie before end, advancing *cur past them; at most
 * stripe-count OSTs in all, counting *printed across components.
 * @return 0, or -1 when the offsets overflow (the walk then stops). */
static int walk_component(FILE *out, const int64_t *c, const int64_t *ost, int64_t end,
                          int64_t *cur, int64_t *printed)
{
    int64_t size = c[LUSTRE_COMP_STRIPE_SIZE], count = c[LUSTRE_COMP_STRIPE_COUNT];
    int64_t first = c[LUSTRE_COMP_EXT_START], last = c[LUSTRE_COMP_EXT_END], rel;

    /* Data on the MDT (no stripes), or the offset lies outside the component. */
    if (count == 0 || size <= 0 || *cur < first || (*cur >= last && last != -1))
        return 0;
    if (__builtin_sub_overflow(*cur, first, &rel))
        return -1;
    int64_t idx = (rel / size) % count;
    while (*cur < end && (*cur < last || last == -1)) {
        fprintf(out, " [%" PRId64 "]", ost[idx]);
        idx = idx == count - 1 ? 0 : idx + 1;
        if (__builtin_mul_overflow(rel / size + 1, size, &rel) ||
            __builtin_add_overflow(first, rel, cur))
            return -1;
        if (++*printed >= count) {
            *cur = last == -1 ? end : last;
            break;
        }
    }
    return 0;
}

/* The OSTs holding the bytes [offset, offset + length), worked out as
 * darshan-dxt-parser does: walk the components covering the range, one stripe
 * at a time. Components without a usable stripe size are skipped. */
static void print_osts(FILE *out, const struct iolens_lustre_record *lr, int64_t offset,
                       int64_t length)
{
    const int64_t *ost = iolens_lustre_osts(lr);
    int64_t end, cur = offset, printed = 0;

    if (__builtin_add_overflow(offset, length, &end))
        end = INT64_MAX;
    for (int64_t j = 0; j < lr->num_comps; j++) {
        const int64_t *c = lr->comps[j].counters;
        if (walk_component(out, c, ost, end, &cur, &printed) < 0)
            return;
        ost += c[LUSTRE_COMP_STRIPE_COUNT];
    }
}

void iolens_dxt_posix_print(FILE *out, const struct iolens_dxt_record *rec,
                            const struct iolens_print_ctx *ctx,
                            const struct iolens_lustre_record *lr)
{
    int64_t n = rec->write_count + rec->read_count;

    iol_dxt_print_head(out, rec, ctx);
    if (lr)
        print_layout(out, lr);
    fprintf(out, "# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)"
                 "      End(s)%s   Pthread-ID\n", lr ? "   [OST]" : "");
    for (int64_t i = 0; i < n; i++) {
        iol_dxt_print_segment(out, "X_POSIX", rec, i);
        if (lr) {
            print_osts(out, lr, rec->segments[i].offset, rec->segments[i].length);
            if (lr->num_comps)
                fprintf(out, "  ");
        }
        iol_dxt_print_thread(out, &rec->segments[i]);
    }
}

static void dxt_posix_print(FILE *out, const void *rec, const struct iolens_print_ctx *ctx)
{
    iolens_dxt_posix_print(out, rec, ctx, ctx->layout);
}
#endif

_Static_assert(IOLENS_MOD_LUSTRE < IOLENS_MOD_DXT_POSIX,
               "iolens dxt reads a layout module before the traces that use it");

const struct iolens_module_desc iolens_dxt_posix_module = {
    .id = IOLENS_MOD_DXT_POSIX,
    .name = "DXT_POSIX",
    .version = IOLENS_DXT_POSIX_VERSION,
    .darshan_3_5_version = 1,
    .record_size = 0,
    .summary = "trace of every POSIX read and write: offset, length, start and end time",
    .legend_name = "DXT_POSIX",
    .read = dxt_posix_read,
    .encode = dxt_posix_encode,
#ifndef IOLENS_RUNTIME_IO
    .print = dxt_posix_print,
#endif
    .var_size = iol_dxt_size,
    .trace = 1,
    .layout_module = IOLENS_MOD_LUSTRE,
};
