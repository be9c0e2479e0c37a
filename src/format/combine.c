/* The combining engine: folds one record of a fixed-size module into another,
 * counter by counter, following the merge column of the module's counter
 * tables (include/iolens/module.h). One set of rules serves both of Darshan
 * 3.5's combiners: the totals of `iolens parse --total` (the accumulator)
 * and the MPI runtime's shared-record reduction (libiolens-mpi.so). */
#include <stdlib.h>

#include "combine.h"
#include "words.h"

/* Where Darshan 3.5's two combiners give different results: darshan-parser's
 * --total (each module's log_agg_records hook in darshan-util) and the
 * runtime's reduction (each module's *_record_reduction_op in darshan-runtime).
 * Every rule not named here is applied the same way in both modes; the
 * module-wide exceptions are the IOLENS_ROLE_* flags. */
struct mode_rules {
    /* Integer sums made -1 when negative: TOTAL clamps every SUM and COUNT
     * row, REDUCE only COUNT rows (POSIX's operation counts); bytes,
     * histograms and the rest then wrap as they are. */
    int clamp_every_sum;
    /* The base: TOTAL copies it from the first record, then makes the id 0
     * once ids differ and the rank -1 once ranks differ; REDUCE takes src's
     * id and rank -1. */
    int base_from_src;
    /* first: TOTAL merges the first record into a zeroed dst; REDUCE copies it. */
    int first_copies;
    /* MIN_NONZERO: src replaces a smaller positive value or a 0 in both; in
     * REDUCE a 0 is replaced even by a negative value. */
    int min_replaces_any_zero;
    /* TOP4: TOTAL updates dst's list in place (IOLENS_ROLE_TOP4_NEEDS_HEAD
     * applies there); REDUCE fills a new list with src's values, then dst's. */
    int top4_new_list;
    /* FASTEST and SLOWEST: TOTAL makes them unknown (-1, time 0) once records
     * of different files meet; REDUCE combines the records of one file. In
     * both a per-rank record offers its own rank, bytes and time, a shared
     * (or prepared) one those it carries, and ties keep dst's. FASTEST_OWN
     * and SLOWEST_OWN differ from them only where records of several files
     * or shared records meet, in darshan-parser's aggregation (not applied
     * yet); REDUCE, one file of prepared records, applies them as FASTEST
     * and SLOWEST. */
    int one_file;
    /* VARIANCE_*: REDUCE leaves them 0, to be filled from the variances'
     * own reduction (iolens_combine_variance_store); TOTAL leaves them 0
     * only for IOLENS_ROLE_TOTAL_NO_VARIANCE modules and otherwise does not
     * apply them (Darshan's running variance needs more than two records). */
    int variances_reduced;
    /* FIRST and UNSET belong to darshan-parser's aggregation of modules the
     * runtime's reduction does not cover: TOTAL only. UNSET_SUM rows, which
     * the runtime's reduction sums, are left out (UNSET) there too. FLAG is
     * the same in both. */
    int aggregation_rules;
};

static const struct mode_rules rules_of[] = {
    [IOLENS_COMBINE_TOTAL] = {.clamp_every_sum = 1, .aggregation_rules = 1},
    [IOLENS_COMBINE_REDUCE] = {.base_from_src = 1,
                               .first_copies = 1,
                               .min_replaces_any_zero = 1,
                               .top4_new_list = 1,
                               .one_file = 1,
                               .variances_reduced = 1},
};

/* One combining step: the records, the mode's rules and what the base says. */
struct step {
    const struct iolens_module_desc *mod;
    const struct mode_rules *mr;
    unsigned flags;
    unsigned char *dst;
    const unsigned char *src;
    int same_file, first;
};

/* One counter table of a record: where its 8-byte words start, and its rows. */
struct table {
    unsigned char *dst;
    const unsigned char *src;
    const struct iolens_counter *rows;
    size_t n;
};

static unsigned flags_of(const struct iolens_module_desc *mod)
{
    return mod->roles ? mod->roles->flags : 0;
}

