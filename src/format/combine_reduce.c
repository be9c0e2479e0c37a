/* What only the REDUCE mode needs besides the rules: each rank's preparation
 * of its record, and the variances of I/O time and bytes across ranks, which
 * Darshan 3.5's runtime reduces apart from the records: each rank offers
 * (n = 1, T = its value, S = 0) and pairs merge as below, the expression kept
 * term for term so that the doubles come out as the reference's. */
#include <stdlib.h>
#include <string.h>

#include "combine.h"
#include "words.h"

/* Are the roles the preparation and the variances read and write all known? */
static int roles_known(const struct iolens_module_desc *mod)
{
    const struct iolens_module_roles *r = mod ? mod->roles : NULL;
    return r && r->c_bytes_read && r->c_bytes_written && r->f_read_time && r->f_write_time &&
           r->f_meta_time && r->f_fastest_time && r->c_fastest_rank &&
           r->c_fastest_rank_bytes && r->f_slowest_time && r->c_slowest_rank &&
           r->c_slowest_rank_bytes;
}

double iol_own_time(const struct iolens_module_desc *mod, const void *rec)
{
    const struct iolens_module_roles *r = mod->roles;
    const unsigned char *f = (const unsigned char *)rec + mod->fcounters_offset;
    return iol_word_f(f, iol_role_at(r->f_read_time)) +
           iol_word_f(f, iol_role_at(r->f_write_time)) + iol_word_f(f, iol_role_at(r->f_meta_time));
}

int64_t iol_own_bytes(const struct iolens_module_desc *mod, const void *rec)
{
    const struct iolens_module_roles *r = mod->roles;
    const unsigned char *c = (const unsigned char *)rec + mod->counters_offset;
    return iol_add_wrap(iol_word_i(c, iol_role_at(r->c_bytes_read)),
                        iol_word_i(c, iol_role_at(r->c_bytes_written)));
}

int iol_extremes_absent(const struct iolens_module_desc *mod)
{
    const struct iolens_module_roles *r = mod ? mod->roles : NULL;
    return !r || (!r->f_fastest_time && !r->f_slowest_time);
}

iolens_status iolens_combine_prepare(const struct iolens_module_desc *mod, void *rec)
{
    struct iolens_record_base b;
    if (!rec || !mod)
        return IOLENS_ERR_ARGUMENT;
    if (iol_extremes_absent(mod)) { /* H5F, PNETCDF_FILE: only marked shared */
        memcpy(&b, rec, sizeof(b));
        b.rank = -1;
        memcpy(rec, &b, sizeof(b));
        return IOLENS_OK;
    }
    if (!roles_known(mod))
        return IOLENS_ERR_ARGUMENT;
    const struct iolens_module_roles *r = mod->roles;
    unsigned char *c = (unsigned char *)rec + mod->counters_offset;
    unsigned char *f = (unsigned char *)rec + mod->fcounters_offset;
    memcpy(&b, rec, sizeof(b));
    int64_t bytes = iol_own_bytes(mod, rec);
    double t = iol_own_time(mod, rec);

    iol_set_word_i(c, iol_role_at(r->c_fastest_rank), b.rank);
    iol_set_word_i(c, iol_role_at(r->c_fastest_rank_bytes), bytes);
    iol_set_word_f(f, iol_role_at(r->f_fastest_time), t);
    iol_set_word_i(c, iol_role_at(r->c_slowest_rank), b.rank);
    iol_set_word_i(c, iol_role_at(r->c_slowest_rank_bytes), bytes);
    iol_set_word_f(f, iol_role_at(r->f_slowest_time), t);
    b.rank = -1;
    memcpy(rec, &b, sizeof(b));
    return IOLENS_OK;
}

iolens_status iolens_combine_variance_init(const struct iolens_module_desc *mod,
                                           const void *rec, struct iolens_variance *time,
                                           struct iolens_variance *bytes)
{
    if (!rec || !time || !bytes || !roles_known(mod))
        return IOLENS_ERR_ARGUMENT;
    const unsigned char *c = (const unsigned char *)rec + mod->counters_offset;
    *time = (struct iolens_variance){1.0, iol_own_time(mod, rec), 0.0};
    /* Each count becomes a double before the sum, as in the reference. */
    *bytes = (struct iolens_variance){
        1.0,
        (double)iol_word_i(c, iol_role_at(mod->roles->c_bytes_read)) +
            (double)iol_word_i(c, iol_role_at(mod->roles->c_bytes_written)),
        0.0};
    return IOLENS_OK;
}

