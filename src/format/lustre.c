/* LUSTRE module descriptor: decoding record versions 1 and 2 into the layout
 * of include/iolens/modules/lustre.h, encoding version 2, and printing. */
#include <string.h>

#include "../common/byteorder.h"
#include "iolens/modules/lustre.h"
#include "varmod.h"

#define HEAD_BYTES sizeof(struct iolens_lustre_record)
#define COMP_BYTES sizeof(struct iolens_lustre_component)
#define V1_WORDS 7 /* id, rank, OST count, MDT count, stripe offset, size, width */

static struct iolens_lustre_record *rec_of(struct iolens_recbuf *out)
{
    return (struct iolens_lustre_record *)(void *)out->data;
}

/* Version 1: one stripe pattern, then stripe-width OST indices. */
static iolens_status read_v1(struct iolens_region *rg, int swap, struct iolens_recbuf *out)
{
    int64_t w[V1_WORDS];
    size_t osts;
    iolens_status st = iol_region_read_exact(rg, w, sizeof(w));

    if (st != IOLENS_OK)
        return st;
    if (swap)
        iol_bswap64_words(w, V1_WORDS);
    if (iol_var_span(w[6], sizeof(int64_t), HEAD_BYTES + COMP_BYTES, &osts))
        return IOLENS_ERR_CORRUPT;
    if ((st = iol_recbuf_reserve(out, HEAD_BYTES + COMP_BYTES)) != IOLENS_OK)
        return st;

    struct iolens_lustre_record *rec = rec_of(out);
    struct iolens_lustre_component *c = &rec->comps[0];
    memcpy(&rec->base, w, sizeof(rec->base));
    rec->num_comps = 1;
    rec->num_stripes = w[6];
    memset(c, 0, sizeof(*c));
    c->counters[LUSTRE_COMP_STRIPE_SIZE] = w[5];
    c->counters[LUSTRE_COMP_STRIPE_COUNT] = w[6];
    c->counters[LUSTRE_COMP_STRIPE_PATTERN] = -1;
    c->counters[LUSTRE_COMP_FLAGS] = -1;
    c->counters[LUSTRE_COMP_EXT_START] = 0;
    c->counters[LUSTRE_COMP_EXT_END] = -1;
    c->counters[LUSTRE_COMP_MIRROR_ID] = -1;

    st = iol_var_read_more(rg, out, HEAD_BYTES + COMP_BYTES, osts);
    if (st != IOLENS_OK)
        return st;
    if (swap)
        iol_bswap64_words(out->data + HEAD_BYTES + COMP_BYTES, osts / 8);
    out->size = HEAD_BYTES + COMP_BYTES + osts;
    return IOLENS_OK;
}

/* Drop the unused component slots (stripe size -1) and the OST slots only
 * they would have used; check that the OSTs the others use are present.
 * comps_bytes is the components' extent before dropping. */
static iolens_status trim_v2(struct iolens_recbuf *out, size_t comps_bytes)
{
    struct iolens_lustre_record *rec = rec_of(out);
    int64_t keep = 0, stripes = 0;

    for (; keep < rec->num_comps; keep++) {
        struct iolens_lustre_component *c = &rec->comps[keep];
        int64_t count = c->counters[LUSTRE_COMP_STRIPE_COUNT];
        if (c->counters[LUSTRE_COMP_STRIPE_SIZE] == -1)
            break;
        if (count < 0 || count > rec->num_stripes - stripes)
            return IOLENS_ERR_CORRUPT;
        stripes += count;
        c->pool_name[IOLENS_LUSTRE_POOL_NAME_SIZE - 1] = '\0';
    }
    memmove(&rec->comps[keep], out->data + HEAD_BYTES + comps_bytes,
            (size_t)stripes * sizeof(int64_t));
    rec->num_comps = keep;
    rec->num_stripes = stripes;
    out->size = iolens_lustre_record_bytes(rec);
    return IOLENS_OK;
}

/* Version 2: counts, then the components, then the OST indices. */
static iolens_status read_v2(struct iolens_region *rg, int swap, struct iolens_recbuf *out)
{
    size_t comps, osts;
    iolens_status st = iol_var_read_head(rg, out, HEAD_BYTES);

    if (st != IOLENS_OK)
        return st;
    struct iolens_lustre_record *rec = rec_of(out);
    if (swap)
        iol_bswap64_words(rec, HEAD_BYTES / 8);
    if (rec->num_comps == 0) {
        /* Nothing follows a record without components; it has no OSTs. */
        rec->num_stripes = 0;
        out->size = HEAD_BYTES;
        return IOLENS_OK;
    }
    if (iol_var_span(rec->num_comps, COMP_BYTES, HEAD_BYTES, &comps) ||
        iol_var_span(rec->num_stripes, sizeof(int64_t), HEAD_BYTES + comps, &osts))
        return IOLENS_ERR_CORRUPT;

    st = iol_var_read_more(rg, out, HEAD_BYTES, comps + osts);
    if (st != IOLENS_OK)
        return st;
    rec = rec_of(out);
    if (swap) {
        for (int64_t i = 0; i < rec->num_comps; i++)
            iol_bswap64_words(rec->comps[i].counters, LUSTRE_COMP_NUM_INDICES);
        iol_bswap64_words(out->data + HEAD_BYTES + comps, osts / 8);
    }
    return trim_v2(out, comps);
}

static iolens_status lustre_read(struct iolens_region *rg, uint32_t ver, int swap,
                                 void *state, struct iolens_recbuf *out)
{
    if (ver == 1)
        return read_v1(rg, swap, out);
    if (ver == 2)
        return read_v2(rg, swap, out);
    return IOLENS_ERR_VERSION;
}

