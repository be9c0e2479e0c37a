/* H5D module descriptor: counters of include/iolens/modules/h5d.h, the layout
 * of record version 1, and the printer that adds the file record id. */
#include <inttypes.h>

#include "iolens/modules/h5d.h"
#include "module_util.h"

static const struct iolens_counter h5d_counters[] = {
    IOLENS_H5D_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter h5d_fcounters[] = {
    IOLENS_H5D_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Words 0-1 are id and rank, word 2 the file's record id. */
static const struct iolens_layout h5d_layouts[] = {
    /* v1 had no file record id (unknown: 0). */
    {.version = 1, .words = 113, .nedits = 1, .edits = {{2, 1, IOLENS_FILL_ZERO}}},
};

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
/* The counters, then the file record id as one more unsigned line. */
static void h5d_print(FILE *out, const void *rec, const struct iolens_print_ctx *ctx)
{
    const struct iolens_h5d_record *r = rec;

    iolens_print_counters(out, &iolens_h5d_module, rec, ctx);
    fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\tH5D_FILE_REC_ID\t%" PRIu64 "\t%s\t%s\t%s\n",
            iolens_h5d_module.name, r->base.rank, r->base.id, r->file_rec_id, ctx->name,
            ctx->mnt_pt, ctx->fs_type);
}
#endif

static const struct iolens_module_roles h5d_roles = {
    .c_bytes_read = IOLENS_ROLE(H5D_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(H5D_BYTES_WRITTEN),
    .f_read_time = IOLENS_ROLE(H5D_F_READ_TIME),
    .f_write_time = IOLENS_ROLE(H5D_F_WRITE_TIME),
    .f_meta_time = IOLENS_ROLE(H5D_F_META_TIME),
    .f_max_read_time = IOLENS_ROLE(H5D_F_MAX_READ_TIME),
    .c_max_read_time_size = IOLENS_ROLE(H5D_MAX_READ_TIME_SIZE),
    .f_max_write_time = IOLENS_ROLE(H5D_F_MAX_WRITE_TIME),
    .c_max_write_time_size = IOLENS_ROLE(H5D_MAX_WRITE_TIME_SIZE),
    .f_fastest_time = IOLENS_ROLE(H5D_F_FASTEST_RANK_TIME),
    .c_fastest_rank = IOLENS_ROLE(H5D_FASTEST_RANK),
    .c_fastest_rank_bytes = IOLENS_ROLE(H5D_FASTEST_RANK_BYTES),
    .f_slowest_time = IOLENS_ROLE(H5D_F_SLOWEST_RANK_TIME),
    .c_slowest_rank = IOLENS_ROLE(H5D_SLOWEST_RANK),
    .c_slowest_rank_bytes = IOLENS_ROLE(H5D_SLOWEST_RANK_BYTES),
    .flags = IOLENS_ROLE_SUM_UNCLAMPED,
};

const struct iolens_module_desc iolens_h5d_module = {
    .id = IOLENS_MOD_H5D,
    .name = "H5D",
    .version = IOLENS_H5D_VERSION,
    .record_size = sizeof(struct iolens_h5d_record),
    .legend_name = "HDF5",
    .summary = "HDF5 dataset access: operations, selections, access shapes, layout and timing",
    .counters = h5d_counters,
    .ncounters = IOL_COUNT(h5d_counters),
    .counters_offset = offsetof(struct iolens_h5d_record, counters),
    .fcounters = h5d_fcounters,
    .nfcounters = IOL_COUNT(h5d_fcounters),
    .fcounters_offset = offsetof(struct iolens_h5d_record, fcounters),
    .head_words = 3,
    .layouts = h5d_layouts,
    .nlayouts = IOL_COUNT(h5d_layouts),
#ifndef IOLENS_RUNTIME_IO
    .print = h5d_print,
#endif
    .roles = &h5d_roles,
};
