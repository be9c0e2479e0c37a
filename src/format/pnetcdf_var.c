/* PNETCDF_VAR module descriptor: counters of
 * include/iolens/modules/pnetcdf_var.h and the printer that adds the file
 * record id. Version 1 is the only version. */
#include <inttypes.h>

#include "iolens/modules/pnetcdf_var.h"
#include "module_util.h"

static const struct iolens_counter pnetcdf_var_counters[] = {
    IOLENS_PNETCDF_VAR_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter pnetcdf_var_fcounters[] = {
    IOLENS_PNETCDF_VAR_FCOUNTERS(IOL_COUNTER_ROW)
};

#ifndef IOLENS_RUNTIME_IO /* the runtime prints nothing (varmod.h) */
/* The counters, then the file record id as one more unsigned line. */
static void pnetcdf_var_print(FILE *out, const void *rec, const struct iolens_print_ctx *ctx)
{
    const struct iolens_pnetcdf_var_record *r = rec;

    iolens_print_counters(out, &iolens_pnetcdf_var_module, rec, ctx);
    fprintf(out, "%s\t%" PRId64 "\t%" PRIu64 "\tPNETCDF_VAR_FILE_REC_ID\t%" PRIu64 "\t%s\t%s\t%s\n",
            iolens_pnetcdf_var_module.name, r->base.rank, r->base.id, r->file_rec_id, ctx->name,
            ctx->mnt_pt, ctx->fs_type);
}
#endif

static const struct iolens_module_roles pnetcdf_var_roles = {
    .c_bytes_read = IOLENS_ROLE(PNETCDF_VAR_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(PNETCDF_VAR_BYTES_WRITTEN),
    .f_read_time = IOLENS_ROLE(PNETCDF_VAR_F_READ_TIME),
    .f_write_time = IOLENS_ROLE(PNETCDF_VAR_F_WRITE_TIME),
    .f_meta_time = IOLENS_ROLE(PNETCDF_VAR_F_META_TIME),
    .f_max_read_time = IOLENS_ROLE(PNETCDF_VAR_F_MAX_READ_TIME),
    .c_max_read_time_size = IOLENS_ROLE(PNETCDF_VAR_MAX_READ_TIME_SIZE),
    .f_max_write_time = IOLENS_ROLE(PNETCDF_VAR_F_MAX_WRITE_TIME),
    .c_max_write_time_size = IOLENS_ROLE(PNETCDF_VAR_MAX_WRITE_TIME_SIZE),
    .f_fastest_time = IOLENS_ROLE(PNETCDF_VAR_F_FASTEST_RANK_TIME),
    .c_fastest_rank = IOLENS_ROLE(PNETCDF_VAR_FASTEST_RANK),
    .c_fastest_rank_bytes = IOLENS_ROLE(PNETCDF_VAR_FASTEST_RANK_BYTES),
    .f_slowest_time = IOLENS_ROLE(PNETCDF_VAR_F_SLOWEST_RANK_TIME),
    .c_slowest_rank = IOLENS_ROLE(PNETCDF_VAR_SLOWEST_RANK),
    .c_slowest_rank_bytes = IOLENS_ROLE(PNETCDF_VAR_SLOWEST_RANK_BYTES),
    .flags = IOLENS_ROLE_SUM_UNCLAMPED,
};

const struct iolens_module_desc iolens_pnetcdf_var_module = {
    .id = IOLENS_MOD_PNETCDF_VAR,
    .name = "PNETCDF_VAR",
    .version = IOLENS_PNETCDF_VAR_VERSION,
    .record_size = sizeof(struct iolens_pnetcdf_var_record),
    .legend_name = "PnetCDF",
    .summary = "PnetCDF variable access: call flavours, bytes, access shapes and timing",
    .counters = pnetcdf_var_counters,
    .ncounters = IOL_COUNT(pnetcdf_var_counters),
    .counters_offset = offsetof(struct iolens_pnetcdf_var_record, counters),
    .fcounters = pnetcdf_var_fcounters,
    .nfcounters = IOL_COUNT(pnetcdf_var_fcounters),
    .fcounters_offset = offsetof(struct iolens_pnetcdf_var_record, fcounters),
    .head_words = 3,
#ifndef IOLENS_RUNTIME_IO
    .print = pnetcdf_var_print,
#endif
    .roles = &pnetcdf_var_roles,
};