static int int_sum(const struct iolens_counter *c)
{
    return (c->merge == IOLENS_MERGE_SUM || c->merge == IOLENS_MERGE_COUNT) &&
           c->kind != IOLENS_F64;
}

/* Does an integer sum at row c become -1 when negative, in mode mr? */
static int sum_clamps(const struct mode_rules *mr, unsigned flags, const struct iolens_counter *c)
{
    if (c->kind != IOLENS_I64 || (flags & IOLENS_ROLE_SUM_UNCLAMPED))
        return 0;
    return c->merge == IOLENS_MERGE_COUNT || mr->clamp_every_sum;
}

static int64_t sum_i(int64_t a, int64_t b, int clamp)
{
    int64_t v = iol_add_wrap(a, b);
    return clamp && v < 0 ? -1 : v;
}

/* Does src's value at row i exceed dst's, compared as the row's kind? */
static int greater(const struct table *t, size_t i)
{
    switch (t->rows[i].kind) {
    case IOLENS_F64: return iol_word_f(t->src, i) > iol_word_f(t->dst, i);
    case IOLENS_U64: return (uint64_t)iol_word_i(t->src, i) > (uint64_t)iol_word_i(t->dst, i);
    default: return iol_word_i(t->src, i) > iol_word_i(t->dst, i);
    }
}

static void take(const struct table *t, size_t i)
{
    memcpy(t->dst + 8 * i, t->src + 8 * i, 8);
}

static void combine_sum(const struct step *s, const struct table *t, size_t i)
{
    if (t->rows[i].kind == IOLENS_F64)
        iol_set_word_f(t->dst, i, iol_word_f(t->dst, i) + iol_word_f(t->src, i));
    else
        iol_set_word_i(t->dst, i, sum_i(iol_word_i(t->dst, i), iol_word_i(t->src, i),
                                        sum_clamps(s->mr, s->flags, &t->rows[i])));
}

/* The earliest positive value: 0 (or less) means "never happened". */
static void combine_min_nonzero(const struct step *s, const struct table *t, size_t i)
{
    int src_positive, dst_zero, smaller;
    if (t->rows[i].kind == IOLENS_F64) {
        double a = iol_word_f(t->src, i), b = iol_word_f(t->dst, i);
        src_positive = a > 0;
        dst_zero = b == 0;
        smaller = a < b;
    } else {
        int64_t a = iol_word_i(t->src, i), b = iol_word_i(t->dst, i);
        src_positive = a > 0;
        dst_zero = b == 0;
        smaller = a < b;
    }
    if ((src_positive && (dst_zero || smaller)) || (dst_zero && s->mr->min_replaces_any_zero))
        take(t, i);
}

/* A counter darshan-parser's aggregation leaves out: -1. */
static void leave_out(const struct table *t, size_t i)
{
    if (t->rows[i].kind == IOLENS_F64)
        iol_set_word_f(t->dst, i, -1.0);
    else
        iol_set_word_i(t->dst, i, -1);
}

/* Becomes 1 once any combined value is positive. */
static void combine_flag(const struct table *t, size_t i)
{
    if (t->rows[i].kind == IOLENS_F64) {
        if (iol_word_f(t->src, i) > 0)
            iol_set_word_f(t->dst, i, 1.0);
    } else if (iol_word_i(t->src, i) > 0) {
        iol_set_word_i(t->dst, i, 1);
    }
}

/* The TOP4 group headed at row head: values in words head..head+3, their
 * counts in the next four. */
static void combine_top4(const struct step *s, const struct table *t, size_t head)
{
    int64_t dv[4], dc[4], sv[4], sc[4];
    for (size_t k = 0; k < 4; k++) {
        dv[k] = iol_word_i(t->dst, head + k);
        dc[k] = iol_word_i(t->dst, head + 4 + k);
        sv[k] = iol_word_i(t->src, head + k);
        sc[k] = iol_word_i(t->src, head + 4 + k);
    }
    if (!s->mr->top4_new_list && (s->flags & IOLENS_ROLE_TOP4_NEEDS_HEAD) && sv[0] == 0)
        return;
    iol_top4_merge(dv, dc, sv, sc, s->mr->top4_new_list);
    for (size_t k = 0; k < 4; k++) {
        iol_set_word_i(t->dst, head + k, dv[k]);
        iol_set_word_i(t->dst, head + 4 + k, dc[k]);
    }
}

