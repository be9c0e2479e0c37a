/* Unit tests of the combining engine's REDUCE mode, the MPI runtime's
 * shared-record reduction (src/format/combine*.c): each rule on hand-made
 * records of every module of the module table the mode supports, the
 * dependence on the combining order, and records the reference runtime
 * reduced, combined again here in Open MPI's order (data and how it was
 * made: reduce-data/README.md). */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format/combine.h"
#include "iolens/modules/h5d.h"
#include "iolens/modules/h5f.h"
#include "iolens/modules/mpiio.h"
#include "iolens/modules/pnetcdf_file.h"
#include "iolens/modules/pnetcdf_var.h"
#include "iolens/modules/posix.h"
#include "iolens/modules/stdio.h"

static const char *data_dir; /* argv[1]: the reduce-data directory */

/* ---- records seen through a module's descriptor ---- */

/* A zeroed record of m with the given base, in a buffer large enough for any. */
struct rec {
    _Alignas(8) unsigned char b[2048];
};

static struct rec new_rec(const struct iolens_module_desc *m, uint64_t id, int64_t rank)
{
    struct rec r;
    struct iolens_record_base b = {id, rank};
    assert_true(m->record_size <= sizeof(r.b));
    memset(&r, 0, sizeof(r));
    memcpy(r.b, &b, sizeof(b));
    return r;
}

static int64_t gc(const struct iolens_module_desc *m, const struct rec *r, int i)
{
    int64_t v;
    memcpy(&v, r->b + m->counters_offset + 8 * (size_t)i, 8);
    return v;
}

static void sc(const struct iolens_module_desc *m, struct rec *r, int i, int64_t v)
{
    memcpy(r->b + m->counters_offset + 8 * (size_t)i, &v, 8);
}

static double gf(const struct iolens_module_desc *m, const struct rec *r, int i)
{
    double v;
    memcpy(&v, r->b + m->fcounters_offset + 8 * (size_t)i, 8);
    return v;
}

static void sf(const struct iolens_module_desc *m, struct rec *r, int i, double v)
{
    memcpy(r->b + m->fcounters_offset + 8 * (size_t)i, &v, 8);
}

static struct iolens_record_base base(const struct rec *r)
{
    struct iolens_record_base b;
    memcpy(&b, r->b, sizeof(b));
    return b;
}

/* One step of the reduction: incoming record in into accumulated acc. */
static void combine(const struct iolens_module_desc *m, const struct rec *in, struct rec *acc)
{
    assert_int_equal(iolens_combine_record(m, IOLENS_COMBINE_REDUCE, acc->b, in->b, 0),
                     IOLENS_OK);
}

static void prepare(const struct iolens_module_desc *m, struct rec *r)
{
    assert_int_equal(iolens_combine_prepare(m, r->b), IOLENS_OK);
}

static struct variances {
    struct iolens_variance time, bytes;
} variances(const struct iolens_module_desc *m, const struct rec *r)
{
    struct variances v;
    assert_int_equal(iolens_combine_variance_init(m, r->b, &v.time, &v.bytes), IOLENS_OK);
    return v;
}

/* ---- the module table ---- */

/* Modules of the table the REDUCE mode supports, filled in main. */
static const struct iolens_module_desc *modules[IOLENS_MOD_KNOWN_COUNT];

static const struct iolens_module_desc *mod_of(void **state)
{
    return *state;
}

/* The modules the runtime reduces are supported, each with one variance row
 * of time and one of bytes but those that keep no fastest or slowest rank
 * (H5F, PNETCDF_FILE: none); modules with fastest and slowest rows but
 * without the roles the preparation writes are not, nor are NULL and
 * unknown modes. */
static void supported_modules(void **state)
{
    static const struct iolens_module_desc *const reduced[] = {
        &iolens_posix_module, &iolens_mpiio_module, &iolens_stdio_module,
        &iolens_h5f_module, &iolens_h5d_module, &iolens_pnetcdf_file_module,
        &iolens_pnetcdf_var_module};
    (void)state;
    for (size_t k = 0; k < sizeof(reduced) / sizeof(reduced[0]); k++) {
        const struct iolens_module_desc *m = reduced[k];
        int ntime = 0, nbytes = 0, want = !iol_extremes_absent(m);
        assert_true(iolens_combine_supported(m, IOLENS_COMBINE_REDUCE));
        for (size_t i = 0; i < m->nfcounters; i++) {
            ntime += m->fcounters[i].merge == IOLENS_MERGE_VARIANCE_TIME;
            nbytes += m->fcounters[i].merge == IOLENS_MERGE_VARIANCE_BYTES;
        }
        assert_true(ntime == want && nbytes == want);
    }
    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        const struct iolens_module_desc *m = iolens_module(id);
        const struct iolens_module_roles *r = m ? m->roles : NULL;
        if (m && !iol_extremes_absent(m) && (!r->f_fastest_time || !r->f_slowest_time))
            assert_false(iolens_combine_supported(m, IOLENS_COMBINE_REDUCE));
    }
    assert_false(iolens_combine_supported(NULL, IOLENS_COMBINE_REDUCE));
    assert_false(iolens_combine_supported(&iolens_posix_module, (iolens_combine_mode)7));
}

