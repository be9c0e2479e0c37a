/* Two records of one shared file combined into one, counter by counter, as
 * Darshan 3.5's runtime does it in its MPI reduction. The merge column of the
 * module's counter tables says which rule each counter follows; this file
 * applies the runtime's version of each rule, which is not always the one
 * `parse --total` applies (see docs/runtime.md, "Shared records"). */
#include <string.h>

#include "reduce.h"

/* A record's words, seen through the module's descriptor. */
static int64_t get_c(const struct iolens_module_desc *d, const void *r, size_t i)
{
    int64_t v;
    memcpy(&v, (const unsigned char *)r + d->counters_offset + 8 * i, 8);
    return v;
}

static void set_c(const struct iolens_module_desc *d, void *r, size_t i, int64_t v)
{
    memcpy((unsigned char *)r + d->counters_offset + 8 * i, &v, 8);
}

static double get_f(const struct iolens_module_desc *d, const void *r, size_t i)
{
    double v;
    memcpy(&v, (const unsigned char *)r + d->fcounters_offset + 8 * i, 8);
    return v;
}

static void set_f(const struct iolens_module_desc *d, void *r, size_t i, double v)
{
    memcpy((unsigned char *)r + d->fcounters_offset + 8 * i, &v, 8);
}

/* Addition without signed-overflow undefined behaviour. */
static int64_t add_wrap(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* Is rule m at counter i (fcounter if is_f) one the combine step applies? */
static int rule_ok(const struct iol_reduce_mod *m, unsigned rule, size_t i, int is_f)
{
    const struct iolens_module_roles *r = m->desc->roles;
    switch (rule) {
    case IOLENS_MERGE_SUM:
    case IOLENS_MERGE_LAST:
    case IOLENS_MERGE_MAX:
    case IOLENS_MERGE_MIN_NONZERO:
    case IOLENS_MERGE_PAIRED:
    case IOLENS_MERGE_ZERO:
        return 1;
    case IOLENS_MERGE_TOP4:
        return !is_f && i + 8 <= m->desc->ncounters;
    case IOLENS_MERGE_MAX_PAIRED:
        return is_f && r && ((int)i == r->f_max_read_time || (int)i == r->f_max_write_time);
    case IOLENS_MERGE_FASTEST:
        return is_f && r && (int)i == r->f_fastest_time;
    case IOLENS_MERGE_SLOWEST:
        return is_f && r && (int)i == r->f_slowest_time;
    default:
        return 0;
    }
}

int iol_reduce_supported(const struct iol_reduce_mod *m)
{
    const struct iolens_module_desc *d = m->desc;
    const struct iolens_module_roles *r = d->roles;
    if (!r || r->c_bytes_read < 0 || r->c_bytes_written < 0 || r->f_read_time < 0 ||
        r->f_write_time < 0 || r->f_meta_time < 0 || r->f_fastest_time < 0 ||
        r->f_slowest_time < 0 || m->nclamped > d->ncounters || m->f_variance_time < 0 ||
        m->f_variance_bytes < 0 || (size_t)m->f_variance_time >= d->nfcounters ||
        (size_t)m->f_variance_bytes >= d->nfcounters)
        return 0;
    for (size_t i = 0; i < d->ncounters; i++)
        if (!rule_ok(m, d->counters[i].merge, i, 0))
            return 0;
    for (size_t i = 0; i < d->nfcounters; i++)
        if (!rule_ok(m, d->fcounters[i].merge, i, 1))
            return 0;
    return 1;
}

/* I/O time of a prepared or per-rank record: the sum in Darshan's order. */
static double io_time(const struct iolens_module_desc *d, const void *rec)
{
    const struct iolens_module_roles *r = d->roles;
    return get_f(d, rec, (size_t)r->f_read_time) + get_f(d, rec, (size_t)r->f_write_time) +
           get_f(d, rec, (size_t)r->f_meta_time);
}

void iol_reduce_prepare(const struct iol_reduce_mod *m, void *rec)
{
    const struct iolens_module_desc *d = m->desc;
    const struct iolens_module_roles *r = d->roles;
    struct iolens_record_base b;
    memcpy(&b, rec, sizeof(b));
    int64_t bytes = add_wrap(get_c(d, rec, (size_t)r->c_bytes_read),
                             get_c(d, rec, (size_t)r->c_bytes_written));
    double t = io_time(d, rec);

    set_c(d, rec, (size_t)r->c_fastest_rank, b.rank);
    set_c(d, rec, (size_t)r->c_fastest_rank_bytes, bytes);
    set_f(d, rec, (size_t)r->f_fastest_time, t);
    set_c(d, rec, (size_t)r->c_slowest_rank, b.rank);
    set_c(d, rec, (size_t)r->c_slowest_rank_bytes, bytes);
    set_f(d, rec, (size_t)r->f_slowest_time, t);
    b.rank = -1;
    memcpy(rec, &b, sizeof(b));
}

/* The integer rules. Ties keep the accumulated value; only -1 clamping
 * depends on the counter's place (nclamped). */
static void combine_counter(const struct iol_reduce_mod *m, size_t i, const void *in, void *acc)
{
    const struct iolens_module_desc *d = m->desc;
    int64_t a = get_c(d, in, i), b = get_c(d, acc, i);

    switch (d->counters[i].merge) {
    case IOLENS_MERGE_SUM: {
        int64_t s = add_wrap(a, b);
        set_c(d, acc, i, s < 0 && i < m->nclamped ? -1 : s);
        break;
    }
    case IOLENS_MERGE_LAST:
        set_c(d, acc, i, a);
        break;
    case IOLENS_MERGE_MAX:
        set_c(d, acc, i, a > b ? a : b);
        break;
    case IOLENS_MERGE_MIN_NONZERO:
        set_c(d, acc, i, (a < b && a > 0) || b == 0 ? a : b);
        break;
    case IOLENS_MERGE_TOP4: {
        int64_t iv[4], ic[4], av[4], ac[4];
        for (size_t k = 0; k < 4; k++) {
            iv[k] = get_c(d, in, i + k);
            ic[k] = get_c(d, in, i + 4 + k);
            av[k] = get_c(d, acc, i + k);
            ac[k] = get_c(d, acc, i + 4 + k);
        }
        iol_reduce_top4(iv, ic, av, ac);
        for (size_t k = 0; k < 4; k++) {
            set_c(d, acc, i + k, av[k]);
            set_c(d, acc, i + 4 + k, ac[k]);
        }
        break;
    }
    case IOLENS_MERGE_PAIRED: /* written with the counter it pairs with */
        break;
    default: /* ZERO: not derivable from two records */
        set_c(d, acc, i, 0);
        break;
    }
}

/* Copy the time at fcounter t and the counters it carries from in to acc. */
static void take(const struct iolens_module_desc *d, const void *in, void *acc, int t, int c1,
                 int c2)
{
    set_f(d, acc, (size_t)t, get_f(d, in, (size_t)t));
    set_c(d, acc, (size_t)c1, get_c(d, in, (size_t)c1));
    if (c2 >= 0)
        set_c(d, acc, (size_t)c2, get_c(d, in, (size_t)c2));
}

/* The floating-point rules; MAX_PAIRED, FASTEST and SLOWEST carry counters
 * along. Ties keep the accumulated operand. */
static void combine_fcounter(const struct iol_reduce_mod *m, size_t i, const void *in, void *acc)
{
    const struct iolens_module_desc *d = m->desc;
    const struct iolens_module_roles *r = d->roles;
    double a = get_f(d, in, i), b = get_f(d, acc, i);

    switch (d->fcounters[i].merge) {
    case IOLENS_MERGE_SUM:
        set_f(d, acc, i, a + b);
        break;
    case IOLENS_MERGE_LAST:
        set_f(d, acc, i, a);
        break;
    case IOLENS_MERGE_MAX:
        set_f(d, acc, i, a > b ? a : b);
        break;
    case IOLENS_MERGE_MIN_NONZERO:
        set_f(d, acc, i, (a < b && a > 0) || b == 0 ? a : b);
        break;
    case IOLENS_MERGE_MAX_PAIRED:
        if (a > b)
            take(d, in, acc, (int)i,
                 (int)i == r->f_max_read_time ? r->c_max_read_time_size
                                              : r->c_max_write_time_size,
                 -1);
        break;
    case IOLENS_MERGE_FASTEST: /* zero times count: ranks without I/O */
        if (a < b)
            take(d, in, acc, (int)i, r->c_fastest_rank, r->c_fastest_rank_bytes);
        break;
    case IOLENS_MERGE_SLOWEST:
        if (a > b)
            take(d, in, acc, (int)i, r->c_slowest_rank, r->c_slowest_rank_bytes);
        break;
    case IOLENS_MERGE_PAIRED:
        break;
    default: /* ZERO: the variances, filled in after their own reductions */
        set_f(d, acc, i, 0.0);
        break;
    }
}

void iol_reduce_combine(const struct iol_reduce_mod *m, const void *in, void *acc)
{
    const struct iolens_module_desc *d = m->desc;
    struct iolens_record_base b;

    /* Every rule reads and writes only its own counters (and those paired
     * with them), so acc can be updated in place. */
    for (size_t i = 0; i < d->ncounters; i++)
        combine_counter(m, i, in, acc);
    for (size_t i = 0; i < d->nfcounters; i++)
        combine_fcounter(m, i, in, acc);
    memcpy(&b, in, sizeof(b));
    b.rank = -1;
    memcpy(acc, &b, sizeof(b));
}

void iol_reduce_combine_n(const struct iol_reduce_mod *m, const void *in, void *acc, size_t n)
{
    size_t sz = m->desc->record_size;
    for (size_t k = 0; k < n; k++)
        iol_reduce_combine(m, (const unsigned char *)in + k * sz, (unsigned char *)acc + k * sz);
}