static iolens_status lustre_encode(const void *r, uint32_t ver, struct iolens_recbuf *out)
{
    (void)ver; /* one version written: the newest */
    const struct iolens_lustre_record *rec = r;
    size_t comps, osts;
    int64_t stripes = 0;
    iolens_status st;

    if (iol_var_span(rec->num_comps, COMP_BYTES, HEAD_BYTES, &comps) ||
        iol_var_span(rec->num_stripes, sizeof(int64_t), HEAD_BYTES + comps, &osts))
        return IOLENS_ERR_ARGUMENT;
    for (int64_t i = 0; i < rec->num_comps; i++) {
        int64_t count = rec->comps[i].counters[LUSTRE_COMP_STRIPE_COUNT];
        if (count < 0 || count > rec->num_stripes - stripes)
            return IOLENS_ERR_ARGUMENT;
        stripes += count;
    }
    if (stripes != rec->num_stripes)
        return IOLENS_ERR_ARGUMENT;
    if ((st = iol_recbuf_reserve(out, HEAD_BYTES + comps + osts)) != IOLENS_OK)
        return st;
    memcpy(out->data, rec, HEAD_BYTES + comps + osts);
    out->size = HEAD_BYTES + comps + osts;
    return IOLENS_OK;
}

/* Names of a layout's pattern values, as darshan-parser prints them. */
static const char *pattern_name(int64_t v)
{
    switch ((uint64_t)v) {
    case 0: return "raid0";
    case 2: return "mdt";
    case 4: return "raid0,overstriped";
    case 8: return "foreign";
    }
    return "N/A";
}

/* Component flags as darshan-parser prints them: the names of the set bits
 * (bit k names flag k of this list), each followed by a comma, cut at 64
 * characters, and the last character dropped; "0" if none; "N/A" for -1. */
#define FLAGS_TEXT_MAX 64
static void flags_text(int64_t v, char buf[FLAGS_TEXT_MAX + 1])
{
    static const char *const names[] = {"stale", "prefrd", "prefwr", "offline",
                                        "init", "nosync", "extension", "parity",
                                        "compress", "partial", "nocompr", "neg"};
    size_t len = 0;

    if (v == -1) {
        memcpy(buf, "N/A", 4);
        return;
    }
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        if (!(((uint64_t)v >> k) & 1))
            continue;
        for (const char *p = names[k]; *p && len < FLAGS_TEXT_MAX; p++)
            buf[len++] = *p;
        if (len < FLAGS_TEXT_MAX)
            buf[len++] = ',';
    }
    if (len)
        buf[len - 1] = '\0';
    else
        memcpy(buf, "0", 2);
}

static const char *const comp_names[] = {
#define IOL_X_NAME(name, desc) #name,
    IOLENS_LUSTRE_COMP_COUNTERS(IOL_X_NAME)
#undef IOL_X_NAME
};

static void lustre_print(FILE *out, const void *r, const struct iolens_print_ctx *ctx)
{
    const struct iolens_lustre_record *rec = r;
    const int64_t *ost = iolens_lustre_osts(rec);
    const size_t prefix = strlen("LUSTRE_COMP");
    char name[64], text[FLAGS_TEXT_MAX + 1];

    iol_var_line_i64(out, "LUSTRE", &rec->base, "LUSTRE_NUM_COMPONENTS", rec->num_comps, ctx);
    iol_var_line_i64(out, "LUSTRE", &rec->base, "LUSTRE_NUM_STRIPES", rec->num_stripes, ctx);
    for (int64_t i = 0; i < rec->num_comps; i++) {
        const struct iolens_lustre_component *c = &rec->comps[i];
        for (int j = 0; j < LUSTRE_COMP_NUM_INDICES; j++) {
            int64_t v = c->counters[j];
            snprintf(name, sizeof(name), "LUSTRE_COMP%lld%s", (long long)i + 1,
                     comp_names[j] + prefix);
            if (j == LUSTRE_COMP_STRIPE_PATTERN) {
                iol_var_line_str(out, "LUSTRE", &rec->base, name, pattern_name(v), ctx);
            } else if (j == LUSTRE_COMP_FLAGS) {
                flags_text(v, text);
                iol_var_line_str(out, "LUSTRE", &rec->base, name, text, ctx);
            } else {
                iol_var_line_i64(out, "LUSTRE", &rec->base, name, v, ctx);
            }
        }
        snprintf(name, sizeof(name), "LUSTRE_COMP%lld_POOL_NAME", (long long)i + 1);
        iol_var_line_str(out, "LUSTRE", &rec->base, name, c->pool_name[0] ? c->pool_name : "N/A",
                         ctx);
        for (int64_t j = 0; j < c->counters[LUSTRE_COMP_STRIPE_COUNT]; j++) {
            snprintf(name, sizeof(name), "LUSTRE_COMP%lld_OST_ID_%lld", (long long)i + 1,
                     (long long)j);
            iol_var_line_i64(out, "LUSTRE", &rec->base, name, *ost++, ctx);
        }
    }
}

static size_t lustre_size(const void *rec)
{
    return iolens_lustre_record_bytes(rec);
}

const struct iolens_module_desc iolens_lustre_module = {
    .id = IOLENS_MOD_LUSTRE,
    .name = "LUSTRE",
    .version = IOLENS_LUSTRE_VERSION,
    .record_size = 0,
    .summary = "Lustre striping of each file: layout components, stripe sizes and counts, "
               "and the OSTs each component uses",
    .legend_name = "LUSTRE",
    .read = lustre_read,
    .encode = lustre_encode,
    .print = lustre_print,
    .var_size = lustre_size,
};