/* ---- rules on hand-made records, for every module ---- */

/* The preparation each rank makes: its rank, bytes and time as both extremes. */
static void prepare_step(void **state)
{
    const struct iolens_module_desc *m = mod_of(state);
    const struct iolens_module_roles *r = m->roles;
    struct rec a = new_rec(m, 77, 3);
    if (iol_extremes_absent(m)) { /* no fastest or slowest rank: only marked shared */
        prepare(m, &a);
        assert_int_equal(base(&a).id, 77);
        assert_int_equal(base(&a).rank, -1);
        return;
    }
    sc(m, &a, iolens_role_index(r->c_bytes_read), 1000);
    sc(m, &a, iolens_role_index(r->c_bytes_written), 24);
    sf(m, &a, iolens_role_index(r->f_read_time), 0.1);
    sf(m, &a, iolens_role_index(r->f_write_time), 0.2);
    sf(m, &a, iolens_role_index(r->f_meta_time), 0.3);
    prepare(m, &a);
    assert_int_equal(base(&a).id, 77);
    assert_int_equal(base(&a).rank, -1);
    assert_int_equal(gc(m, &a, iolens_role_index(r->c_fastest_rank)), 3);
    assert_int_equal(gc(m, &a, iolens_role_index(r->c_slowest_rank)), 3);
    assert_int_equal(gc(m, &a, iolens_role_index(r->c_fastest_rank_bytes)), 1024);
    assert_int_equal(gc(m, &a, iolens_role_index(r->c_slowest_rank_bytes)), 1024);
    assert_true(gf(m, &a, iolens_role_index(r->f_fastest_time)) == 0.1 + 0.2 + 0.3);
    assert_true(gf(m, &a, iolens_role_index(r->f_slowest_time)) == 0.1 + 0.2 + 0.3);
}

/* Every plain rule of the tables, with in's values 1000 + i and acc's 10 + i
 * (fcounters: 100.5 + i and 0.5 + i); the base is in's id and rank -1. */
static void plain_rules(void **state)
{
    const struct iolens_module_desc *d = mod_of(state);
    struct rec in = new_rec(d, 5, -1), acc = new_rec(d, 6, -1);
    for (size_t i = 0; i < d->ncounters; i++) {
        sc(d, &in, (int)i, 1000 + (int64_t)i);
        sc(d, &acc, (int)i, 10 + (int64_t)i);
    }
    for (size_t i = 0; i < d->nfcounters; i++) {
        sf(d, &in, (int)i, 100.5 + (double)i);
        sf(d, &acc, (int)i, 0.5 + (double)i);
    }
    combine(d, &in, &acc);
    assert_int_equal(base(&acc).id, 5);
    assert_int_equal(base(&acc).rank, -1);
    for (size_t i = 0; i < d->ncounters; i++) {
        int64_t want;
        switch (d->counters[i].merge) {
        case IOLENS_MERGE_SUM:
        case IOLENS_MERGE_UNSET_SUM: /* the runtime sums what darshan-parser leaves out */
        case IOLENS_MERGE_COUNT: want = 1010 + 2 * (int64_t)i; break;
        case IOLENS_MERGE_FLAG: want = 1; break;
        case IOLENS_MERGE_LAST:
        case IOLENS_MERGE_MAX: want = 1000 + (int64_t)i; break;
        case IOLENS_MERGE_MIN_NONZERO: want = 10 + (int64_t)i; break;
        case IOLENS_MERGE_ZERO: want = 0; break;
        default: continue; /* groups and pairs: tested below */
        }
        assert_int_equal(gc(d, &acc, (int)i), want);
    }
    for (size_t i = 0; i < d->nfcounters; i++) {
        double want;
        switch (d->fcounters[i].merge) {
        case IOLENS_MERGE_SUM: want = 101.0 + 2 * (double)i; break;
        case IOLENS_MERGE_LAST:
        case IOLENS_MERGE_MAX: want = 100.5 + (double)i; break;
        case IOLENS_MERGE_MIN_NONZERO: want = 0.5 + (double)i; break;
        case IOLENS_MERGE_ZERO:
        case IOLENS_MERGE_VARIANCE_TIME:
        case IOLENS_MERGE_VARIANCE_BYTES: want = 0.0; break;
        default: continue;
        }
        assert_true(gf(d, &acc, (int)i) == want);
    }
}

/* Start timestamps: the smaller non-zero one; 0 means "never", and is
 * replaced even by a negative value. */
