/* Unit tests of the combining engine in its TOTAL mode, darshan-parser's
 * --total (src/format/combine*.c; the REDUCE mode is test_reduce.c's), what
 * both modes share, and the accumulator (src/format/accumulate.c). The rule
 * tests run once for every fixed-size module of the module table the mode
 * supports, reading what to expect from its counter tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format/combine.h"
#include "iolens/accumulate.h"
#include "iolens/modules/posix.h"

/* ---- records seen as counters ---- */

static unsigned char *new_record(const struct iolens_module_desc *mod, uint64_t id, int64_t rank)
{
    unsigned char *r = calloc(1, mod->record_size);
    struct iolens_record_base b = {id, rank};
    assert_non_null(r);
    memcpy(r, &b, sizeof(b));
    return r;
}

static int64_t get_c(const struct iolens_module_desc *mod, const unsigned char *r, size_t i)
{
    int64_t v;
    memcpy(&v, r + mod->counters_offset + 8 * i, 8);
    return v;
}

static void set_c(const struct iolens_module_desc *mod, unsigned char *r, size_t i, int64_t v)
{
    memcpy(r + mod->counters_offset + 8 * i, &v, 8);
}

static double get_f(const struct iolens_module_desc *mod, const unsigned char *r, size_t i)
{
    double v;
    memcpy(&v, r + mod->fcounters_offset + 8 * i, 8);
    return v;
}

static void set_f(const struct iolens_module_desc *mod, unsigned char *r, size_t i, double v)
{
    memcpy(r + mod->fcounters_offset + 8 * i, &v, 8);
}

static struct iolens_record_base base_of(const unsigned char *r)
{
    struct iolens_record_base b;
    memcpy(&b, r, sizeof(b));
    return b;
}

static void merge_ok(const struct iolens_module_desc *mod, void *dst, const void *src, int first)
{
    assert_int_equal(iolens_combine_record(mod, IOLENS_COMBINE_TOTAL, dst, src, first),
                     IOLENS_OK);
}

static unsigned flags_of(const struct iolens_module_desc *mod)
{
    return mod->roles ? mod->roles->flags : 0;
}

/* Which rule sets counter i: its own, or that of the row it is paired with. */
static unsigned leader_of(const struct iolens_module_desc *mod, size_t i)
{
    const struct iolens_module_roles *r = mod->roles;
    if (mod->counters[i].merge != IOLENS_MERGE_PAIRED || !r)
        return mod->counters[i].merge;
    iolens_role role = IOLENS_ROLE(i); /* the role counter i would have */
    if (role == r->c_max_read_time_size || role == r->c_max_write_time_size)
        return IOLENS_MERGE_MAX_PAIRED;
    if (role == r->c_fastest_rank || role == r->c_fastest_rank_bytes)
        return IOLENS_MERGE_FASTEST;
    if (role == r->c_slowest_rank || role == r->c_slowest_rank_bytes)
        return IOLENS_MERGE_SLOWEST;
    return IOLENS_MERGE_TOP4; /* members of a most-common-values group */
}

/* Rules that leave a row 0 in the totals. */
static int zeroed(unsigned m)
{
    return m == IOLENS_MERGE_ZERO || m == IOLENS_MERGE_VARIANCE_TIME ||
           m == IOLENS_MERGE_VARIANCE_BYTES;
}

static int summed(unsigned m)
{
    return m == IOLENS_MERGE_SUM || m == IOLENS_MERGE_COUNT;
}

/* A plausible shared record (FLAG rows 1, UNSET rows -1, as merging makes
 * them): distinct positive values, well-formed TOP4 groups (counts falling),
 * zeroed rows 0. */
static unsigned char *typical_record(const struct iolens_module_desc *mod, uint64_t id)
{
    unsigned char *r = new_record(mod, id, -1);
    for (size_t i = 0; i < mod->ncounters; i++) {
        unsigned m = mod->counters[i].merge;
        if (m == IOLENS_MERGE_TOP4) {
            for (size_t k = 0; k < 4; k++) {
                set_c(mod, r, i + k, (int64_t)(400 - 100 * k + i));
                set_c(mod, r, i + 4 + k, (int64_t)(8 - 2 * k));
            }
            i += 7;
        } else if (m == IOLENS_MERGE_UNSET || m == IOLENS_MERGE_FLAG) {
            set_c(mod, r, i, m == IOLENS_MERGE_FLAG ? 1 : -1);
        } else if (!zeroed(m)) {
            set_c(mod, r, i, (int64_t)(100 + i));
        }
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        unsigned m = mod->fcounters[i].merge;
        if (m == IOLENS_MERGE_UNSET || m == IOLENS_MERGE_FLAG)
            set_f(mod, r, i, m == IOLENS_MERGE_FLAG ? 1.0 : -1.0);
        else if (!zeroed(m))
            set_f(mod, r, i, 1.5 + (double)i);
    }
    return r;
}

/* ---- the module table ---- */

