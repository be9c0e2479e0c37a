/* DXT_STDIO module descriptor (an iolens addition): record versions 1 (no
 * thread ids) and 2 in the layout of include/iolens/modules/dxt.h, printed
 * as darshan-dxt-parser prints a DXT_POSIX record (without Lustre OSTs), on
 * "X_STDIO" lines. */
#include "dxt_common.h"
#include "iolens/modules/dxt_stdio.h"

static iolens_status dxt_stdio_read(struct iolens_region *rg, uint32_t ver, int swap,
                                    void *state, struct iolens_recbuf *out)
{
    (void)state;
    if (ver != 1 && ver != IOLENS_DXT_STDIO_VERSION)
        return IOLENS_ERR_VERSION;
    return iol_dxt_read(rg, swap, ver != 1, out);
}

static iolens_status dxt_stdio_encode(const void *rec, uint32_t ver, struct iolens_recbuf *out)
{
    if (ver != IOLENS_DXT_STDIO_VERSION)
        return IOLENS_ERR_VERSION;
    return iol_dxt_encode(rec, 1, out);
}

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
static void dxt_stdio_print(FILE *out, const void *r, const struct iolens_print_ctx *ctx)
{
    iol_dxt_print_plain(out, r, ctx, "X_STDIO");
}
#endif

const struct iolens_module_desc iolens_dxt_stdio_module = {
    .id = IOLENS_MOD_DXT_STDIO,
    .name = "DXT_STDIO",
    .version = IOLENS_DXT_STDIO_VERSION,
    .record_size = 0,
    .summary = "trace of every STDIO read and write: stream offset, length, start and end "
               "time (an iolens module)",
    .legend_name = "DXT_STDIO",
    .read = dxt_stdio_read,
    .encode = dxt_stdio_encode,
#ifndef IOLENS_RUNTIME_IO
    .print = dxt_stdio_print,
#endif
    .var_size = iol_dxt_size,
    .trace = 1,
};