/* The TOP4_TUPLE group headed at row head: 4 tuples of IOL_TUPLE_WORDS
 * words, then their 4 counts (REDUCE only). */
static void combine_tuples(const struct table *t, size_t head)
{
    int64_t dv[4 * IOL_TUPLE_WORDS], dc[4], sv[4 * IOL_TUPLE_WORDS], sc[4];
    size_t counts = head + 4 * IOL_TUPLE_WORDS;
    for (size_t k = 0; k < 4 * IOL_TUPLE_WORDS; k++) {
        dv[k] = iol_word_i(t->dst, head + k);
        sv[k] = iol_word_i(t->src, head + k);
    }
    for (size_t k = 0; k < 4; k++) {
        dc[k] = iol_word_i(t->dst, counts + k);
        sc[k] = iol_word_i(t->src, counts + k);
    }
    iol_tuple4_reduce(dv, dc, sv, sc);
    for (size_t k = 0; k < 4 * IOL_TUPLE_WORDS; k++)
        iol_set_word_i(t->dst, head + k, dv[k]);
    for (size_t k = 0; k < 4; k++)
        iol_set_word_i(t->dst, counts + k, dc[k]);
}

/* The rank, bytes and I/O time src offers for the fastest or slowest rank:
 * a shared or prepared record (rank -1) carries them, a per-rank record is
 * its own. */
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
        io.rank = iol_word_i(c, iol_role_at(slowest ? r->c_slowest_rank : r->c_fastest_rank));
        io.bytes = iol_word_i(c, iol_role_at(slowest ? r->c_slowest_rank_bytes
                                                     : r->c_fastest_rank_bytes));
        io.time = iol_word_f(f, iol_role_at(slowest ? r->f_slowest_time : r->f_fastest_time));
    } else {
        io.rank = b.rank;
        io.bytes = iol_own_bytes(mod, src);
        io.time = iol_own_time(mod, src);
    }
    return io;
}

/* FASTEST or SLOWEST at fcounter i, with the rank and bytes it carries. */
static void combine_extreme(const struct step *s, size_t i, int slowest)
{
    const struct iolens_module_desc *mod = s->mod;
    const struct iolens_module_roles *r = mod->roles;
    unsigned char *c = s->dst + mod->counters_offset, *f = s->dst + mod->fcounters_offset;
    size_t rank_at = iol_role_at(slowest ? r->c_slowest_rank : r->c_fastest_rank);
    size_t bytes_at = iol_role_at(slowest ? r->c_slowest_rank_bytes : r->c_fastest_rank_bytes);

    if (!s->same_file) {
        iol_set_word_i(c, rank_at, -1);
        iol_set_word_i(c, bytes_at, -1);
        iol_set_word_f(f, i, 0.0);
        return;
    }
    struct rank_io io = offered(mod, s->src, slowest);
    double held = iol_word_f(f, i);
    if (s->first || (slowest ? io.time > held : io.time < held)) {
        iol_set_word_i(c, rank_at, io.rank);
        iol_set_word_i(c, bytes_at, io.bytes);
        iol_set_word_f(f, i, io.time);
    }
}

/* The counter a MAX_PAIRED fcounter carries along, or -1. */
static int paired_counter(const struct iolens_module_roles *r, size_t i)
{
    if (!r)
        return -1;
    if (r->f_max_read_time && iol_role_at(r->f_max_read_time) == i)
        return iolens_role_index(r->c_max_read_time_size);
    if (r->f_max_write_time && iol_role_at(r->f_max_write_time) == i)
        return iolens_role_index(r->c_max_write_time_size);
    return -1;
}

