/* The merge engine: folds one record of a fixed-size module into another,
 * counter by counter, following the merge column of the module's counter
 * tables (include/iolens/module.h). It serves the totals of `iolens parse`
 * and is meant to serve the runtime's shared-file reduction too. */
#include <stdlib.h>
#include <string.h>

#include "iolens/module.h"
#include "merge.h"

/* One counter table of a record: where its 8-byte words start, and its rows. */
struct table {
    unsigned char *dst;
    const unsigned char *src;
    const struct iolens_counter *rows;
    size_t n;
};

static int64_t load_i(const unsigned char *words, size_t i)
{
    int64_t v;
    memcpy(&v, words + 8 * i, 8);
    return v;
}

static void store_i(unsigned char *words, size_t i, int64_t v)
{
    memcpy(words + 8 * i, &v, 8);
}

static double load_f(const unsigned char *words, size_t i)
{
    double v;
    memcpy(&v, words + 8 * i, 8);
    return v;
}

static void store_f(unsigned char *words, size_t i, double v)
{
    memcpy(words + 8 * i, &v, 8);
}

/* Two's-complement addition without signed-overflow undefined behaviour. */
static int64_t add_wrap(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* Does src's value at row i exceed dst's, compared as the row's kind? */
static int greater(const struct table *t, size_t i)
{
    switch (t->rows[i].kind) {
    case IOLENS_F64: return load_f(t->src, i) > load_f(t->dst, i);
    case IOLENS_U64: return (uint64_t)load_i(t->src, i) > (uint64_t)load_i(t->dst, i);
    default: return load_i(t->src, i) > load_i(t->dst, i);
    }
}

static void merge_sum(const struct table *t, size_t i, unsigned flags)
{
    if (t->rows[i].kind == IOLENS_F64) {
        store_f(t->dst, i, load_f(t->dst, i) + load_f(t->src, i));
        return;
    }
    int64_t v = add_wrap(load_i(t->dst, i), load_i(t->src, i));
    /* A negative total means some input was "not monitored" (-1): say so once. */
    if (t->rows[i].kind == IOLENS_I64 && v < 0 && !(flags & IOLENS_ROLE_SUM_UNCLAMPED))
        v = -1;
    store_i(t->dst, i, v);
}

/* Keep the earliest positive value: 0 (or less) means "never happened". */
static void merge_min_nonzero(const struct table *t, size_t i)
{
    if (t->rows[i].kind == IOLENS_F64) {
        double s = load_f(t->src, i), d = load_f(t->dst, i);
        if (s > 0 && (d == 0 || s < d))
            store_f(t->dst, i, s);
    } else {
        int64_t s = load_i(t->src, i), d = load_i(t->dst, i);
        if (s > 0 && (d == 0 || s < d))
            store_i(t->dst, i, s);
    }
}

/* Becomes 1 once any merged value is positive. */
static void merge_flag(const struct table *t, size_t i)
{
    if (t->rows[i].kind == IOLENS_F64) {
        if (load_f(t->src, i) > 0)
            store_f(t->dst, i, 1.0);
    } else if (load_i(t->src, i) > 0) {
        store_i(t->dst, i, 1);
    }
}

/* Merge a "four most common values" group: values in words 0-3 of v, their
 * occurrence counts in words 0-3 of c. Same results as Darshan's tools,
 * including their quirks: a 0 value ends the incoming list, and the count
 * used for ranking a new value is truncated to 32 bits. */
static void merge_top4(int64_t dv[4], int64_t dc[4], const int64_t sv[4], const int64_t sc[4])
{
    int seen[4] = {0, 0, 0, 0};

    /* Values dst already holds just add their counts. */
    for (int j = 0; j < 4; j++) {
        for (int k = 0; k < 4; k++) {
            if (dv[k] == sv[j]) {
                dc[k] = add_wrap(dc[k], sc[j]);
                seen[j] = 1;
            }
        }
    }
    /* The others are inserted by count (then by larger value), one by one. */
    for (int j = 0; j < 4; j++) {
        if (seen[j])
            continue;
        if (sv[j] == 0)
            break;
        int32_t rank_count = (int32_t)(uint32_t)sc[j];
        for (int k = 0; k < 4; k++) {
            if (dv[k] == sv[j]) {
                rank_count = (int32_t)(uint32_t)add_wrap(dc[k], sc[j]);
                break;
            }
        }
        int64_t nv[4] = {0, 0, 0, 0}, nc[4] = {0, 0, 0, 0};
        int n = 0, k = 0;
        while (k < 4 && (dc[k] > rank_count || (dc[k] == rank_count && dv[k] > sv[j]))) {
            nv[n] = dv[k];
            nc[n] = dc[k];
            n++;
            k++;
        }
        if (n == 4)
            break; /* ranks below all four kept values: nothing more can enter */
        nv[n] = sv[j];
        nc[n] = sc[j];
        n++;
        for (; n < 4 && k < 4; k++) {
            if (dv[k] != sv[j]) {
                nv[n] = dv[k];
                nc[n] = dc[k];
                n++;
            }
        }
        memcpy(dv, nv, sizeof(nv));
        memcpy(dc, nc, sizeof(nc));
    }
}

static void merge_top4_at(const struct table *t, size_t head, unsigned flags)
{
    int64_t dv[4], dc[4], sv[4], sc[4];
    for (size_t k = 0; k < 4; k++) {
        dv[k] = load_i(t->dst, head + k);
        dc[k] = load_i(t->dst, head + 4 + k);
        sv[k] = load_i(t->src, head + k);
        sc[k] = load_i(t->src, head + 4 + k);
    }
    if ((flags & IOLENS_ROLE_TOP4_NEEDS_HEAD) && sv[0] == 0)
        return;
    merge_top4(dv, dc, sv, sc);
    for (size_t k = 0; k < 4; k++) {
        store_i(t->dst, head + k, dv[k]);
        store_i(t->dst, head + 4 + k, dc[k]);
    }
}

/* The rank, bytes and I/O time src offers for the fastest or slowest rank:
 * a shared record (rank -1) carries them, a per-rank record is its own. */
struct rank_io {
    int64_t rank, bytes;
    double time;
};

static struct rank_io offered(const struct iolens_module_desc *mod, const unsigned char *src,
                              int slowest)
{
    const struct iolens_module_roles *r = mod->roles;
    const unsigned char *c = src + mod->counters_offset, *f = src + mod->fcounters_offset;
    struct iolens_record_base b;
    struct rank_io io;

    memcpy(&b, src, sizeof(b));
    if (b.rank == -1) {
        io.rank = load_i(c, (size_t)(slowest ? r->c_slowest_rank : r->c_fastest_rank));
        io.bytes = load_i(c, (size_t)(slowest ? r->c_slowest_rank_bytes
                                              : r->c_fastest_rank_bytes));
        io.time = load_f(f, (size_t)(slowest ? r->f_slowest_time : r->f_fastest_time));
    } else {
        io.rank = b.rank;
        io.bytes = add_wrap(load_i(c, (size_t)r->c_bytes_read),
                            load_i(c, (size_t)r->c_bytes_written));
        io.time = load_f(f, (size_t)r->f_read_time) + load_f(f, (size_t)r->f_write_time) +
                  load_f(f, (size_t)r->f_meta_time);
    }
    return io;
}

/* FASTEST or SLOWEST at fcounter i: meaningful only while every merged
 * record is of the same file; otherwise rank and bytes become -1, time 0. */
static void merge_extreme(const struct iolens_module_desc *mod, unsigned char *dst,
                          const unsigned char *src, size_t i, int slowest, int same_file,
                          int first)
{
    const struct iolens_module_roles *r = mod->roles;
    unsigned char *c = dst + mod->counters_offset, *f = dst + mod->fcounters_offset;
    size_t rank_at = (size_t)(slowest ? r->c_slowest_rank : r->c_fastest_rank);
    size_t bytes_at = (size_t)(slowest ? r->c_slowest_rank_bytes : r->c_fastest_rank_bytes);

    if (!same_file) {
        store_i(c, rank_at, -1);
        store_i(c, bytes_at, -1);
        store_f(f, i, 0.0);
        return;
    }
    struct rank_io io = offered(mod, src, slowest);
    double held = load_f(f, i);
    if (first || (slowest ? io.time > held : io.time < held)) {
        store_i(c, rank_at, io.rank);
        store_i(c, bytes_at, io.bytes);
        store_f(f, i, io.time);
    }
}

/* The counter a MAX_PAIRED fcounter carries along, or -1. */
static int paired_counter(const struct iolens_module_roles *r, size_t i)
{
    if (!r)
        return -1;
    if (r->f_max_read_time >= 0 && (size_t)r->f_max_read_time == i)
        return r->c_max_read_time_size;
    if (r->f_max_write_time >= 0 && (size_t)r->f_max_write_time == i)
        return r->c_max_write_time_size;
    return -1;
}

/* Are the counters a FASTEST or SLOWEST rule reads and writes all known? */
static int extreme_known(const struct iolens_module_roles *r, int slowest)
{
    if (!r || r->c_bytes_read < 0 || r->c_bytes_written < 0 || r->f_read_time < 0 ||
        r->f_write_time < 0 || r->f_meta_time < 0)
        return 0;
    if (slowest)
        return r->f_slowest_time >= 0 && r->c_slowest_rank >= 0 && r->c_slowest_rank_bytes >= 0;
    return r->f_fastest_time >= 0 && r->c_fastest_rank >= 0 && r->c_fastest_rank_bytes >= 0;
}

/* Can rule m at row i of a table of n rows be applied (is_f: fcounters)?
 * Rules that reach other counters need them to exist. Rules whose result
 * depends on more than the two records (running variances) and the tuple
 * and own-time variants of TOP4/FASTEST/SLOWEST are not implemented. */
static int rule_usable(const struct iolens_module_desc *mod, unsigned m, size_t i, size_t n,
                       int is_f)
{
    switch (m) {
    case IOLENS_MERGE_SUM:
    case IOLENS_MERGE_LAST:
    case IOLENS_MERGE_MAX:
    case IOLENS_MERGE_MIN_NONZERO:
    case IOLENS_MERGE_PAIRED:
    case IOLENS_MERGE_ZERO:
    case IOLENS_MERGE_FIRST:
    case IOLENS_MERGE_UNSET:
    case IOLENS_MERGE_FLAG:
        return 1;
    case IOLENS_MERGE_TOP4:
        return !is_f && i + 8 <= n;
    case IOLENS_MERGE_MAX_PAIRED: /* companions are only known for fcounters */
        return is_f && paired_counter(mod->roles, i) >= 0;
    case IOLENS_MERGE_FASTEST:
    case IOLENS_MERGE_SLOWEST:
        return is_f && extreme_known(mod->roles, m == IOLENS_MERGE_SLOWEST);
    default:
        return 0;
    }
}

static int usable(const struct iolens_module_desc *mod)
{
    if (mod->record_size < sizeof(struct iolens_record_base) ||
        mod->counters_offset + 8 * mod->ncounters > mod->record_size ||
        mod->fcounters_offset + 8 * mod->nfcounters > mod->record_size)
        return 0; /* variable-size (record_size 0) or inconsistent */
    for (size_t i = 0; i < mod->ncounters; i++)
        if (!rule_usable(mod, mod->counters[i].merge, i, mod->ncounters, 0))
            return 0;
    for (size_t i = 0; i < mod->nfcounters; i++)
        if (!rule_usable(mod, mod->fcounters[i].merge, i, mod->nfcounters, 1))
            return 0;
    return 1;
}

/* Apply the rule of row i of one table; fcounters may reach into the counters. */
static void merge_row(const struct iolens_module_desc *mod, const struct table *t, size_t i,
                      unsigned char *dst, const unsigned char *src, int same_file, int first,
                      unsigned flags)
{
    switch (t->rows[i].merge) {
    case IOLENS_MERGE_SUM:
        merge_sum(t, i, flags);
        break;
    case IOLENS_MERGE_LAST:
        memcpy(t->dst + 8 * i, t->src + 8 * i, 8);
        break;
    case IOLENS_MERGE_MAX:
        if (greater(t, i))
            memcpy(t->dst + 8 * i, t->src + 8 * i, 8);
        break;
    case IOLENS_MERGE_MIN_NONZERO:
        merge_min_nonzero(t, i);
        break;
    case IOLENS_MERGE_MAX_PAIRED:
        if (greater(t, i)) {
            size_t p = (size_t)paired_counter(mod->roles, i);
            memcpy(t->dst + 8 * i, t->src + 8 * i, 8);
            memcpy(dst + mod->counters_offset + 8 * p, src + mod->counters_offset + 8 * p, 8);
        }
        break;
    case IOLENS_MERGE_TOP4:
        merge_top4_at(t, i, flags);
        break;
    case IOLENS_MERGE_FASTEST:
    case IOLENS_MERGE_SLOWEST:
        merge_extreme(mod, dst, src, i, t->rows[i].merge == IOLENS_MERGE_SLOWEST,
                      same_file, first);
        break;
    case IOLENS_MERGE_ZERO:
        memset(t->dst + 8 * i, 0, 8);
        break;
    case IOLENS_MERGE_FIRST:
        if (first)
            memcpy(t->dst + 8 * i, t->src + 8 * i, 8);
        break;
    case IOLENS_MERGE_UNSET:
        if (t->rows[i].kind == IOLENS_F64)
            store_f(t->dst, i, -1.0);
        else
            store_i(t->dst, i, -1);
        break;
    case IOLENS_MERGE_FLAG:
        merge_flag(t, i);
        break;
    default: /* PAIRED: set by the counter it is paired with */
        break;
    }
}

/* Apply the rules of one table in order. */
static void merge_table(const struct iolens_module_desc *mod, const struct table *t,
                        unsigned char *dst, const unsigned char *src, int same_file, int first)
{
    unsigned flags = mod->roles ? mod->roles->flags : 0;
    for (size_t i = 0; i < t->n; i++)
        merge_row(mod, t, i, dst, src, same_file, first, flags);
}

void iol_merge_checked(const struct iolens_module_desc *mod, void *dst, const void *src,
                       int first)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    struct iolens_record_base db, sb;
    memcpy(&db, d, sizeof(db));
    memcpy(&sb, s, sizeof(sb));
    if (first)
        db = sb;
    int same_file = db.id == sb.id;
    if (!same_file)
        db.id = 0;
    if (db.rank != sb.rank)
        db.rank = -1;
    memcpy(d, &db, sizeof(db));

    struct table c = {d + mod->counters_offset, s + mod->counters_offset, mod->counters,
                      mod->ncounters};
    struct table f = {d + mod->fcounters_offset, s + mod->fcounters_offset, mod->fcounters,
                      mod->nfcounters};
    merge_table(mod, &c, d, s, same_file, first);
    merge_table(mod, &f, d, s, same_file, first);
}