/* Fixed-size modules of the table, filled in main. */
static const struct iolens_module_desc *modules[IOLENS_MOD_KNOWN_COUNT];

static const struct iolens_module_desc *mod_of(void **state)
{
    return *state;
}

/* Does counter c's name end with suffix? */
static int named(const struct iolens_counter *c, const char *suffix)
{
    size_t ln = strlen(c->name), ls = strlen(suffix);
    return ln >= ls && strcmp(c->name + ln - ls, suffix) == 0;
}

/* Is merge rule got that of a role whose rule is want? FASTEST and SLOWEST
 * roles may also be the variants where every input offers its own figures. */
static int rule_fits(unsigned got, int want)
{
    return got == (unsigned)want ||
           (want == IOLENS_MERGE_FASTEST && got == IOLENS_MERGE_FASTEST_OWN) ||
           (want == IOLENS_MERGE_SLOWEST && got == IOLENS_MERGE_SLOWEST_OWN);
}

/* Module mod's roles point at counters of the right name and merge rule,
 * every counter of such a name and rule has its role, and only a module with
 * roles uses the rules that need them. */
static void check_roles(const struct iolens_module_desc *mod)
{
    const struct iolens_module_roles *r = mod->roles;
    static const struct {
        size_t off;
        int is_f;
        const char *suffix;
        int merge;
    } want[] = {
#define ROLE(m, f, s, rule) {offsetof(struct iolens_module_roles, m), f, s, IOLENS_MERGE_##rule}
        ROLE(c_bytes_read, 0, "_BYTES_READ", SUM),
        ROLE(c_bytes_written, 0, "_BYTES_WRITTEN", SUM),
        ROLE(c_max_byte_read, 0, "_MAX_BYTE_READ", MAX),
        ROLE(c_max_byte_written, 0, "_MAX_BYTE_WRITTEN", MAX),
        ROLE(f_read_time, 1, "_F_READ_TIME", SUM),
        ROLE(f_write_time, 1, "_F_WRITE_TIME", SUM),
        ROLE(f_meta_time, 1, "_F_META_TIME", SUM),
        ROLE(f_max_read_time, 1, "_F_MAX_READ_TIME", MAX_PAIRED),
        ROLE(c_max_read_time_size, 0, "_MAX_READ_TIME_SIZE", PAIRED),
        ROLE(f_max_write_time, 1, "_F_MAX_WRITE_TIME", MAX_PAIRED),
        ROLE(c_max_write_time_size, 0, "_MAX_WRITE_TIME_SIZE", PAIRED),
        ROLE(f_fastest_time, 1, "_F_FASTEST_RANK_TIME", FASTEST),
        ROLE(c_fastest_rank, 0, "_FASTEST_RANK", PAIRED),
        ROLE(c_fastest_rank_bytes, 0, "_FASTEST_RANK_BYTES", PAIRED),
        ROLE(f_slowest_time, 1, "_F_SLOWEST_RANK_TIME", SLOWEST),
        ROLE(c_slowest_rank, 0, "_SLOWEST_RANK", PAIRED),
        ROLE(c_slowest_rank_bytes, 0, "_SLOWEST_RANK_BYTES", PAIRED),
#undef ROLE
    };

    if (!r) {
        for (size_t i = 0; i < mod->nfcounters; i++) {
            unsigned m = mod->fcounters[i].merge;
            assert_true(m != IOLENS_MERGE_MAX_PAIRED && m != IOLENS_MERGE_FASTEST &&
                        m != IOLENS_MERGE_SLOWEST);
        }
        return;
    }
    for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
        iolens_role role;
        memcpy(&role, (const char *)r + want[w].off, sizeof(role));
        const struct iolens_counter *table = want[w].is_f ? mod->fcounters : mod->counters;
        size_t n = want[w].is_f ? mod->nfcounters : mod->ncounters;
        if (role) {
            assert_true(iol_role_at(role) < n);
            const struct iolens_counter *c = &table[iol_role_at(role)];
            if (!named(c, want[w].suffix))
                fail_msg("%s: role %s points at %s", mod->name, want[w].suffix, c->name);
            assert_true(rule_fits(c->merge, want[w].merge));
        }
        /* A role left out (0) is one the module has no counter for. */
        for (size_t i = 0; i < n; i++)
            if (IOLENS_ROLE(i) != role && named(&table[i], want[w].suffix) &&
                rule_fits(table[i].merge, want[w].merge))
                fail_msg("%s: %s has no role, though %s fits it", mod->name, want[w].suffix,
                         table[i].name);
    }
    /* Every row with such a rule is the one the roles name. */
    for (size_t i = 0; i < mod->nfcounters; i++) {
        iolens_role role = IOLENS_ROLE(i);
        switch (mod->fcounters[i].merge) {
        case IOLENS_MERGE_MAX_PAIRED:
            assert_true(role == r->f_max_read_time || role == r->f_max_write_time);
            break;
        case IOLENS_MERGE_FASTEST: assert_int_equal(role, r->f_fastest_time); break;
        case IOLENS_MERGE_SLOWEST: assert_int_equal(role, r->f_slowest_time); break;
        default: break;
        }
    }
}