void iolens_combine_variance_merge(const struct iolens_variance *in, struct iolens_variance *acc)
{
    struct iolens_variance z;
    double dev = (acc->n / in->n) * in->T - acc->T;

    z.n = in->n + acc->n;
    z.T = in->T + acc->T;
    z.S = in->S + acc->S + (in->n / (acc->n * z.n)) * dev * dev;
    *acc = z;
}

void iolens_combine_variance_store(const struct iolens_module_desc *mod, void *rec,
                                   const struct iolens_variance *time,
                                   const struct iolens_variance *bytes)
{
    unsigned char *f = (unsigned char *)rec + mod->fcounters_offset;
    for (size_t i = 0; i < mod->nfcounters; i++) {
        if (mod->fcounters[i].merge == IOLENS_MERGE_VARIANCE_TIME)
            iol_set_word_f(f, i, time->S / time->n);
        else if (mod->fcounters[i].merge == IOLENS_MERGE_VARIANCE_BYTES)
            iol_set_word_f(f, i, bytes->S / bytes->n);
    }
}

int iolens_combine_reduced(const struct iolens_module_desc *mod)
{
    static const iolens_module_id reduced[] = {
        IOLENS_MOD_POSIX, IOLENS_MOD_MPIIO,        IOLENS_MOD_H5F,   IOLENS_MOD_H5D,
        IOLENS_MOD_PNETCDF_FILE, IOLENS_MOD_PNETCDF_VAR, IOLENS_MOD_STDIO,
    };
    for (size_t i = 0; mod && i < sizeof(reduced) / sizeof(reduced[0]); i++)
        if (mod->id == reduced[i])
            return iolens_combine_supported(mod, IOLENS_COMBINE_REDUCE);
    return 0;
}

int iolens_combine_has_variances(const struct iolens_module_desc *mod)
{
    for (size_t i = 0; mod && i < mod->nfcounters; i++)
        if (mod->fcounters[i].merge == IOLENS_MERGE_VARIANCE_TIME)
            return 1;
    return 0;
}

/* Fold the operands ops[] (each size bytes) in the order of an MPI_Reduce of
 * a message of msg bytes. @return the operand holding the result, or -1
 * without memory. */
static long reduce_in_order(const struct iolens_module_desc *mod, unsigned char *ops,
                            struct iolens_variance *var, size_t n, uint64_t msg)
{
    struct iolens_reduce_step *steps = malloc((n > 1 ? n - 1 : 1) * sizeof(*steps));
    if (!steps)
        return -1;
    size_t res = iolens_combine_reduce_order(n, msg, steps);
    for (size_t k = 0; k + 1 < n; k++) {
        if (mod)
            iol_combine_checked(mod, IOLENS_COMBINE_REDUCE,
                                ops + steps[k].inout * mod->record_size,
                                ops + steps[k].in * mod->record_size, 0);
        else
            iolens_combine_variance_merge(&var[steps[k].in], &var[steps[k].inout]);
    }
    free(steps);
    return (long)res;
}

