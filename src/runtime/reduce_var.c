/* The variances of I/O time and bytes across the ranks of a shared file.
 * Darshan 3.5 reduces them apart from the records, each rank offering
 * (n = 1, T = its value, S = 0) and pairs merged as below; the expression is
 * kept term for term, so that the doubles come out as the reference's. */
#include <string.h>

#include "reduce.h"

static double get_f(const struct iolens_module_desc *d, const void *r, int i)
{
    double v;
    memcpy(&v, (const unsigned char *)r + d->fcounters_offset + 8 * (size_t)i, 8);
    return v;
}

static int64_t get_c(const struct iolens_module_desc *d, const void *r, int i)
{
    int64_t v;
    memcpy(&v, (const unsigned char *)r + d->counters_offset + 8 * (size_t)i, 8);
    return v;
}

struct iol_variance iol_reduce_time_var(const struct iol_reduce_mod *m, const void *rec)
{
    const struct iolens_module_roles *r = m->desc->roles;
    struct iol_variance v = {1.0, 0.0, 0.0};
    v.T = get_f(m->desc, rec, r->f_read_time) + get_f(m->desc, rec, r->f_write_time) +
          get_f(m->desc, rec, r->f_meta_time);
    return v;
}

struct iol_variance iol_reduce_bytes_var(const struct iol_reduce_mod *m, const void *rec)
{
    const struct iolens_module_roles *r = m->desc->roles;
    struct iol_variance v = {1.0, 0.0, 0.0};
    /* Each count becomes a double before the sum, as in the reference. */
    v.T = (double)get_c(m->desc, rec, r->c_bytes_read) +
          (double)get_c(m->desc, rec, r->c_bytes_written);
    return v;
}

void iol_variance_merge(const struct iol_variance *in, struct iol_variance *acc)
{
    struct iol_variance z;
    double dev = (acc->n / in->n) * in->T - acc->T;

    z.n = in->n + acc->n;
    z.T = in->T + acc->T;
    z.S = in->S + acc->S + (in->n / (acc->n * z.n)) * dev * dev;
    *acc = z;
}

void iol_reduce_set_variances(const struct iol_reduce_mod *m, void *rec,
                              const struct iol_variance *time, const struct iol_variance *bytes)
{
    double vt = time->S / time->n, vb = bytes->S / bytes->n;
    unsigned char *f = (unsigned char *)rec + m->desc->fcounters_offset;
    memcpy(f + 8 * (size_t)m->f_variance_time, &vt, 8);
    memcpy(f + 8 * (size_t)m->f_variance_bytes, &vb, 8);
}