/* check_roles for every module of the table, also those the TOTAL mode
 * does not support. */
static void roles_match_tables(void **state)
{
    (void)state;
    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++)
        if (iolens_module(id))
            check_roles(iolens_module(id));
}

/* Merging into zero copies a typical record; merging an all-zero record of
 * the same file after it changes only what each rule says it should. */
static void merge_with_zero_record(void **state)
{
    const struct iolens_module_desc *mod = mod_of(state);
    unsigned char *r = typical_record(mod, 42);
    unsigned char *acc = new_record(mod, 0, 0);
    unsigned char *zero = new_record(mod, 42, -1);

    merge_ok(mod, acc, r, 1);
    assert_memory_equal(acc, r, mod->record_size);

    merge_ok(mod, acc, zero, 0);
    assert_int_equal(base_of(acc).id, 42);
    assert_int_equal(base_of(acc).rank, -1);
    for (size_t i = 0; i < mod->ncounters; i++) {
        unsigned m = leader_of(mod, i);
        int64_t want = get_c(mod, r, i);
        if (m == IOLENS_MERGE_LAST || m == IOLENS_MERGE_FASTEST || zeroed(m))
            want = 0;
        if (get_c(mod, acc, i) != want)
            fail_msg("%s: %s is %lld, expected %lld", mod->name, mod->counters[i].name,
                     (long long)get_c(mod, acc, i), (long long)want);
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        unsigned m = mod->fcounters[i].merge;
        double want = get_f(mod, r, i);
        if (m == IOLENS_MERGE_LAST || m == IOLENS_MERGE_FASTEST || zeroed(m))
            want = 0;
        if (get_f(mod, acc, i) != want)
            fail_msg("%s: %s is %f, expected %f", mod->name, mod->fcounters[i].name,
                     get_f(mod, acc, i), want);
    }
    free(r);
    free(acc);
    free(zero);
}

/* SUM adds, MAX keeps the larger, MIN_NONZERO the smaller positive value,
 * whichever record holds it and whether the other is 0. */
static void sum_max_min_nonzero(void **state)
{
    const struct iolens_module_desc *mod = mod_of(state);
    unsigned char *a = new_record(mod, 7, 0), *b = new_record(mod, 7, 1);
    unsigned char *acc = new_record(mod, 0, 0);

    for (size_t i = 0; i < mod->ncounters; i++) {
        set_c(mod, a, i, (int64_t)(10 + i));
        set_c(mod, b, i, i % 3 == 0 ? 0 : (int64_t)(i % 2 ? 5 : 50 + i));
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        set_f(mod, a, i, i % 4 == 0 ? 0.0 : 2.0 + (double)i);
        set_f(mod, b, i, i % 2 ? 1.25 : 9.5 + (double)i);
    }
    merge_ok(mod, acc, a, 1);
    merge_ok(mod, acc, b, 0);
    assert_int_equal(base_of(acc).rank, -1);
    for (size_t i = 0; i < mod->ncounters; i++) {
        int64_t x = get_c(mod, a, i), y = get_c(mod, b, i), got = get_c(mod, acc, i);
        switch (mod->counters[i].merge) {
        case IOLENS_MERGE_SUM:
        case IOLENS_MERGE_COUNT: assert_int_equal(got, x + y); break;
        case IOLENS_MERGE_MAX: assert_int_equal(got, x > y ? x : y); break;
        case IOLENS_MERGE_MIN_NONZERO:
            assert_int_equal(got, y > 0 && y < x ? y : x);
            break;
        case IOLENS_MERGE_LAST: assert_int_equal(got, y); break;
        default: break;
        }
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        double x = get_f(mod, a, i), y = get_f(mod, b, i), got = get_f(mod, acc, i);
        switch (mod->fcounters[i].merge) {
        case IOLENS_MERGE_SUM: assert_true(got == x + y); break;
        case IOLENS_MERGE_MAX:
        case IOLENS_MERGE_MAX_PAIRED: assert_true(got == (x > y ? x : y)); break;
        case IOLENS_MERGE_MIN_NONZERO:
            assert_true(got == (x == 0 || (y > 0 && y < x) ? y : x));
            break;
        case IOLENS_MERGE_ZERO:
        case IOLENS_MERGE_VARIANCE_TIME:
        case IOLENS_MERGE_VARIANCE_BYTES: assert_true(got == 0); break;
        default: break;
        }
    }
    free(a);
    free(b);
    free(acc);
}

/* "Not monitored" (-1) in integer sums stays exactly -1, unless the module
 * keeps raw sums; a real count added to -1 is just added. */