static void min_nonzero(void **state)
{
    static const double cases[][3] = {
        /* in, acc, result */
        {2.0, 3.0, 2.0}, {3.0, 2.0, 2.0}, {0.0, 3.0, 3.0},
        {3.0, 0.0, 3.0}, {0.0, 0.0, 0.0}, {-1.0, 0.0, -1.0}, {-1.0, 2.0, 2.0},
    };
    const struct iolens_module_desc *m = mod_of(state);
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct rec in = new_rec(m, 1, -1), acc = new_rec(m, 1, -1);
        for (size_t i = 0; i < m->nfcounters; i++) {
            if (m->fcounters[i].merge != IOLENS_MERGE_MIN_NONZERO)
                continue;
            sf(m, &in, (int)i, cases[c][0]);
            sf(m, &acc, (int)i, cases[c][1]);
            combine(m, &in, &acc);
            assert_true(gf(m, &acc, (int)i) == cases[c][2]);
        }
    }
}

/* Fastest and slowest rank: the smaller (larger) time wins with its rank and
 * bytes; on a tie the accumulated operand stays; a time of 0 is a time. */
static void fastest_slowest(void **state)
{
    if (iol_extremes_absent(mod_of(state)))
        skip(); /* H5F and PNETCDF_FILE keep no fastest or slowest rank */
    static const struct {
        double tin, tacc;
        int in_fastest, in_slowest;
    } cases[] = {
        {1.0, 2.0, 1, 0}, {2.0, 1.0, 0, 1}, {1.0, 1.0, 0, 0}, {0.0, 1.0, 1, 0}, {0.0, 0.0, 0, 0},
    };
    const struct iolens_module_desc *m = mod_of(state);
    const struct iolens_module_roles *r = m->roles;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct rec in = new_rec(m, 1, 1), acc = new_rec(m, 1, 2);
        sc(m, &in, iolens_role_index(r->c_bytes_read), 100);
        sf(m, &in, iolens_role_index(r->f_meta_time), cases[c].tin);
        sc(m, &acc, iolens_role_index(r->c_bytes_written), 200);
        sf(m, &acc, iolens_role_index(r->f_meta_time), cases[c].tacc);
        prepare(m, &in);
        prepare(m, &acc);
        combine(m, &in, &acc);
        int f = cases[c].in_fastest, s = cases[c].in_slowest;
        assert_int_equal(gc(m, &acc, iolens_role_index(r->c_fastest_rank)), f ? 1 : 2);
        assert_int_equal(gc(m, &acc, iolens_role_index(r->c_fastest_rank_bytes)), f ? 100 : 200);
        assert_true(gf(m, &acc, iolens_role_index(r->f_fastest_time)) == (f ? cases[c].tin : cases[c].tacc));
        assert_int_equal(gc(m, &acc, iolens_role_index(r->c_slowest_rank)), s ? 1 : 2);
        assert_int_equal(gc(m, &acc, iolens_role_index(r->c_slowest_rank_bytes)), s ? 100 : 200);
        assert_true(gf(m, &acc, iolens_role_index(r->f_slowest_time)) == (s ? cases[c].tin : cases[c].tacc));
    }
}

/* The slowest single access keeps its size; a tie keeps the accumulated one. */
static void max_time_and_size(void **state)
{
    const struct iolens_module_desc *m = mod_of(state);
    const struct iolens_module_roles *r = m->roles;
    if (!r->f_max_read_time || !r->f_max_write_time)
        skip(); /* STDIO has no such counters */
    struct rec in = new_rec(m, 1, -1), acc = new_rec(m, 1, -1);
    sf(m, &in, iolens_role_index(r->f_max_read_time), 2.0);
    sc(m, &in, iolens_role_index(r->c_max_read_time_size), 4096);
    sf(m, &acc, iolens_role_index(r->f_max_read_time), 1.0);
    sc(m, &acc, iolens_role_index(r->c_max_read_time_size), 8);
    sf(m, &in, iolens_role_index(r->f_max_write_time), 1.0);
    sc(m, &in, iolens_role_index(r->c_max_write_time_size), 16);
    sf(m, &acc, iolens_role_index(r->f_max_write_time), 1.0);
    sc(m, &acc, iolens_role_index(r->c_max_write_time_size), 32);
    combine(m, &in, &acc);
    assert_true(gf(m, &acc, iolens_role_index(r->f_max_read_time)) == 2.0);
    assert_int_equal(gc(m, &acc, iolens_role_index(r->c_max_read_time_size)), 4096);
    assert_true(gf(m, &acc, iolens_role_index(r->f_max_write_time)) == 1.0);
    assert_int_equal(gc(m, &acc, iolens_role_index(r->c_max_write_time_size)), 32);
}

/* -1 ("not monitored") survives only in COUNT rows of modules that clamp:
 * other sums, and every sum of IOLENS_ROLE_SUM_UNCLAMPED modules, wrap. */
