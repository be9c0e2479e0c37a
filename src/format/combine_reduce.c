/* What only the REDUCE mode needs besides the rules: each rank's preparation
 * of its record, and the variances of I/O time and bytes across ranks, which
 * Darshan 3.5's runtime reduces apart from the records: each rank offers
 * (n = 1, T = its value, S = 0) and pairs merge as below, the expression kept
 * term for term so that the doubles come out as the reference's. */
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