static void minus_one_clamping(void **state)
{
    const struct iolens_module_desc *mod = mod_of(state);
    unsigned char *a = new_record(mod, 3, 0), *b = new_record(mod, 3, 0);
    unsigned char *c = new_record(mod, 3, 0), *acc = new_record(mod, 0, 0);
    unsigned char *acc2 = new_record(mod, 0, 0);
    int raw = (flags_of(mod) & IOLENS_ROLE_SUM_UNCLAMPED) != 0;

    for (size_t i = 0; i < mod->ncounters; i++) {
        set_c(mod, a, i, -1);
        set_c(mod, b, i, -1);
        set_c(mod, c, i, 5);
    }
    for (size_t i = 0; i < mod->nfcounters; i++) {
        set_f(mod, a, i, -1.0);
        set_f(mod, b, i, -1.0);
    }
    merge_ok(mod, acc, a, 1);
    merge_ok(mod, acc, b, 0);
    merge_ok(mod, acc2, a, 1);
    merge_ok(mod, acc2, c, 0);
    for (size_t i = 0; i < mod->ncounters; i++) {
        if (!summed(mod->counters[i].merge))
            continue;
        int64_t want = mod->counters[i].kind == IOLENS_I64 && !raw ? -1 : -2;
        assert_int_equal(get_c(mod, acc, i), want);
        assert_int_equal(get_c(mod, acc2, i), 4);
    }
    for (size_t i = 0; i < mod->nfcounters; i++)
        if (mod->fcounters[i].merge == IOLENS_MERGE_SUM)
            assert_true(get_f(mod, acc, i) == -2.0);
    free(a);
    free(b);
    free(c);
    free(acc);
    free(acc2);
}

static void put_group(const struct iolens_module_desc *mod, unsigned char *r, size_t head,
                      const int64_t v[4], const int64_t n[4])
{
    for (size_t k = 0; k < 4; k++) {
        set_c(mod, r, head + k, v[k]);
        set_c(mod, r, head + 4 + k, n[k]);
    }
}

static void expect_group(const struct iolens_module_desc *mod, const unsigned char *r,
                         size_t head, const int64_t v[4], const int64_t n[4])
{
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(get_c(mod, r, head + k), v[k]);
        assert_int_equal(get_c(mod, r, head + 4 + k), n[k]);
    }
}

/* Merge group (av, an) with (bv, bn) at every TOP4 group of the module and
 * compare with (wv, wn). */
static void top4_case(const struct iolens_module_desc *mod, const int64_t av[4],
                      const int64_t an[4], const int64_t bv[4], const int64_t bn[4],
                      const int64_t wv[4], const int64_t wn[4])
{
    unsigned char *a = new_record(mod, 1, 0), *b = new_record(mod, 1, 0);
    for (size_t i = 0; i < mod->ncounters; i++) {
        if (mod->counters[i].merge != IOLENS_MERGE_TOP4)
            continue;
        put_group(mod, a, i, av, an);
        put_group(mod, b, i, bv, bn);
    }
    merge_ok(mod, a, b, 0);
    for (size_t i = 0; i < mod->ncounters; i++)
        if (mod->counters[i].merge == IOLENS_MERGE_TOP4)
            expect_group(mod, a, i, wv, wn);
    free(a);
    free(b);
}

/* The four most common values: shared values add their counts, new ones
 * enter by count (ties: larger value first) and push the last one out. */
static void top4_groups(void **state)
{
    const struct iolens_module_desc *mod = mod_of(state);
    int has = 0;
    for (size_t i = 0; i < mod->ncounters; i++)
        has |= mod->counters[i].merge == IOLENS_MERGE_TOP4;
    if (!has)
        skip();

    /* 20 is known: 8 + 1; 50 (count 5) enters third; 40 falls out. */
    top4_case(mod, (int64_t[]){10, 20, 30, 40}, (int64_t[]){9, 8, 3, 2},
              (int64_t[]){50, 20, 0, 0}, (int64_t[]){5, 1, 0, 0},
              (int64_t[]){10, 20, 50, 30}, (int64_t[]){9, 9, 5, 3});
    /* Equal counts: the larger value goes first. */
    top4_case(mod, (int64_t[]){10, 0, 0, 0}, (int64_t[]){4, 0, 0, 0},
              (int64_t[]){7, 12, 0, 0}, (int64_t[]){4, 4, 0, 0},
              (int64_t[]){12, 10, 7, 0}, (int64_t[]){4, 4, 4, 0});
    /* A value ranking below all four kept ones does not enter. */
    top4_case(mod, (int64_t[]){1, 2, 3, 4}, (int64_t[]){9, 8, 7, 6},
              (int64_t[]){5, 0, 0, 0}, (int64_t[]){1, 0, 0, 0},
              (int64_t[]){1, 2, 3, 4}, (int64_t[]){9, 8, 7, 6});
    /* An incoming group headed by 0: its counts land on empty (0) slots,
     * unless the module ignores such groups. */
    if (flags_of(mod) & IOLENS_ROLE_TOP4_NEEDS_HEAD)
        top4_case(mod, (int64_t[]){10, 0, 0, 0}, (int64_t[]){3, 0, 0, 0},
                  (int64_t[]){0, 0, 0, 0}, (int64_t[]){2, 0, 0, 0},
                  (int64_t[]){10, 0, 0, 0}, (int64_t[]){3, 0, 0, 0});
    else
        top4_case(mod, (int64_t[]){10, 0, 0, 0}, (int64_t[]){3, 0, 0, 0},
                  (int64_t[]){0, 0, 0, 0}, (int64_t[]){2, 0, 0, 0},
                  (int64_t[]){10, 0, 0, 0}, (int64_t[]){3, 2, 2, 2});
}