static void clamping(void **state)
{
    const struct iolens_module_desc *m = mod_of(state);
    int unclamped = (m->roles->flags & IOLENS_ROLE_SUM_UNCLAMPED) != 0;
    struct rec in = new_rec(m, 1, -1), acc = new_rec(m, 1, -1);
    for (size_t i = 0; i < m->ncounters; i++) {
        sc(m, &in, (int)i, -1);
        sc(m, &acc, (int)i, -1);
    }
    combine(m, &in, &acc);
    for (size_t i = 0; i < m->ncounters; i++) {
        unsigned rule = m->counters[i].merge;
        if (rule != IOLENS_MERGE_SUM && rule != IOLENS_MERGE_COUNT)
            continue;
        int clamps = rule == IOLENS_MERGE_COUNT && !unclamped &&
                     m->counters[i].kind == IOLENS_I64;
        assert_int_equal(gc(m, &acc, (int)i), clamps ? -1 : -2);
    }
}

/* POSIX: the operation counts, POSIX_OPENS to POSIX_RENAME_TARGETS, clamp;
 * bytes and histograms do not. */
static void posix_clamping(void **state)
{
    (void)state;
    const struct iolens_module_desc *p = &iolens_posix_module;
    struct rec in = new_rec(p, 1, -1), acc = new_rec(p, 1, -1);
    sc(p, &in, POSIX_MMAPS, -1);
    sc(p, &acc, POSIX_MMAPS, -1);
    sc(p, &in, POSIX_RENAME_TARGETS, -1);
    sc(p, &acc, POSIX_RENAME_TARGETS, 3);
    sc(p, &in, POSIX_BYTES_READ, -1);
    sc(p, &acc, POSIX_BYTES_READ, -1);
    sc(p, &in, POSIX_SIZE_READ_0_100, -5);
    combine(p, &in, &acc);
    assert_int_equal(gc(p, &acc, POSIX_MMAPS), -1);
    assert_int_equal(gc(p, &acc, POSIX_RENAME_TARGETS), 2);
    assert_int_equal(gc(p, &acc, POSIX_BYTES_READ), -2);
    assert_int_equal(gc(p, &acc, POSIX_SIZE_READ_0_100), -5);
}

/* The first record into an accumulator is copied as it is. */
static void first_copies(void **state)
{
    const struct iolens_module_desc *m = mod_of(state);
    struct rec in = new_rec(m, 4, 2), acc = new_rec(m, 9, 9);
    for (size_t i = 0; i < m->ncounters; i++)
        sc(m, &in, (int)i, (int64_t)i - 3);
    for (size_t i = 0; i < m->nfcounters; i++)
        sf(m, &in, (int)i, (double)i - 2.5);
    assert_int_equal(iolens_combine_record(m, IOLENS_COMBINE_REDUCE, acc.b, in.b, 1), IOLENS_OK);
    assert_memory_equal(acc.b, in.b, m->record_size);
}

/* ---- the four most common values ---- */

struct top4_case {
    const char *what;
    int64_t iv[4], ic[4], av[4], ac[4], rv[4], rc[4];
};

static void top4_cases(void **state)
{
    (void)state;
    static const struct top4_case cases[] = {
        {"disjoint, one list each: by count, then larger value",
         {8, 0, 0, 0}, {3, 0, 0, 0}, {4, 0, 0, 0}, {3, 0, 0, 0},
         {8, 4, 0, 0}, {3, 3, 0, 0}},
        {"a shared value adds its counts",
         {4096, 8, 0, 0}, {5, 1, 0, 0}, {8, 4096, 0, 0}, {7, 2, 0, 0},
         {8, 4096, 0, 0}, {8, 7, 0, 0}},
        {"eight values: the four largest counts stay, the rest is lost",
         {1, 2, 3, 4}, {9, 7, 5, 3}, {5, 6, 7, 8}, {8, 6, 4, 2},
         {1, 5, 2, 6}, {9, 8, 7, 6}},
        {"equal counts: larger value first, the incoming list placed first",
         {1, 2, 0, 0}, {1, 1, 0, 0}, {3, 4, 5, 6}, {1, 1, 1, 1},
         {6, 5, 4, 3}, {1, 1, 1, 1}},
        {"value 0 is never listed", {0, 5, 0, 0}, {9, 2, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0},
         {5, 0, 0, 0}, {2, 0, 0, 0}},
        {"counts past 2^31 wrap as in the reference",
         {7, 0, 0, 0}, {INT64_C(0x100000005), 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0},
         {7, 0, 0, 0}, {5, 0, 0, 0}},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        int64_t av[4], ac[4];
        memcpy(av, cases[c].av, sizeof(av));
        memcpy(ac, cases[c].ac, sizeof(ac));
        iol_top4_merge(av, ac, cases[c].iv, cases[c].ic, 1);
        for (int k = 0; k < 4; k++) {
            if (av[k] != cases[c].rv[k] || ac[k] != cases[c].rc[k])
                fail_msg("%s: slot %d is (%" PRId64 ", %" PRId64 "), want (%" PRId64
                         ", %" PRId64 ")",
                         cases[c].what, k, av[k], ac[k], cases[c].rv[k], cases[c].rc[k]);
        }
        /* The same values as tuples (size, then words that follow from it). */
        int64_t at[4][IOL_TUPLE_WORDS], it[4][IOL_TUPLE_WORDS];
        memset(at, 0, sizeof(at));
        memset(it, 0, sizeof(it));
        for (int k = 0; k < 4; k++) {
            at[k][0] = cases[c].av[k];
            at[k][3] = 2 * cases[c].av[k];
            it[k][0] = cases[c].iv[k];
            it[k][3] = 2 * cases[c].iv[k];
        }
        memcpy(ac, cases[c].ac, sizeof(ac));
        iol_tuple4_reduce(&at[0][0], ac, &it[0][0], cases[c].ic);
        for (int k = 0; k < 4; k++)
            if (at[k][0] != cases[c].rv[k] || at[k][3] != 2 * cases[c].rv[k] ||
                ac[k] != cases[c].rc[k])
                fail_msg("%s (tuples): slot %d is (%" PRId64 ", %" PRId64 ")", cases[c].what, k,
                         at[k][0], ac[k]);
    }
}

