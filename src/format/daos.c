/* DAOS module descriptor: counters of include/iolens/modules/daos.h, the
 * decoder that also swaps the object id (which follows the raw uuids), and
 * the printer that names objects by id. Version 1 is the only version. */
#include <inttypes.h>
#include <string.h>

#include "../common/byteorder.h"
#include "iolens/modules/daos.h"
#include "iolens/modules/dfs.h"
#include "log_internal.h"
#include "module_util.h"

static const struct iolens_counter daos_counters[] = {
    IOLENS_DAOS_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter daos_fcounters[] = {
    IOLENS_DAOS_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Bytes after the counters that the generic decoder leaves as they are:
 * the two uuids, then the object id, which this module swaps itself. */
#define TAIL_BYTES \
    (sizeof(struct iolens_daos_record) - offsetof(struct iolens_daos_record, pool_uuid))

/* The object id words follow the raw uuids, so the tables leave them unswapped. */
static void daos_fixup(void *rec, uint32_t ver, int swap)
{
    if (swap)
        iol_bswap64_words((unsigned char *)rec + offsetof(struct iolens_daos_record, oid_hi), 2);
}

/* The counters, named by object id "<hi>.<lo>", with "<pool uuid>:<container
 * uuid>" in place of the mount point and N/A as the file-system type. */
static void daos_print(FILE *out, const void *rec, const struct iolens_print_ctx *ctx)
{
    const struct iolens_daos_record *r = rec;
    char oid[48], where[2 * IOLENS_UUID_TEXT_LEN + 2];
    struct iolens_print_ctx c = *ctx;

    snprintf(oid, sizeof(oid), "%" PRIu64 ".%" PRIu64, r->oid_hi, r->oid_lo);
    iolens_uuid_text(r->pool_uuid, where);
    where[IOLENS_UUID_TEXT_LEN] = ':';
    iolens_uuid_text(r->cont_uuid, where + IOLENS_UUID_TEXT_LEN + 1);
    c.name = oid;
    c.mnt_pt = where;
    c.fs_type = "N/A";
    iolens_print_counters(out, &iolens_daos_module, rec, &c);
}

static const struct iolens_module_roles daos_roles = {
    .c_bytes_read = IOLENS_ROLE(DAOS_BYTES_READ),
    .c_bytes_written = IOLENS_ROLE(DAOS_BYTES_WRITTEN),
    .f_read_time = IOLENS_ROLE(DAOS_F_READ_TIME),
    .f_write_time = IOLENS_ROLE(DAOS_F_WRITE_TIME),
    .f_meta_time = IOLENS_ROLE(DAOS_F_META_TIME),
    .f_max_read_time = IOLENS_ROLE(DAOS_F_MAX_READ_TIME),
    .c_max_read_time_size = IOLENS_ROLE(DAOS_MAX_READ_TIME_SIZE),
    .f_max_write_time = IOLENS_ROLE(DAOS_F_MAX_WRITE_TIME),
    .c_max_write_time_size = IOLENS_ROLE(DAOS_MAX_WRITE_TIME_SIZE),
    .f_fastest_time = IOLENS_ROLE(DAOS_F_FASTEST_RANK_TIME),
    .c_fastest_rank = IOLENS_ROLE(DAOS_FASTEST_RANK),
    .c_fastest_rank_bytes = IOLENS_ROLE(DAOS_FASTEST_RANK_BYTES),
    .f_slowest_time = IOLENS_ROLE(DAOS_F_SLOWEST_RANK_TIME),
    .c_slowest_rank = IOLENS_ROLE(DAOS_SLOWEST_RANK),
    .c_slowest_rank_bytes = IOLENS_ROLE(DAOS_SLOWEST_RANK_BYTES),
    .flags = IOLENS_ROLE_METRICS,
};

const struct iolens_module_desc iolens_daos_module = {
    .id = IOLENS_MOD_DAOS,
    .name = "DAOS",
    .version = IOLENS_DAOS_VERSION,
    .record_size = sizeof(struct iolens_daos_record),
    .legend_name = "DAOS",
    .summary = "DAOS object calls (objects, arrays, key-value): counts, bytes, sizes, timing",
    .counters = daos_counters,
    .ncounters = IOL_COUNT(daos_counters),
    .counters_offset = offsetof(struct iolens_daos_record, counters),
    .fcounters = daos_fcounters,
    .nfcounters = IOL_COUNT(daos_fcounters),
    .fcounters_offset = offsetof(struct iolens_daos_record, fcounters),
    .head_words = 2,
    .tail_bytes = TAIL_BYTES,
    .fixup = daos_fixup,
    .print = daos_print,
    .roles = &daos_roles,
};