/* Fastest and slowest rank of one file's per-rank records; records of
 * different files make them unknown (-1, time 0). */
static void fastest_slowest(void **state)
{
    const struct iolens_module_desc *mod = mod_of(state);
    const struct iolens_module_roles *r = mod->roles;
    if (!r || !r->f_fastest_time || !r->f_slowest_time)
        skip();
    unsigned char *a = new_record(mod, 9, 0), *b = new_record(mod, 9, 3);
    unsigned char *acc = new_record(mod, 0, 0);

    set_c(mod, a, iol_role_at(r->c_bytes_read), 10);
    set_c(mod, a, iol_role_at(r->c_bytes_written), 5);
    set_f(mod, a, iol_role_at(r->f_read_time), 1.0);
    set_f(mod, a, iol_role_at(r->f_write_time), 0.5);
    set_f(mod, a, iol_role_at(r->f_meta_time), 0.25);
    set_c(mod, b, iol_role_at(r->c_bytes_read), 100);
    set_f(mod, b, iol_role_at(r->f_write_time), 0.5);
    merge_ok(mod, acc, a, 1);
    merge_ok(mod, acc, b, 0);
    assert_int_equal(get_c(mod, acc, iol_role_at(r->c_fastest_rank)), 3);
    assert_int_equal(get_c(mod, acc, iol_role_at(r->c_fastest_rank_bytes)), 100);
    assert_true(get_f(mod, acc, iol_role_at(r->f_fastest_time)) == 0.5);
    assert_int_equal(get_c(mod, acc, iol_role_at(r->c_slowest_rank)), 0);
    assert_int_equal(get_c(mod, acc, iol_role_at(r->c_slowest_rank_bytes)), 15);
    assert_true(get_f(mod, acc, iol_role_at(r->f_slowest_time)) == 1.75);

    struct iolens_record_base other = {10, 3};
    memcpy(b, &other, sizeof(other));
    merge_ok(mod, acc, b, 0);
    assert_int_equal(base_of(acc).id, 0);
    assert_int_equal(base_of(acc).rank, -1);
    assert_int_equal(get_c(mod, acc, iol_role_at(r->c_fastest_rank)), -1);
    assert_int_equal(get_c(mod, acc, iol_role_at(r->c_slowest_rank_bytes)), -1);
    assert_true(get_f(mod, acc, iol_role_at(r->f_slowest_time)) == 0.0);
    free(a);
    free(b);
    free(acc);
}

/* A module the TOTAL mode refuses uses a rule it does not apply yet (a
 * variance only with IOLENS_ROLE_TOTAL_NO_VARIANCE); every other fixed-size
 * module combines. */
static void refused_only_for_known_reasons(void **state)
{
    (void)state;
    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        if (!mod || mod->record_size == 0)
            continue;
        unsigned char *a = new_record(mod, 1, 0), *b = new_record(mod, 1, 0);
        iolens_status st = iolens_combine_record(mod, IOLENS_COMBINE_TOTAL, a, b, 1);
        int no_variance = (flags_of(mod) & IOLENS_ROLE_TOTAL_NO_VARIANCE) != 0;
        int unsupported = 0;
        for (size_t i = 0; i < mod->ncounters + mod->nfcounters; i++) {
            unsigned m = i < mod->ncounters ? mod->counters[i].merge
                                            : mod->fcounters[i - mod->ncounters].merge;
            unsupported |= m == IOLENS_MERGE_TOP4_TUPLE || m == IOLENS_MERGE_FASTEST_OWN ||
                           m == IOLENS_MERGE_SLOWEST_OWN ||
                           ((m == IOLENS_MERGE_VARIANCE_TIME ||
                             m == IOLENS_MERGE_VARIANCE_BYTES) && !no_variance);
        }
        if ((st == IOLENS_OK) == unsupported)
            fail_msg("%s: combining gave %d", mod->name, st);
        free(a);
        free(b);
    }
    assert_int_equal(iolens_combine_record(NULL, IOLENS_COMBINE_TOTAL, NULL, NULL, 1),
                     IOLENS_ERR_ARGUMENT);
}

/* A random record of mod: small integers, -1 now and then; rank -1 or not. */
static void random_record(const struct iolens_module_desc *mod, unsigned char *r,
                          uint64_t *seed, struct iolens_record_base base)
{
    for (size_t w = 0; w < mod->record_size / 8; w++) {
        *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
        int64_t v = (int64_t)(*seed >> 40) % 1000 - (*seed % 11 == 0 ? 1001 : 0);
        memcpy(r + 8 * w, &v, 8);
    }
    for (size_t f = 0; f < mod->nfcounters; f++) {
        double d = (double)(*seed % 1000) / 7.0 - (f % 5 == 0 ? 3.0 : 0.0);
        memcpy(r + mod->fcounters_offset + 8 * f, &d, 8);
        *seed = *seed * 6364136223846793005ULL + 1;
    }
    memcpy(r, &base, sizeof(base));
}