/* Tuples of one size but other lengths are other accesses (PNETCDF_VAR): on
 * equal counts and sizes, the one placed last (accumulated) goes first. */
static void top4_tuples_apart(void **state)
{
    (void)state;
    int64_t acc[4][IOL_TUPLE_WORDS], in[4][IOL_TUPLE_WORDS], ac[4] = {3, 1, 0, 0},
            ic[4] = {3, 2, 0, 0};
    memset(acc, 0, sizeof(acc));
    memset(in, 0, sizeof(in));
    acc[0][0] = in[0][0] = 64; /* 64 bytes as 1 x 16 and as 2 x 8 */
    acc[0][1] = 1, acc[0][2] = 16;
    in[0][1] = 2, in[0][2] = 8;
    acc[1][0] = in[1][0] = 8; /* the same tuple in both: counts added */
    iol_tuple4_reduce(&acc[0][0], ac, &in[0][0], ic);
    assert_true(acc[0][0] == 64 && acc[0][1] == 1 && ac[0] == 3);
    assert_true(acc[1][0] == 64 && acc[1][1] == 2 && ac[1] == 3);
    assert_true(acc[2][0] == 8 && ac[2] == 3);
    assert_true(acc[3][0] == 0 && ac[3] == 0);
}

/* The top-4 groups sit where the tables say, for strides and access sizes. */
static void top4_in_records(void **state)
{
    (void)state;
    const struct iolens_module_desc *p = &iolens_posix_module;
    struct rec in = new_rec(p, 1, -1), acc = new_rec(p, 1, -1);
    sc(p, &in, POSIX_ACCESS1_ACCESS, 100);
    sc(p, &in, POSIX_ACCESS1_COUNT, 2);
    sc(p, &acc, POSIX_ACCESS1_ACCESS, 100);
    sc(p, &acc, POSIX_ACCESS1_COUNT, 3);
    sc(p, &acc, POSIX_ACCESS2_ACCESS, 50);
    sc(p, &acc, POSIX_ACCESS2_COUNT, 1);
    sc(p, &in, POSIX_STRIDE1_STRIDE, 64);
    sc(p, &in, POSIX_STRIDE1_COUNT, 1);
    combine(p, &in, &acc);
    assert_int_equal(gc(p, &acc, POSIX_ACCESS1_ACCESS), 100);
    assert_int_equal(gc(p, &acc, POSIX_ACCESS1_COUNT), 5);
    assert_int_equal(gc(p, &acc, POSIX_ACCESS2_ACCESS), 50);
    assert_int_equal(gc(p, &acc, POSIX_ACCESS2_COUNT), 1);
    assert_int_equal(gc(p, &acc, POSIX_STRIDE1_STRIDE), 64);
    assert_int_equal(gc(p, &acc, POSIX_STRIDE1_COUNT), 1);
}

/* ---- order ---- */

/* Combine prepared records in Open MPI's order for 4 ranks and a few
 * records, (2 (0 (1 3))), where "(a b)" is a incoming, b accumulated. */
static struct rec tree_4_few(const struct iolens_module_desc *m, const struct rec r[4])
{
    struct rec a;
    assert_int_equal(iolens_combine_record(m, IOLENS_COMBINE_REDUCE, a.b, r[3].b, 1), IOLENS_OK);
    combine(m, &r[1], &a);
    combine(m, &r[0], &a);
    combine(m, &r[2], &a);
    return a;
}

/* Open MPI's order for 4 ranks and 100 records: ((2 3) (0 1)). */
static struct rec tree_4_many(const struct iolens_module_desc *m, const struct rec r[4])
{
    struct rec a = r[3], b = r[1];
    combine(m, &r[2], &a);
    combine(m, &r[0], &b);
    combine(m, &a, &b);
    return b;
}

