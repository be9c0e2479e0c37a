/* MDHIM module descriptor: counters of include/iolens/modules/mdhim.h, and the
 * decoder, encoder and printer of its variable-size records. */
#include <string.h>

#include "../common/byteorder.h"
#include "iolens/modules/mdhim.h"
#include "module_util.h"
#include "varmod.h"

/* The fixed part as stored: the record's header plus its first server slot. */
#define HEAD_BYTES (sizeof(struct iolens_mdhim_record) + sizeof(int64_t))

static const struct iolens_counter mdhim_counters[] = {
    IOLENS_MDHIM_COUNTERS(IOL_COUNTER_ROW)
};
static const struct iolens_counter mdhim_fcounters[] = {
    IOLENS_MDHIM_FCOUNTERS(IOL_COUNTER_ROW)
};

/* Server slots a record holds: the server count, but at least the one slot
 * every record stores. */
static int64_t slots_of(const struct iolens_mdhim_record *rec)
{
    return rec->counters[MDHIM_SERVERS] > 1 ? rec->counters[MDHIM_SERVERS] : 1;
}

static size_t mdhim_size(const void *r)
{
    return sizeof(struct iolens_mdhim_record) + (size_t)slots_of(r) * sizeof(int64_t);
}

/* Decode one record: the fixed part, then the remaining server slots.
 * @return IOLENS_OK with a record, IOLENS_END at the region's end, or an error. */
static iolens_status mdhim_read(struct iolens_region *rg, uint32_t ver, int swap,
                                void *state, struct iolens_recbuf *out)
{
    struct iolens_mdhim_record *rec;
    size_t more;
    iolens_status st;

    if (ver != IOLENS_MDHIM_VERSION)
        return IOLENS_ERR_VERSION;
    if ((st = iol_var_read_head(rg, out, HEAD_BYTES)) != IOLENS_OK)
        return st;
    if (swap)
        iol_bswap64_words(out->data, HEAD_BYTES / 8);
    rec = (void *)out->data;
    if (iol_var_span(slots_of(rec) - 1, sizeof(int64_t), HEAD_BYTES, &more))
        return IOLENS_ERR_CORRUPT;
    if ((st = iol_var_read_more(rg, out, HEAD_BYTES, more)) != IOLENS_OK)
        return st;
    if (swap)
        iol_bswap64_words(out->data + HEAD_BYTES, more / 8);
    out->size = HEAD_BYTES + more;
    return IOLENS_OK;
}

/* A decoded record is already in the stored layout: copy it. */
static iolens_status mdhim_encode(const void *r, uint32_t ver, struct iolens_recbuf *out)
{
    (void)ver; /* one version written: the newest */
    size_t n = mdhim_size(r);
    iolens_status st = iol_recbuf_reserve(out, n);

    if (st != IOLENS_OK)
        return st;
    memcpy(out->data, r, n);
    out->size = n;
    return IOLENS_OK;
}

/* The counters, then one MDHIM_SERVER_<n> line per server. */
static void mdhim_print(FILE *out, const void *r, const struct iolens_print_ctx *ctx)
{
    const struct iolens_mdhim_record *rec = r;
    char name[40];

    iolens_print_counters(out, &iolens_mdhim_module, r, ctx);
    for (int64_t i = 0; i < rec->counters[MDHIM_SERVERS]; i++) {
        snprintf(name, sizeof(name), "MDHIM_SERVER_%lld", (long long)i);
        iol_var_line_i64(out, "MDHIM", &rec->base, name, rec->server_ops[i], ctx);
    }
}

static const struct iolens_module_roles mdhim_roles = {
    .flags = IOLENS_ROLE_SUM_UNCLAMPED,
};

const struct iolens_module_desc iolens_mdhim_module = {
    .id = IOLENS_MOD_MDHIM,
    .name = "MDHIM",
    .version = IOLENS_MDHIM_VERSION,
    .record_size = 0,
    .legend_name = "MDHIM",
    .summary = "MDHIM key-value store calls: puts, gets, sizes, timing, load per server",
    .counters = mdhim_counters,
    .ncounters = IOL_COUNT(mdhim_counters),
    .counters_offset = offsetof(struct iolens_mdhim_record, counters),
    .fcounters = mdhim_fcounters,
    .nfcounters = IOL_COUNT(mdhim_fcounters),
    .fcounters_offset = offsetof(struct iolens_mdhim_record, fcounters),
    .head_words = 2,
    .read = mdhim_read,
    .encode = mdhim_encode,
    .print = mdhim_print,
    .roles = &mdhim_roles,
    .var_size = mdhim_size,
};
