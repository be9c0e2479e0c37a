/* DXT_MPIIO module descriptor: record versions 1 (no offsets, no thread
 * ids), 2 (no thread ids; Darshan 3.5.0's, also written) and 3 in the layout of
 * include/iolens/modules/dxt.h, printed as darshan-dxt-parser prints it. */
#include "dxt_common.h"
#include "iolens/modules/dxt_mpiio.h"

static iolens_status dxt_mpiio_read(struct iolens_region *rg, uint32_t ver, int swap,
                                    void *state, struct iolens_recbuf *out)
{
    (void)state;
    if (ver < 1 || ver > IOLENS_DXT_MPIIO_VERSION)
        return IOLENS_ERR_VERSION;
    iolens_status st = iol_dxt_read(rg, swap, ver >= 3, out);
    if (st != IOLENS_OK || ver != 1)
        return st;

    /* Version 1 wrote no meaningful offsets. */
    struct iolens_dxt_record *rec = (void *)out->data;
    for (int64_t i = 0; i < rec->write_count + rec->read_count; i++)
        rec->segments[i].offset = -1;
    return IOLENS_OK;
}

/* Version 3, or version 2 (Darshan 3.5.0's) without the thread ids. */
static iolens_status dxt_mpiio_encode(const void *rec, uint32_t ver, struct iolens_recbuf *out)
{
    if (ver != 2 && ver != IOLENS_DXT_MPIIO_VERSION)
        return IOLENS_ERR_VERSION;
    return iol_dxt_encode(rec, ver != 2, out);
}

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
static void dxt_mpiio_print(FILE *out, const void *r, const struct iolens_print_ctx *ctx)
{
    iol_dxt_print_plain(out, r, ctx, "X_MPIIO");
}
#endif

const struct iolens_module_desc iolens_dxt_mpiio_module = {
    .id = IOLENS_MOD_DXT_MPIIO,
    .name = "DXT_MPIIO",
    .version = IOLENS_DXT_MPIIO_VERSION,
    .darshan_3_5_version = 2,
    .record_size = 0,
    .summary = "trace of every MPI-IO read and write: offset, length, start and end time",
    .legend_name = "DXT_MPIIO",
    .read = dxt_mpiio_read,
    .encode = dxt_mpiio_encode,
#ifndef IOLENS_RUNTIME_IO
    .print = dxt_mpiio_print,
#endif
    .var_size = iol_dxt_size,
    .trace = 1,
};