/* Combining through a plan gives exactly what the checked engine gives, in
 * every mode the module supports, for random records of one file and of
 * several, ranks mixed. */
static void planned_equals_checked(void **state)
{
    const struct iolens_module_desc *mod = mod_of(state);
    static const iolens_combine_mode modes[] = {IOLENS_COMBINE_TOTAL, IOLENS_COMBINE_REDUCE};
    unsigned char *a = calloc(1, mod->record_size), *b = calloc(1, mod->record_size);
    unsigned char *r = calloc(1, mod->record_size);
    uint64_t seed = 42;

    for (size_t k = 0; k < 2; k++) {
        struct iol_combine_plan plan;
        if (!iolens_combine_supported(mod, modes[k]))
            continue;
        assert_int_equal(iol_combine_plan_init(&plan, mod, modes[k]), IOLENS_OK);
        for (int i = 0; i < 500; i++) {
            struct iolens_record_base base = {(uint64_t)(i < 250 ? 9 : i % 3), i % 4 - 1};
            random_record(mod, r, &seed, base);
            assert_int_equal(iolens_combine_record(mod, modes[k], a, r, i == 0), IOLENS_OK);
            iol_combine_planned(&plan, b, r, i == 0);
            assert_memory_equal(a, b, mod->record_size);
        }
        iol_combine_plan_free(&plan);
    }
    free(a);
    free(b);
    free(r);
}

/* The modes differ only where combine.c's mode_rules say: for shared records
 * of one file without negative values, from the same first record, every row
 * but the TOP4 groups comes out the same in both, and so does the rank. */
static void modes_agree_elsewhere(void **state)
{
    const struct iolens_module_desc *mod = mod_of(state);
    if (!iolens_combine_supported(mod, IOLENS_COMBINE_REDUCE))
        skip();
    unsigned char *t = calloc(1, mod->record_size), *u = calloc(1, mod->record_size);
    unsigned char *r = calloc(1, mod->record_size);
    uint64_t seed = 7;
    struct iolens_record_base shared = {9, -1};

    for (int i = 0; i < 200; i++) {
        random_record(mod, r, &seed, shared);
        for (size_t w = 2; w < mod->record_size / 8; w++) {
            int64_t v;
            memcpy(&v, r + 8 * w, 8);
            v = v < 0 ? -v : v;
            memcpy(r + 8 * w, &v, 8);
        }
        for (size_t f = 0; f < mod->nfcounters; f++)
            set_f(mod, r, f, get_f(mod, r, f) < 0 ? -get_f(mod, r, f) : get_f(mod, r, f));
        if (i == 0)
            memcpy(t, r, mod->record_size);
        else
            merge_ok(mod, t, r, 0);
        assert_int_equal(iolens_combine_record(mod, IOLENS_COMBINE_REDUCE, u, r, i == 0),
                         IOLENS_OK);
        for (size_t c = 0; c < mod->ncounters; c++) {
            unsigned m = leader_of(mod, c);
            if (m != IOLENS_MERGE_TOP4 && get_c(mod, t, c) != get_c(mod, u, c))
                fail_msg("%s: %s: %lld in the totals, %lld reduced", mod->name,
                         mod->counters[c].name, (long long)get_c(mod, t, c),
                         (long long)get_c(mod, u, c));
        }
        for (size_t f = 0; f < mod->nfcounters; f++)
            if (get_f(mod, t, f) != get_f(mod, u, f))
                fail_msg("%s: %s differs", mod->name, mod->fcounters[f].name);
        assert_int_equal(base_of(t).rank, base_of(u).rank);
    }
    free(t);
    free(u);
    free(r);
}

/* A row one combiner sums and the other leaves out (PNETCDF_VAR_NB_READS):
 * UNSET_SUM follows the mode, where UNSET is -1 in the totals and refused
 * in REDUCE. The rows of a small module made for the test. */