/* Apply the rule of row i of one table; fcounters may reach into the counters. */
static void combine_row(const struct step *s, const struct table *t, size_t i)
{
    switch (t->rows[i].merge) {
    case IOLENS_MERGE_SUM:
    case IOLENS_MERGE_COUNT:
        combine_sum(s, t, i);
        break;
    case IOLENS_MERGE_LAST:
        take(t, i);
        break;
    case IOLENS_MERGE_MAX:
        if (greater(t, i))
            take(t, i);
        break;
    case IOLENS_MERGE_MIN_NONZERO:
        combine_min_nonzero(s, t, i);
        break;
    case IOLENS_MERGE_MAX_PAIRED:
        if (greater(t, i)) {
            size_t p = s->mod->counters_offset + 8 * (size_t)paired_counter(s->mod->roles, i);
            take(t, i);
            memcpy(s->dst + p, s->src + p, 8);
        }
        break;
    case IOLENS_MERGE_TOP4:
        combine_top4(s, t, i);
        break;
    case IOLENS_MERGE_TOP4_TUPLE:
        combine_tuples(t, i);
        break;
    case IOLENS_MERGE_FASTEST:
    case IOLENS_MERGE_SLOWEST:
    case IOLENS_MERGE_FASTEST_OWN: /* REDUCE only, where they are FASTEST and SLOWEST */
    case IOLENS_MERGE_SLOWEST_OWN:
        combine_extreme(s, i, t->rows[i].merge == IOLENS_MERGE_SLOWEST ||
                                  t->rows[i].merge == IOLENS_MERGE_SLOWEST_OWN);
        break;
    case IOLENS_MERGE_ZERO:
    case IOLENS_MERGE_VARIANCE_TIME:
    case IOLENS_MERGE_VARIANCE_BYTES:
        memset(t->dst + 8 * i, 0, 8);
        break;
    case IOLENS_MERGE_FIRST:
        if (s->first)
            take(t, i);
        break;
    case IOLENS_MERGE_UNSET_SUM:
        if (s->mr->aggregation_rules)
            leave_out(t, i);
        else
            combine_sum(s, t, i);
        break;
    case IOLENS_MERGE_UNSET:
        leave_out(t, i);
        break;
    case IOLENS_MERGE_FLAG:
        combine_flag(t, i);
        break;
    default: /* PAIRED: set by the row it is paired with */
        break;
    }
}

/* Are the counters a FASTEST or SLOWEST rule reads and writes all known? */
static int extreme_known(const struct iolens_module_roles *r, int slowest)
{
    if (!r || !r->c_bytes_read || !r->c_bytes_written || !r->f_read_time || !r->f_write_time ||
        !r->f_meta_time)
        return 0;
    if (slowest)
        return r->f_slowest_time && r->c_slowest_rank && r->c_slowest_rank_bytes;
    return r->f_fastest_time && r->c_fastest_rank && r->c_fastest_rank_bytes;
}

/* Can rule m at row i of a table of n rows be applied (is_f: fcounters)?
 * Rules that reach other counters need them to exist. The tuple and own-time
 * variants of TOP4, FASTEST and SLOWEST are applied in REDUCE only (H5D and
 * PNETCDF_VAR: darshan-parser's aggregation of them is not applied yet). */