/* Fold the base (id, rank) of src into dst. @return whether both name one file. */
static int merge_base(unsigned char *d, const unsigned char *s, int first)
{
    struct iolens_record_base db, sb;
    memcpy(&db, d, sizeof(db));
    memcpy(&sb, s, sizeof(sb));
    if (first)
        db = sb;
    int same_file = db.id == sb.id;
    if (!same_file)
        db.id = 0;
    if (db.rank != sb.rank)
        db.rank = -1;
    memcpy(d, &db, sizeof(db));
    return same_file;
}

iolens_status iol_merge_plan_init(struct iol_merge_plan *p, const struct iolens_module_desc *mod)
{
    size_t n = mod->ncounters + mod->nfcounters;
    unsigned flags = mod->roles ? mod->roles->flags : 0;
    memset(p, 0, sizeof(*p));
    p->mod = mod;
    p->rows = malloc(n * sizeof(*p->rows));
    if (!p->rows)
        return IOLENS_ERR_NOMEM;
    /* Sums first (no other rule reads a summed value of dst), then the rest
     * in table order. */
    for (size_t i = 0; i < mod->ncounters; i++) {
        const struct iolens_counter *c = &mod->counters[i];
        if (c->merge != IOLENS_MERGE_SUM || c->kind == IOLENS_F64)
            continue;
        if (c->kind == IOLENS_I64 && !(flags & IOLENS_ROLE_SUM_UNCLAMPED))
            p->rows[p->nsum_clamped++] = (uint16_t)i;
    }
    p->nsum_plain = 0;
    for (size_t i = 0; i < mod->ncounters; i++) {
        const struct iolens_counter *c = &mod->counters[i];
        if (c->merge == IOLENS_MERGE_SUM && c->kind != IOLENS_F64 &&
            !(c->kind == IOLENS_I64 && !(flags & IOLENS_ROLE_SUM_UNCLAMPED)))
            p->rows[p->nsum_clamped + p->nsum_plain++] = (uint16_t)i;
    }
    size_t k = p->nsum_clamped + p->nsum_plain;
    for (size_t i = 0; i < n; i++) {
        const struct iolens_counter *c =
            i < mod->ncounters ? &mod->counters[i] : &mod->fcounters[i - mod->ncounters];
        if (i < mod->ncounters && c->merge == IOLENS_MERGE_SUM && c->kind != IOLENS_F64)
            continue;
        if (c->merge == IOLENS_MERGE_PAIRED)
            continue;
        p->rows[k++] = (uint16_t)i;
    }
    p->nrest = k - p->nsum_clamped - p->nsum_plain;
    return IOLENS_OK;
}