/* Four ranks' POSIX records of one file: sums agree whatever the order, but
 * the mode comes from whichever record is incoming last, and the top-4 loses
 * a value or not depending on which records meet first. */
static void order_matters(void **state)
{
    (void)state;
    const struct iolens_module_desc *p = &iolens_posix_module;
    struct rec r[4];
    for (int k = 0; k < 4; k++) {
        r[k] = new_rec(p, 9, k);
        sc(p, &r[k], POSIX_OPENS, 1);
        /* OMPIO creates the file on rank 0 only: mode 420 there, 0 elsewhere. */
        sc(p, &r[k], POSIX_MODE, k == 0 ? 420 : 0);
    }
    /* Rank 0: sizes 1-4, five times each; ranks 2 and 3: size 9, three times. */
    for (int k = 0; k < 4; k++) {
        sc(p, &r[0], POSIX_ACCESS1_ACCESS + k, 4 - k);
        sc(p, &r[0], POSIX_ACCESS1_COUNT + k, 5);
    }
    for (int k = 2; k < 4; k++) {
        sc(p, &r[k], POSIX_ACCESS1_ACCESS, 9);
        sc(p, &r[k], POSIX_ACCESS1_COUNT, 3);
    }
    for (int k = 0; k < 4; k++)
        prepare(p, &r[k]);

    struct rec few = tree_4_few(p, r), many = tree_4_many(p, r);
    assert_int_equal(gc(p, &few, POSIX_OPENS), 4);
    assert_int_equal(gc(p, &many, POSIX_OPENS), 4);
    assert_int_equal(gc(p, &few, POSIX_MODE), 0); /* rank 2's */

    /* 3 ranks, (0 (1 2)): rank 0 is incoming last, and its mode stays. */
    struct rec three = r[2];
    combine(p, &r[1], &three);
    combine(p, &r[0], &three);
    assert_int_equal(gc(p, &three, POSIX_MODE), 420);

    /* (1 3) and then (0 ...) drop rank 3's 9 before rank 2's can join it;
     * (2 3) first adds them up to 6, the most common size. */
    static const int64_t fv[4] = {4, 3, 2, 1}, fc[4] = {5, 5, 5, 5};
    static const int64_t mv[4] = {9, 4, 3, 2}, mc[4] = {6, 5, 5, 5};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(gc(p, &few, POSIX_ACCESS1_ACCESS + k), fv[k]);
        assert_int_equal(gc(p, &few, POSIX_ACCESS1_COUNT + k), fc[k]);
        assert_int_equal(gc(p, &many, POSIX_ACCESS1_ACCESS + k), mv[k]);
        assert_int_equal(gc(p, &many, POSIX_ACCESS1_COUNT + k), mc[k]);
    }
}

/* ---- variance ---- */

/* Per module: 10, 20, 30, 40 bytes and seconds over four ranks: mean 25,
 * squared deviations 225 + 25 + 25 + 225 over 4, stored in the VARIANCE rows. */
static void variance(void **state)
{
    if (iol_extremes_absent(mod_of(state)))
        skip(); /* nor variances */
    const struct iolens_module_desc *m = mod_of(state);
    const struct iolens_module_roles *r = m->roles;
    struct variances v[4];
    for (int k = 0; k < 4; k++) {
        struct rec x = new_rec(m, 1, k);
        sc(m, &x, iolens_role_index(r->c_bytes_read), 10 * (k + 1));
        sf(m, &x, iolens_role_index(r->f_write_time), 10.0 * (k + 1));
        v[k] = variances(m, &x);
        assert_true(v[k].bytes.n == 1.0 && v[k].bytes.S == 0.0 && v[k].bytes.T == 10.0 * (k + 1));
        assert_true(v[k].time.n == 1.0 && v[k].time.S == 0.0 && v[k].time.T == 10.0 * (k + 1));
    }
    struct variances a = v[3];
    static const int order[3] = {1, 0, 2};
    for (int k = 0; k < 3; k++) {
        iolens_combine_variance_merge(&v[order[k]].time, &a.time);
        iolens_combine_variance_merge(&v[order[k]].bytes, &a.bytes);
    }
    assert_true(a.bytes.n == 4.0 && a.bytes.T == 100.0);
    struct rec out = new_rec(m, 1, -1);
    iolens_combine_variance_store(m, out.b, &a.time, &a.bytes);
    for (size_t i = 0; i < m->nfcounters; i++) {
        unsigned rule = m->fcounters[i].merge;
        if (rule == IOLENS_MERGE_VARIANCE_TIME || rule == IOLENS_MERGE_VARIANCE_BYTES)
            assert_true(fabs(gf(m, &out, (int)i) - 125.0) < 1e-9);
        else
            assert_true(gf(m, &out, (int)i) == 0.0);
    }
}

/* ---- records the reference reduced ---- */