iolens_status iolens_combine_shared(const struct iolens_module_desc *mod,
                                    const void *const *recs, size_t nprocs, size_t nshared,
                                    void *out)
{
    if (!recs || !out || nprocs == 0 || !iolens_combine_reduced(mod))
        return IOLENS_ERR_ARGUMENT;
    size_t sz = mod->record_size;
    int with_var = iolens_combine_has_variances(mod);
    unsigned char *ops = malloc(nprocs * sz);
    struct iolens_variance *var = with_var ? malloc(2 * nprocs * sizeof(*var)) : NULL;
    iolens_status st = IOLENS_ERR_NOMEM;
    long at;

    if (!ops || (with_var && !var))
        goto out;
    for (size_t r = 0; r < nprocs; r++) {
        unsigned char *op = ops + r * sz;
        struct iolens_record_base b;
        memcpy(op, recs[r], sz);
        memcpy(&b, op, sizeof(b));
        b.rank = (int64_t)r;
        memcpy(op, &b, sizeof(b));
        if ((st = iolens_combine_prepare(mod, op)) != IOLENS_OK ||
            (with_var && (st = iolens_combine_variance_init(mod, op, &var[r],
                                                            &var[nprocs + r])) != IOLENS_OK))
            goto out;
    }
    st = IOLENS_ERR_NOMEM;
    if ((at = reduce_in_order(mod, ops, NULL, nprocs, (uint64_t)nshared * sz)) < 0)
        goto out;
    memcpy(out, ops + (size_t)at * sz, sz);
    if (with_var) {
        uint64_t msg = (uint64_t)nshared * sizeof(*var);
        long t = reduce_in_order(NULL, NULL, var, nprocs, msg);
        long b = reduce_in_order(NULL, NULL, var + nprocs, nprocs, msg);
        if (t < 0 || b < 0)
            goto out;
        iolens_combine_variance_store(mod, out, &var[t], &var[nprocs + b]);
    }
    st = IOLENS_OK;
out:
    free(var);
    free(ops);
    return st;
}

/* A shared record's part of the variances across ranks, from what it keeps:
 * its total and the variance of its nprocs ranks. */
static struct iolens_variance variance_of(double n, double total, double variance)
{
    return (struct iolens_variance){n, total, variance * n};
}

/* The fcounter with merge rule rule, or -1. */
static long fcounter_of(const struct iolens_module_desc *mod, unsigned rule)
{
    for (size_t i = 0; i < mod->nfcounters; i++)
        if (mod->fcounters[i].merge == rule)
            return (long)i;
    return -1;
}

iolens_status iolens_combine_shared_jobs(const struct iolens_module_desc *mod,
                                         const void *const *recs, const int64_t *nprocs,
                                         const int64_t *first_rank, size_t n, void *out)
{
    if (!recs || !nprocs || !first_rank || !out || n == 0 || !iolens_combine_reduced(mod))
        return IOLENS_ERR_ARGUMENT;
    size_t sz = mod->record_size;
    const struct iolens_module_roles *r = mod->roles;
    int with_var = iolens_combine_has_variances(mod) && !iol_extremes_absent(mod);
    long vt = fcounter_of(mod, IOLENS_MERGE_VARIANCE_TIME);
    long vb = fcounter_of(mod, IOLENS_MERGE_VARIANCE_BYTES);
    struct iolens_variance time = {0, 0, 0}, bytes = {0, 0, 0};
    unsigned char *rec = malloc(sz);

    if (!rec)
        return IOLENS_ERR_NOMEM;
    for (size_t k = 0; k < n; k++) {
        unsigned char *c = rec + mod->counters_offset;
        const unsigned char *f = (const unsigned char *)recs[k] + mod->fcounters_offset;
        memcpy(rec, recs[k], sz);
        if (!iol_extremes_absent(mod))
            for (int slow = 0; slow < 2; slow++) {
                size_t at = iol_role_at(slow ? r->c_slowest_rank : r->c_fastest_rank);
                if (iol_word_i(c, at) >= 0)
                    iol_set_word_i(c, at, iol_add_wrap(iol_word_i(c, at), first_rank[k]));
            }
        if (with_var && vt >= 0 && vb >= 0) {
            struct iolens_variance t = variance_of((double)nprocs[k], iol_own_time(mod, rec),
                                                   iol_word_f(f, (size_t)vt));
            struct iolens_variance b = variance_of(
                (double)nprocs[k],
                (double)iol_word_i(c, iol_role_at(r->c_bytes_read)) +
                    (double)iol_word_i(c, iol_role_at(r->c_bytes_written)),
                iol_word_f(f, (size_t)vb));
            if (k == 0) {
                time = t;
                bytes = b;
            } else {
                iolens_combine_variance_merge(&t, &time);
                iolens_combine_variance_merge(&b, &bytes);
            }
        }
        iol_combine_checked(mod, IOLENS_COMBINE_REDUCE, out, rec, k == 0);
    }
    if (with_var && vt >= 0 && vb >= 0)
        iolens_combine_variance_store(mod, out, &time, &bytes);
    free(rec);
    return IOLENS_OK;
}
