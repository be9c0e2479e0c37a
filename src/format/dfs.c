/* DFS module descriptor: counters of include/iolens/modules/dfs.h, and the
 * printer that shows the record's pool and container. Version 1 is the only
 * version. */
#include <stdio.h>
#include <string.h>

#include "iolens/modules/dfs.h"
#include "module_util.h"

static const struct iolens_counter dfs_counters[] = {
    IOLENS_DFS_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter dfs_fcounters[] = {
    IOLENS_DFS_FCOUNTERS(IOL_COUNTER_ROW)
};

void iolens_uuid_text(const unsigned char uuid[16], char *out)
{
    static const char hex[] = "0123456789abcdef";
    char *p = out;

    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *p++ = '-';
        *p++ = hex[uuid[i] >> 4];
        *p++ = hex[uuid[i] & 15];
    }
    *p = '\0';
}

static int uuid_is_zero(const unsigned char uuid[16])
{
    static const unsigned char zero[16];
    return memcmp(uuid, zero, sizeof(zero)) == 0;
}

/* The counters, with "<pool uuid>:<container uuid>" (or UNKNOWN when either is
 * unset) in place of the mount point and N/A as the file-system type. */
static void dfs_print(FILE *out, const void *rec, const struct iolens_print_ctx *ctx)
{
    const struct iolens_dfs_record *r = rec;
    char where[2 * IOLENS_UUID_TEXT_LEN + 2] = "UNKNOWN";
    struct iolens_print_ctx c = *ctx;

    if (!uuid_is_zero(r->pool_uuid) && !uuid_is_zero(r->cont_uuid)) {
        iolens_uuid_text(r->pool_uuid, where);
        where[IOLENS_UUID_TEXT_LEN] = ':';
        iolens_uuid_text(r->cont_uuid, where + IOLENS_UUID_TEXT_LEN + 1);
    }
    c.mnt_pt = where;
    c.fs_type = "N/A";
    iolens_print_counters(out, &iolens_dfs_module, rec, &c);
}

static const struct iolens_module_roles dfs_roles = {
    .c_bytes_read = IOLENS_ROLE(DFS_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(DFS_BYTES_WRITTEN),
    .f_read_time = IOLENS_ROLE(DFS_F_READ_TIME),
    .f_write_time = IOLENS_ROLE(DFS_F_WRITE_TIME),
    .f_meta_time = IOLENS_ROLE(DFS_F_META_TIME),
    .f_max_read_time = IOLENS_ROLE(DFS_F_MAX_READ_TIME),
    .c_max_read_time_size = IOLENS_ROLE(DFS_MAX_READ_TIME_SIZE),
    .f_max_write_time = IOLENS_ROLE(DFS_F_MAX_WRITE_TIME),
    .c_max_write_time_size = IOLENS_ROLE(DFS_MAX_WRITE_TIME_SIZE),
    .f_fastest_time = IOLENS_ROLE(DFS_F_FASTEST_RANK_TIME),
    .c_fastest_rank = IOLENS_ROLE(DFS_FASTEST_RANK),
    .c_fastest_rank_bytes = IOLENS_ROLE(DFS_FASTEST_RANK_BYTES),
    .f_slowest_time = IOLENS_ROLE(DFS_F_SLOWEST_RANK_TIME),
    .c_slowest_rank = IOLENS_ROLE(DFS_SLOWEST_RANK),
    .c_slowest_rank_bytes = IOLENS_ROLE(DFS_SLOWEST_RANK_BYTES),
    .flags = IOLENS_ROLE_METRICS,
};

const struct iolens_module_desc iolens_dfs_module = {
    .id = IOLENS_MOD_DFS,
    .name = "DFS",
    .version = IOLENS_DFS_VERSION,
    .record_size = sizeof(struct iolens_dfs_record),
    .legend_name = "DFS",
    .summary = "DAOS file system (DFS) calls: operation counts, bytes, access sizes, timing",
    .counters = dfs_counters,
    .ncounters = IOL_COUNT(dfs_counters),
    .counters_offset = offsetof(struct iolens_dfs_record, counters),
    .fcounters = dfs_fcounters,
    .nfcounters = IOL_COUNT(dfs_fcounters),
    .fcounters_offset = offsetof(struct iolens_dfs_record, fcounters),
    .head_words = 2,
    .tail_bytes = 32,
    .print = dfs_print,
    .roles = &dfs_roles,
};