static const struct iolens_module_desc *mod_named(const char *name)
{
    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        const struct iolens_module_desc *m = iolens_module(id);
        if (m && strcmp(m->name, name) == 0)
            return m;
    }
    fail_msg("unknown module %s", name);
    return NULL;
}

/* Read "TAG ID RANK COUNTERS... FCOUNTERS..." (hex floats) into r. */
static void parse_rec(const struct iolens_module_desc *m, char *line, const char *tag,
                      struct rec *r)
{
    char *p = line, *end;
    size_t n = strlen(tag);
    if (strncmp(p, tag, n) != 0 || p[n] != ' ')
        fail_msg("expected a line %s, got: %.40s", tag, line);
    p += n;
    uint64_t id = strtoull(p, &end, 10);
    int64_t rank = strtoll(end, &end, 10);
    *r = new_rec(m, id, rank);
    for (size_t i = 0; i < m->ncounters; i++) {
        p = end;
        sc(m, r, (int)i, strtoll(p, &end, 10));
        assert_true(end != p);
    }
    for (size_t i = 0; i < m->nfcounters; i++) {
        p = end;
        sf(m, r, (int)i, strtod(p, &end));
        assert_true(end != p);
    }
    while (*end == ' ' || *end == '\n')
        end++;
    assert_true(*end == '\0');
}

/* The first counter where got and want differ, named, or NULL. */
static const char *first_difference(const struct iolens_module_desc *d, const struct rec *got,
                                    const struct rec *want)
{
    if (memcmp(got->b, want->b, sizeof(struct iolens_record_base)) != 0)
        return "the base (id, rank)";
    for (size_t i = 0; i < d->ncounters; i++)
        if (gc(d, got, (int)i) != gc(d, want, (int)i))
            return d->counters[i].name;
    for (size_t i = 0; i < d->nfcounters; i++) {
        double a = gf(d, got, (int)i), b = gf(d, want, (int)i);
        if (memcmp(&a, &b, 8) != 0)
            return d->fcounters[i].name;
    }
    return NULL;
}

/* One shared record: each rank's prepared record is what iolens_combine_prepare
 * makes of it, and (2 (0 (1 3))) gives the log's rank -1 record, every
 * counter bit for bit, variances included. */
static void check_reduced(const char *file, const char *name, const struct iolens_module_desc *m,
                          const struct rec in[4], const struct rec *out)
{
    for (int k = 0; k < 4; k++) {
        struct rec raw = in[k];
        struct iolens_record_base b = base(&raw);
        b.rank = k;
        memcpy(raw.b, &b, sizeof(b));
        prepare(m, &raw);
        const char *diff = first_difference(m, &raw, &in[k]);
        if (diff)
            fail_msg("%s: %s, rank %d: prepared %s differs", file, name, k, diff);
    }
    struct rec got = tree_4_few(m, in);
    struct variances v[4];
    for (int k = 0; k < 4; k++)
        v[k] = variances(m, &in[k]);
    /* The variances go through the same tree. */
    struct variances a = v[3];
    static const int order[3] = {1, 0, 2};
    for (int k = 0; k < 3; k++) {
        iolens_combine_variance_merge(&v[order[k]].time, &a.time);
        iolens_combine_variance_merge(&v[order[k]].bytes, &a.bytes);
    }
    iolens_combine_variance_store(m, got.b, &a.time, &a.bytes);
    const char *diff = first_difference(m, &got, out);
    if (diff)
        fail_msg("%s: %s: reduced %s differs from the reference", file, name, diff);
}

static void reference_data(void **state)
{
    static const char *const files[] = {"indep_at", "coll_at",    "strided_view", "nonblocking",
                                        "shared_fp", "fortran_io", "mixed"};
    static char line[65536];
    size_t nrec = 0;
    (void)state;
    assert_non_null(data_dir);
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char path[4096], name[4096], modname[32];
        snprintf(path, sizeof(path), "%s/%s.txt", data_dir, files[f]);
        FILE *fp = fopen(path, "r");
        if (!fp)
            fail_msg("cannot open %s", path);
        while (fgets(line, sizeof(line), fp)) {
            if (line[0] == '#' || line[0] == '\n')
                continue;
            if (sscanf(line, "record %31s %4095[^\n]", modname, name) != 2)
                fail_msg("%s: expected a record line, got: %.40s", path, line);
            const struct iolens_module_desc *m = mod_named(modname);
            struct rec in[4], out;
            for (int k = 0; k < 5; k++) {
                char tag[8];
                if (!fgets(line, sizeof(line), fp))
                    fail_msg("%s: %s: record cut short", path, name);
                snprintf(tag, sizeof(tag), k < 4 ? "in%d" : "out", k);
                parse_rec(m, line, tag, k < 4 ? &in[k] : &out);
            }
            check_reduced(files[f], name, m, in, &out);
            nrec++;
        }
        fclose(fp);
    }
    assert_true(nrec >= 20);
}