void iol_merge_plan_free(struct iol_merge_plan *p)
{
    free(p->rows);
    p->rows = NULL;
}

void iol_merge_planned(const struct iol_merge_plan *p, void *dst, const void *src, int first)
{
    const struct iolens_module_desc *mod = p->mod;
    unsigned char *d = dst;
    const unsigned char *s = src;
    int same_file = merge_base(d, s, first);
    unsigned char *dc = d + mod->counters_offset;
    const unsigned char *sc = s + mod->counters_offset;
    unsigned flags = mod->roles ? mod->roles->flags : 0;
    const uint16_t *r = p->rows;

    for (size_t j = 0; j < p->nsum_clamped; j++, r++) {
        int64_t v = add_wrap(load_i(dc, *r), load_i(sc, *r));
        store_i(dc, *r, v < 0 ? -1 : v);
    }
    for (size_t j = 0; j < p->nsum_plain; j++, r++)
        store_i(dc, *r, add_wrap(load_i(dc, *r), load_i(sc, *r)));

    struct table c = {dc, sc, mod->counters, mod->ncounters};
    struct table f = {d + mod->fcounters_offset, s + mod->fcounters_offset, mod->fcounters,
                      mod->nfcounters};
    for (size_t j = 0; j < p->nrest; j++, r++) {
        if (*r < mod->ncounters)
            merge_row(mod, &c, *r, d, s, same_file, first, flags);
        else
            merge_row(mod, &f, *r - mod->ncounters, d, s, same_file, first, flags);
    }
}

int iol_merge_usable(const struct iolens_module_desc *mod)
{
    return mod && usable(mod);
}

iolens_status iolens_merge_record(const struct iolens_module_desc *mod, void *dst,
                                  const void *src, int first)
{
    if (!mod || !dst || !src || !usable(mod))
        return IOLENS_ERR_ARGUMENT;
    iol_merge_checked(mod, dst, src, first);
    return IOLENS_OK;
}