static void unset_sum_by_mode(void **state)
{
    static const struct iolens_counter rows[] = {
        {"T_SUM", IOLENS_I64, IOLENS_MERGE_SUM, ""},
        {"T_NB", IOLENS_I64, IOLENS_MERGE_UNSET_SUM, ""},
    };
    static const struct iolens_counter unset_row[] = {
        {"T_UNSET", IOLENS_I64, IOLENS_MERGE_UNSET, ""},
    };
    const struct iolens_module_desc mod = {
        .name = "T", .record_size = 16 + 8 * 2, .counters = rows, .ncounters = 2,
        .counters_offset = 16, .fcounters_offset = 32, .head_words = 2};
    const struct iolens_module_desc unset_mod = {
        .name = "U", .record_size = 16 + 8, .counters = unset_row, .ncounters = 1,
        .counters_offset = 16, .fcounters_offset = 24, .head_words = 2};
    (void)state;
    assert_true(iolens_combine_supported(&unset_mod, IOLENS_COMBINE_TOTAL));
    assert_false(iolens_combine_supported(&unset_mod, IOLENS_COMBINE_REDUCE));
    for (int mode = IOLENS_COMBINE_TOTAL; mode <= IOLENS_COMBINE_REDUCE; mode++) {
        unsigned char *a = new_record(&mod, 1, -1), *b = new_record(&mod, 1, -1);
        set_c(&mod, a, 0, 3);
        set_c(&mod, a, 1, 3);
        set_c(&mod, b, 0, 4);
        set_c(&mod, b, 1, 4);
        assert_int_equal(iolens_combine_record(&mod, (iolens_combine_mode)mode, a, b, 0),
                         IOLENS_OK);
        assert_int_equal(get_c(&mod, a, 0), 7);
        assert_int_equal(get_c(&mod, a, 1), mode == IOLENS_COMBINE_TOTAL ? -1 : 7);
        free(a);
        free(b);
    }
}

/* ---- the accumulator, on POSIX records ---- */

static void posix_record(unsigned char *r, uint64_t id, int64_t rank, int64_t rd, int64_t wr,
                         double rt, double wt, double mt, double slowest)
{
    const struct iolens_module_desc *mod = &iolens_posix_module;
    struct iolens_record_base b = {id, rank};
    memset(r, 0, mod->record_size);
    memcpy(r, &b, sizeof(b));
    set_c(mod, r, POSIX_BYTES_READ, rd);
    set_c(mod, r, POSIX_BYTES_WRITTEN, wr);
    set_c(mod, r, POSIX_MAX_BYTE_READ, rd ? rd - 1 : 0);
    set_c(mod, r, POSIX_MAX_BYTE_WRITTEN, wr ? wr - 1 : 0);
    set_f(mod, r, POSIX_F_READ_TIME, rt);
    set_f(mod, r, POSIX_F_WRITE_TIME, wt);
    set_f(mod, r, POSIX_F_META_TIME, mt);
    set_f(mod, r, POSIX_F_SLOWEST_RANK_TIME, slowest);
}

/* Totals-only accumulation gives the same totals record as the full one. */
static void accumulator_totals_only(void **state)
{
    (void)state;
    const struct iolens_module_desc *mod = &iolens_posix_module;
    unsigned char *r = new_record(mod, 0, 0);
    unsigned char *full = new_record(mod, 0, 0), *fast = new_record(mod, 0, 0);
    iolens_accumulator *a, *b;
    struct iolens_metrics m;

    assert_int_equal(iolens_accumulator_create(mod, 4, &a), IOLENS_OK);
    assert_int_equal(iolens_accumulator_create(mod, 4, &b), IOLENS_OK);
    iolens_accumulator_totals_only(b);
    for (int i = 0; i < 40; i++) {
        posix_record(r, (uint64_t)(i % 7 + 1), i % 4, 100 * i, 7 * i, 0.5 * i, 0.25, 0.125, 0);
        assert_int_equal(iolens_accumulator_inject(a, r), IOLENS_OK);
        assert_int_equal(iolens_accumulator_inject(b, r), IOLENS_OK);
    }
    assert_int_equal(iolens_accumulator_emit(a, NULL, full), IOLENS_OK);
    assert_int_equal(iolens_accumulator_emit(b, &m, fast), IOLENS_OK);
    assert_memory_equal(full, fast, mod->record_size);
    assert_int_equal(m.files[IOLENS_FILES_ALL].count, 0);
    iolens_accumulator_free(a);
    iolens_accumulator_free(b);
    free(r);
    free(full);
    free(fast);
}