static int rule_usable(const struct iolens_module_desc *mod, const struct mode_rules *mr,
                       unsigned m, size_t i, size_t n, int is_f)
{
    switch (m) {
    case IOLENS_MERGE_SUM:
    case IOLENS_MERGE_COUNT:
    case IOLENS_MERGE_LAST:
    case IOLENS_MERGE_MAX:
    case IOLENS_MERGE_MIN_NONZERO:
    case IOLENS_MERGE_PAIRED:
    case IOLENS_MERGE_ZERO:
    case IOLENS_MERGE_FLAG:
    case IOLENS_MERGE_UNSET_SUM:
        return 1;
    case IOLENS_MERGE_FIRST:
    case IOLENS_MERGE_UNSET:
        return mr->aggregation_rules;
    case IOLENS_MERGE_TOP4_TUPLE: /* the new-list merge only: REDUCE's */
        return mr->top4_new_list && !is_f && i + 4 * IOL_TUPLE_WORDS + 4 <= n;
    case IOLENS_MERGE_FASTEST_OWN: /* see one_file */
    case IOLENS_MERGE_SLOWEST_OWN:
        return mr->one_file && is_f &&
               extreme_known(mod->roles, m == IOLENS_MERGE_SLOWEST_OWN);
    case IOLENS_MERGE_VARIANCE_TIME:
    case IOLENS_MERGE_VARIANCE_BYTES: /* REDUCE: iolens_combine_variance_init's roles */
        return (mr->variances_reduced && extreme_known(mod->roles, 0)) ||
               (flags_of(mod) & IOLENS_ROLE_TOTAL_NO_VARIANCE);
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

int iolens_combine_supported(const struct iolens_module_desc *mod, iolens_combine_mode mode)
{
    if (!mod || (mode != IOLENS_COMBINE_TOTAL && mode != IOLENS_COMBINE_REDUCE))
        return 0;
    const struct mode_rules *mr = &rules_of[mode];
    if (mod->record_size < sizeof(struct iolens_record_base) ||
        mod->counters_offset + 8 * mod->ncounters > mod->record_size ||
        mod->fcounters_offset + 8 * mod->nfcounters > mod->record_size)
        return 0; /* variable-size (record_size 0) or inconsistent */
    /* The runtime's preparation writes the fastest and slowest rank of a
     * module that keeps them (its FASTEST and SLOWEST rows need the roles). */
    if (mode == IOLENS_COMBINE_REDUCE && !iol_extremes_absent(mod) &&
        !(extreme_known(mod->roles, 0) && extreme_known(mod->roles, 1)))
        return 0;
    for (size_t i = 0; i < mod->ncounters; i++)
        if (!rule_usable(mod, mr, mod->counters[i].merge, i, mod->ncounters, 0))
            return 0;
    for (size_t i = 0; i < mod->nfcounters; i++)
        if (!rule_usable(mod, mr, mod->fcounters[i].merge, i, mod->nfcounters, 1))
            return 0;
    return 1;
}

/* REDUCE's first record: a copy of src. */
static void copy_record(const struct iolens_module_desc *mod, unsigned char *d,
                        const unsigned char *s)
{
    memcpy(d, s, sizeof(struct iolens_record_base));
    memcpy(d + mod->counters_offset, s + mod->counters_offset, 8 * mod->ncounters);
    memcpy(d + mod->fcounters_offset, s + mod->fcounters_offset, 8 * mod->nfcounters);
}

/* Start a step: fold src's base (id, rank) into dst's as the mode says.
 * @return 0 when REDUCE's first record was copied and nothing is left to do. */
static int start_step(struct step *s, const struct iolens_module_desc *mod,
                      iolens_combine_mode mode, void *dst, const void *src, int first)
{
    struct iolens_record_base db, sb;

    s->mod = mod;
    s->mr = &rules_of[mode];
    s->flags = flags_of(mod);
    s->dst = dst;
    s->src = src;
    s->first = first;
    if (first && s->mr->first_copies) {
        copy_record(mod, s->dst, s->src);
        return 0;
    }
    memcpy(&db, dst, sizeof(db));
    memcpy(&sb, src, sizeof(sb));
    if (first)
        db = sb;
    s->same_file = s->mr->one_file || db.id == sb.id;
    if (s->mr->base_from_src) {
        db.id = sb.id;
        db.rank = -1;
    } else {
        if (db.id != sb.id)
            db.id = 0;
        if (db.rank != sb.rank)
            db.rank = -1;
    }
    memcpy(dst, &db, sizeof(db));
    return 1;
}

void iol_combine_checked(const struct iolens_module_desc *mod, iolens_combine_mode mode,
                         void *dst, const void *src, int first)
{
    struct step s;
    if (!start_step(&s, mod, mode, dst, src, first))
        return;
    struct table c = {s.dst + mod->counters_offset, s.src + mod->counters_offset, mod->counters,
                      mod->ncounters};
    struct table f = {s.dst + mod->fcounters_offset, s.src + mod->fcounters_offset,
                      mod->fcounters, mod->nfcounters};
    /* Every rule reads and writes only its own rows and those paired with
     * them, so dst is updated in place, in any order. */
    for (size_t i = 0; i < c.n; i++)
        combine_row(&s, &c, i);
    for (size_t i = 0; i < f.n; i++)
        combine_row(&s, &f, i);
}

iolens_status iolens_combine_record(const struct iolens_module_desc *mod,
                                    iolens_combine_mode mode, void *dst, const void *src,
                                    int first)
{
    if (!dst || !src || !iolens_combine_supported(mod, mode))
        return IOLENS_ERR_ARGUMENT;
    iol_combine_checked(mod, mode, dst, src, first);
    return IOLENS_OK;
}

iolens_status iol_combine_plan_init(struct iol_combine_plan *p,
                                    const struct iolens_module_desc *mod,
                                    iolens_combine_mode mode)
{
    size_t n = mod->ncounters + mod->nfcounters, k = 0;
    const struct mode_rules *mr = &rules_of[mode];
    unsigned flags = flags_of(mod);

    memset(p, 0, sizeof(*p));
    p->mod = mod;
    p->mode = mode;
    p->rows = malloc(n * sizeof(*p->rows));
    if (!p->rows)
        return IOLENS_ERR_NOMEM;
    /* Integer sums first (no other rule reads a summed value of dst), the
     * clamped ones, then the others; then the rest in table order. */
    for (int clamped = 1; clamped >= 0; clamped--) {
        for (size_t i = 0; i < mod->ncounters; i++) {
            const struct iolens_counter *c = &mod->counters[i];
            if (int_sum(c) && sum_clamps(mr, flags, c) == clamped)
                p->rows[k++] = (uint16_t)i;
        }
        if (clamped)
            p->nsum_clamped = k;
    }
    p->nsum_plain = k - p->nsum_clamped;
    for (size_t i = 0; i < n; i++) {
        const struct iolens_counter *c =
            i < mod->ncounters ? &mod->counters[i] : &mod->fcounters[i - mod->ncounters];
        if ((i < mod->ncounters && int_sum(c)) || c->merge == IOLENS_MERGE_PAIRED)
            continue;
        p->rows[k++] = (uint16_t)i;
    }
    p->nrest = k - p->nsum_clamped - p->nsum_plain;
    return IOLENS_OK;
}

void iol_combine_plan_free(struct iol_combine_plan *p)
{
    free(p->rows);
    p->rows = NULL;
}

void iol_combine_planned(const struct iol_combine_plan *p, void *dst, const void *src,
                         int first)
{
    const struct iolens_module_desc *mod = p->mod;
    struct step s;
    if (!start_step(&s, mod, p->mode, dst, src, first))
        return;
    unsigned char *dc = s.dst + mod->counters_offset;
    const unsigned char *sc = s.src + mod->counters_offset;
    const uint16_t *r = p->rows;

    for (size_t j = 0; j < p->nsum_clamped; j++, r++)
        iol_set_word_i(dc, *r, sum_i(iol_word_i(dc, *r), iol_word_i(sc, *r), 1));
    for (size_t j = 0; j < p->nsum_plain; j++, r++)
        iol_set_word_i(dc, *r, iol_add_wrap(iol_word_i(dc, *r), iol_word_i(sc, *r)));

    struct table c = {dc, sc, mod->counters, mod->ncounters};
    struct table f = {s.dst + mod->fcounters_offset, s.src + mod->fcounters_offset,
                      mod->fcounters, mod->nfcounters};
    for (size_t j = 0; j < p->nrest; j++, r++) {
        if (*r < mod->ncounters)
            combine_row(&s, &c, *r);
        else
            combine_row(&s, &f, *r - mod->ncounters);
    }
}