/* A tuple of size, lengths and strides with every word v but the size. */
static void tuple_of(int64_t *t, int64_t size, int64_t v)
{
    t[0] = size;
    for (int k = 1; k < IOL_TUPLE_WORDS; k++)
        t[k] = v;
}

/* The H5D and PNETCDF_VAR groups of four tuples: placed at each access as
 * Darshan's runtime places them (count, then size, largest first; size 0
 * never), and reduced into a new list (src's tuples, with dst's counts of
 * the same tuples added, then dst's). */
static void tuple_cases(void **state)
{
    int64_t v[4 * IOL_TUPLE_WORDS] = {0}, c[4] = {0}, t[IOL_TUPLE_WORDS];
    (void)state;
    tuple_of(t, 0, 0);
    iol_tuple4_place(v, c, t, 5);
    assert_int_equal(c[0], 0);
    tuple_of(t, 100, 1);
    iol_tuple4_place(v, c, t, 1);
    tuple_of(t, 200, 1);
    iol_tuple4_place(v, c, t, 1); /* same count, larger size: first */
    assert_int_equal(v[0], 200);
    assert_int_equal(v[IOL_TUPLE_WORDS], 100);
    tuple_of(t, 100, 2); /* same size, other lengths: another tuple */
    iol_tuple4_place(v, c, t, 3);
    assert_int_equal(v[0], 100);
    assert_int_equal(v[1], 2);
    assert_int_equal(c[0], 3);
    assert_int_equal(c[1], 1);
    assert_int_equal(c[2], 1);
    tuple_of(t, 100, 1);
    iol_tuple4_place(v, c, t, 2); /* its old entry leaves the list */
    assert_int_equal(v[IOL_TUPLE_WORDS], 100);
    assert_int_equal(v[IOL_TUPLE_WORDS + 1], 1);
    assert_int_equal(c[1], 2);
    assert_int_equal(v[2 * IOL_TUPLE_WORDS], 200);
    assert_int_equal(c[3], 0);

    /* src: A(2), B(1); dst: B(3), C(1) -> B(4), A(2), C(1). */
    int64_t sv[4 * IOL_TUPLE_WORDS] = {0}, scnt[4] = {2, 1, 0, 0};
    int64_t dv[4 * IOL_TUPLE_WORDS] = {0}, dcnt[4] = {3, 1, 0, 0};
    tuple_of(&sv[0], 10, 1);
    tuple_of(&sv[IOL_TUPLE_WORDS], 20, 2);
    tuple_of(&dv[0], 20, 2);
    tuple_of(&dv[IOL_TUPLE_WORDS], 30, 3);
    iol_tuple4_reduce(dv, dcnt, sv, scnt);
    assert_int_equal(dv[0], 20);
    assert_int_equal(dcnt[0], 4);
    assert_int_equal(dv[IOL_TUPLE_WORDS], 10);
    assert_int_equal(dcnt[1], 2);
    assert_int_equal(dv[2 * IOL_TUPLE_WORDS], 30);
    assert_int_equal(dv[2 * IOL_TUPLE_WORDS + 5], 3);
    assert_int_equal(dcnt[2], 1);
    assert_int_equal(dv[3 * IOL_TUPLE_WORDS], 0);
    assert_int_equal(dcnt[3], 0);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *what;
        CMUnitTestFunction fn;
    } per_module[] = {
        {"prepare_step", prepare_step},       {"plain_rules", plain_rules},
        {"min_nonzero", min_nonzero},         {"fastest_slowest", fastest_slowest},
        {"max_time_and_size", max_time_and_size}, {"clamping", clamping},
        {"first_copies", first_copies},       {"variance", variance},
    };
    enum { NPER = sizeof(per_module) / sizeof(per_module[0]) };
    static struct CMUnitTest tests[IOLENS_MOD_KNOWN_COUNT * NPER + 8];
    static char names[IOLENS_MOD_KNOWN_COUNT * NPER][96];
    size_t n = 0, nmods = 0;

    data_dir = argc > 1 ? argv[1] : NULL;
    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        const struct iolens_module_desc *m = iolens_module(id);
        if (iolens_combine_supported(m, IOLENS_COMBINE_REDUCE))
            modules[nmods++] = m;
    }
    for (size_t k = 0; k < nmods; k++) {
        for (size_t t = 0; t < NPER; t++) {
            snprintf(names[n], sizeof(names[n]), "%s/%s", per_module[t].what, modules[k]->name);
            tests[n] = (struct CMUnitTest){names[n], per_module[t].fn, NULL, NULL,
                                           (void *)(uintptr_t)modules[k]};
            n++;
        }
    }
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(supported_modules);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(posix_clamping);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(top4_cases);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(top4_tuples_apart);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(tuple_cases);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(top4_in_records);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(order_matters);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(reference_data);
    return _cmocka_run_group_tests("reduce", tests, n, NULL, NULL);
}