static void accumulator_metrics(void **state)
{
    (void)state;
    const struct iolens_module_desc *mod = &iolens_posix_module;
    unsigned char *r = new_record(mod, 0, 0), *total = new_record(mod, 0, 0);
    iolens_accumulator *acc;
    struct iolens_metrics m;

    assert_int_equal(iolens_accumulator_create(mod, 2, &acc), IOLENS_OK);
    posix_record(r, 1, 0, 100, 0, 1.0, 0, 0.5, 0);  /* file 1, rank 0 */
    assert_int_equal(iolens_accumulator_inject(acc, r), IOLENS_OK);
    posix_record(r, 1, 1, 0, 50, 0, 2.0, 0, 0);     /* file 1, rank 1 */
    assert_int_equal(iolens_accumulator_inject(acc, r), IOLENS_OK);
    posix_record(r, 2, 0, 10, 0, 0.25, 0, 0, 0);    /* file 2, rank 0 */
    assert_int_equal(iolens_accumulator_inject(acc, r), IOLENS_OK);
    posix_record(r, 3, -1, 0, 1000, 0, 0, 0, 3.0);  /* file 3, shared */
    assert_int_equal(iolens_accumulator_inject(acc, r), IOLENS_OK);
    assert_int_equal(iolens_accumulator_emit(acc, &m, total), IOLENS_OK);

    assert_int_equal(m.total_bytes, 1160);
    assert_int_equal(m.unique_slowest_rank, 1);
    assert_true(m.unique_io_time == 2.0 && m.unique_rw_time == 2.0 && m.unique_meta_time == 0);
    assert_true(m.shared_io_time == 3.0 && m.agg_time == 5.0);
    assert_true(m.agg_perf == (1160 / 1048576.0) / 5.0);

    const struct iolens_file_counts *all = &m.files[IOLENS_FILES_ALL];
    assert_int_equal(all->count, 3);
    assert_int_equal(all->read_bytes, 110);
    assert_int_equal(all->written_bytes, 1050);
    assert_int_equal(all->max_offset, 999);
    assert_int_equal(all->total_max_offset, 99 + 9 + 999);
    assert_int_equal(all->nprocs, -1);
    assert_int_equal(m.files[IOLENS_FILES_READ_ONLY].count, 1);
    assert_int_equal(m.files[IOLENS_FILES_WRITE_ONLY].count, 1);
    assert_int_equal(m.files[IOLENS_FILES_READ_WRITE].count, 1);
    assert_int_equal(m.files[IOLENS_FILES_UNIQUE].count, 1);
    assert_int_equal(m.files[IOLENS_FILES_SHARED].count, 1);
    assert_int_equal(m.files[IOLENS_FILES_PART_SHARED].count, 1);
    assert_int_equal(m.files[IOLENS_FILES_PART_SHARED].nprocs, -1);

    assert_int_equal(get_c(mod, total, POSIX_BYTES_READ), 110);
    assert_int_equal(get_c(mod, total, POSIX_BYTES_WRITTEN), 1050);
    assert_int_equal(base_of(total).id, 0);
    assert_int_equal(base_of(total).rank, -1);
    iolens_accumulator_free(acc);
    free(r);
    free(total);
}

/* Modules without derived metrics are refused; an empty accumulator emits zeros. */
static void accumulator_edges(void **state)
{
    (void)state;
    iolens_accumulator *acc = (iolens_accumulator *)1;
    struct iolens_metrics m;
    unsigned char *total = new_record(&iolens_posix_module, 5, 5);

    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        if (mod && !(mod->roles && (mod->roles->flags & IOLENS_ROLE_METRICS))) {
            assert_int_equal(iolens_accumulator_create(mod, 4, &acc), IOLENS_ERR_ARGUMENT);
            assert_null(acc);
        }
    }
    assert_int_equal(iolens_accumulator_create(&iolens_posix_module, 4, &acc), IOLENS_OK);
    assert_int_equal(iolens_accumulator_emit(acc, &m, total), IOLENS_OK);
    assert_int_equal(m.total_bytes, 0);
    assert_int_equal(m.files[IOLENS_FILES_ALL].count, 0);
    assert_true(m.agg_perf == 0);
    for (size_t i = 0; i < iolens_posix_module.record_size; i++)
        assert_int_equal(total[i], 0);
    iolens_accumulator_free(acc);
    iolens_accumulator_free(NULL);
    free(total);
}

int main(void)
{
    static const struct {
        const char *what;
        CMUnitTestFunction fn;
    } per_module[] = {
        {"merge_with_zero_record", merge_with_zero_record},
        {"sum_max_min_nonzero", sum_max_min_nonzero},
        {"minus_one_clamping", minus_one_clamping},
        {"top4_groups", top4_groups},
        {"fastest_slowest", fastest_slowest},
        {"planned_equals_checked", planned_equals_checked},
        {"modes_agree_elsewhere", modes_agree_elsewhere},
    };
    enum { NPER = sizeof(per_module) / sizeof(per_module[0]) };
    static struct CMUnitTest tests[IOLENS_MOD_KNOWN_COUNT * NPER + 6];
    static char names[IOLENS_MOD_KNOWN_COUNT * NPER][96];
    size_t n = 0, nmods = 0;

    /* Every module the TOTAL mode supports. */
    for (int id = 0; id < IOLENS_MOD_KNOWN_COUNT; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        if (iolens_combine_supported(mod, IOLENS_COMBINE_TOTAL))
            modules[nmods++] = mod;
    }
    for (size_t k = 0; k < nmods; k++) {
        for (size_t t = 0; t < NPER; t++) {
            snprintf(names[n], sizeof(names[n]), "%s/%s", per_module[t].what, modules[k]->name);
            tests[n] = (struct CMUnitTest){names[n], per_module[t].fn, NULL, NULL,
                                           (void *)(uintptr_t)modules[k]};
            n++;
        }
    }
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(roles_match_tables);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(refused_only_for_known_reasons);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(unset_sum_by_mode);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(accumulator_metrics);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(accumulator_totals_only);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(accumulator_edges);
    return _cmocka_run_group_tests("combine", tests, n, NULL, NULL);
}
