/* The reduction of shared records (see shared.h), as Darshan 3.5 does it.
 *
 * For each module that has shared records and a reduction
 * (iolens_combine_reduced: POSIX, MPI-IO, H5F, H5D, PNETCDF_FILE,
 * PNETCDF_VAR, STDIO; HEATMAP records stay per rank, as in the reference),
 * every rank prepares its copies
 * (iolens_combine_prepare; the rules are the log library's combining engine
 * in its REDUCE mode, format/combine.h), sorts its records by rank
 * descending and id ascending, which puts the shared ones last in the same
 * order everywhere, and reduces them to rank 0 with MPI_Reduce. The
 * operation is created commutative on a contiguous byte type of one record,
 * exactly as the reference does: Open MPI then picks the same algorithm,
 * hence the same combining order, and the fields taken from one operand
 * (modes, the four most common values) come out as the reference's. Two
 * more reductions, with their own commutative operation, give the variances
 * of time and bytes (in the modules that keep them: not H5F or
 * PNETCDF_FILE). Rank 0 then holds the combined records (rank -1) in place
 * of its copies; the other ranks drop theirs. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "format/runtime_api.h"
#include "iolens/modules/h5d.h"
#include "iolens/modules/h5f.h"
#include "iolens/modules/mpiio.h"
#include "iolens/modules/pnetcdf_file.h"
#include "iolens/modules/pnetcdf_var.h"
#include "iolens/modules/posix.h"
#include "iolens/modules/stdio.h"
#include "shared.h"

/* Combine MPI's n incoming records into the n accumulated ones, side by side.
 * The module was checked (iolens_combine_supported) before the reduction. */
static void combine_n(const struct iolens_module_desc *mod, const void *in, void *inout, int n)
{
    for (size_t k = 0; k < (size_t)n; k++)
        iol_combine_checked(mod, IOLENS_COMBINE_REDUCE,
                            (unsigned char *)inout + k * mod->record_size,
                            (const unsigned char *)in + k * mod->record_size, 0);
}

static void op_posix(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    combine_n(&iolens_posix_module, in, inout, *len);
}

static void op_mpiio(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    combine_n(&iolens_mpiio_module, in, inout, *len);
}

static void op_stdio(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    combine_n(&iolens_stdio_module, in, inout, *len);
}

static void op_h5f(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    combine_n(&iolens_h5f_module, in, inout, *len);
}

static void op_h5d(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    combine_n(&iolens_h5d_module, in, inout, *len);
}

static void op_pnetcdf_file(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    combine_n(&iolens_pnetcdf_file_module, in, inout, *len);
}

static void op_pnetcdf_var(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    combine_n(&iolens_pnetcdf_var_module, in, inout, *len);
}

/* Elements may sit at any offset of MPI's buffers: copied, not dereferenced. */
static void op_variance(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    for (int i = 0; i < *len; i++) {
        struct iolens_variance x, y;
        unsigned char *pi = (unsigned char *)in + (size_t)i * sizeof(x);
        unsigned char *po = (unsigned char *)inout + (size_t)i * sizeof(y);
        memcpy(&x, pi, sizeof(x));
        memcpy(&y, po, sizeof(y));
        iolens_combine_variance_merge(&x, &y);
        memcpy(po, &y, sizeof(y));
    }
}

/* Each reduced module's operation (MPI passes the operation no context).
 * Which modules are reduced is the engine's rule (iolens_combine_reduced);
 * never a trace module (DXT): its records (variable-size, rec_size 0) stay
 * per rank. */
static MPI_User_function *const op_of[IOLENS_MAX_MODS] = {
    [IOLENS_MOD_POSIX] = op_posix,
    [IOLENS_MOD_MPIIO] = op_mpiio,
    [IOLENS_MOD_H5F] = op_h5f,
    [IOLENS_MOD_H5D] = op_h5d,
    [IOLENS_MOD_PNETCDF_FILE] = op_pnetcdf_file,
    [IOLENS_MOD_PNETCDF_VAR] = op_pnetcdf_var,
    [IOLENS_MOD_STDIO] = op_stdio,
};

/* One module's reduction: its records, how many are shared, the buffers. */
struct work {
    struct iol_mpi_module *mod;
    const struct iolens_module_desc *desc;
    MPI_User_function *op;
    size_t n;                    /* shared records: the last n after the sort */
    unsigned char *out;          /* rank 0: n combined records */
    struct iolens_variance *var; /* 4n: time and bytes, sent and received; NULL
                                  * for a module without variances */
};

static int cmp_base(const void *a, const void *b)
{
    struct iolens_record_base x, y;
    memcpy(&x, a, sizeof(x));
    memcpy(&y, b, sizeof(y));
    if (x.rank != y.rank)
        return x.rank < y.rank ? 1 : -1;
    return x.id < y.id ? -1 : x.id > y.id;
}

/* Prepare w's shared records and sort them to the end; allocate the buffers.
 * @return 0, or -1 when this rank's records do not match the shared names,
 * the module cannot be reduced, or memory is short. */
static int prepare(const struct iol_mpi_local *l, const uint64_t *shared, struct work *w)
{
    struct iol_mpi_module *mod = w->mod;
    size_t sz = w->desc->record_size, marked = 0;
    int mod_id = w->desc->id;

    if (!mod || mod->rec_size != sz || w->n > INT_MAX ||
        !iolens_combine_supported(w->desc, IOLENS_COMBINE_REDUCE))
        return -1;
    for (size_t i = 0; i < mod->count; i++) {
        unsigned char *rec = mod->recs + i * sz;
        uint64_t id;
        memcpy(&id, rec, sizeof(id));
        const struct iol_mpi_name *nm = iol_mpi_name_find(l, id);
        if (nm && (shared[nm - l->names] & (1ULL << mod_id))) {
            if (iolens_combine_prepare(w->desc, rec) != IOLENS_OK)
                return -1;
            marked++;
        }
    }
    if (marked != w->n)
        return -1;
    qsort(mod->recs, mod->count, sz, cmp_base);
    if (iol_mpi.rank == 0 && !(w->out = malloc(w->n * sz)))
        return -1;
    if (!iolens_combine_has_variances(w->desc))
        return 0;
    if (!(w->var = malloc(4 * w->n * sizeof(*w->var))))
        return -1;
    /* Each record's part of the variances of time and bytes (w->var's first
     * two quarters). */
    unsigned char *shared_recs = mod->recs + (mod->count - w->n) * sz;
    for (size_t i = 0; i < w->n; i++)
        if (iolens_combine_variance_init(w->desc, shared_recs + i * sz, &w->var[i],
                                         &w->var[w->n + i]) != IOLENS_OK)
            return -1;
    return 0;
}

/* MPI_Reduce of count elements of size bytes with a commutative op. */
static int reduce_bytes(const void *send, void *recv, size_t count, size_t size,
                        MPI_User_function *fn)
{
    MPI_Datatype type;
    MPI_Op op;
    int rc = -1;

    if (PMPI_Type_contiguous((int)size, MPI_BYTE, &type) != MPI_SUCCESS)
        return -1;
    if (PMPI_Type_commit(&type) == MPI_SUCCESS && PMPI_Op_create(fn, 1, &op) == MPI_SUCCESS) {
        rc = PMPI_Reduce(send, recv, (int)count, type, op, 0, iol_mpi.comm) == MPI_SUCCESS ? 0
                                                                                        : -1;
        PMPI_Op_free(&op);
    }
    PMPI_Type_free(&type);
    return rc;
}

/* The records, then the variances of time and bytes; rank 0 keeps the result. */
static int reduce_module(struct work *w)
{
    size_t sz = w->desc->record_size, n = w->n;
    unsigned char *send = w->mod->recs + (w->mod->count - n) * sz;
    struct iolens_variance *var = w->var;

    if (reduce_bytes(send, w->out, n, sz, w->op) != 0)
        return -1;
    if (var && (reduce_bytes(var, var + 2 * n, n, sizeof(*var), op_variance) != 0 ||
                reduce_bytes(var + n, var + 3 * n, n, sizeof(*var), op_variance) != 0))
        return -1;
    if (iol_mpi.rank != 0) {
        w->mod->count -= n;
        return 0;
    }
    for (size_t i = 0; var && i < n; i++)
        iolens_combine_variance_store(w->desc, w->out + i * sz, &var[2 * n + i],
                                      &var[3 * n + i]);
    memcpy(send, w->out, n * sz);
    return 0;
}

int iol_mpi_shared_reduce(struct iol_mpi_local *l, const uint64_t *shared)
{
    struct work w[IOLENS_MAX_MODS];
    int off = l->disable_shared_reduction, any_off = 0, failed = 0, rc = -1;

    /* One rank's setting turns the reduction off for all: a rank that
     * skipped it would leave the others waiting in MPI_Reduce. */
    if (PMPI_Allreduce(&off, &any_off, 1, MPI_INT, MPI_LOR, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    if (any_off)
        return 0;
    memset(w, 0, sizeof(w));
    /* In increasing module id, the same modules on every rank. */
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        struct work *m = &w[id];
        m->desc = iolens_module(id);
        if (!iolens_combine_reduced(m->desc))
            continue;
        m->op = op_of[id];
        for (size_t i = 0; i < l->nmods; i++)
            if (l->mods[i].mod_id == id)
                m->mod = &l->mods[i];
        /* The same count on every rank: each globally shared name is in
         * every rank's names once, with the same module mask. */
        for (size_t i = 0; i < l->nnames; i++)
            m->n += (shared[i] >> id) & 1;
        if (m->n && (!m->op || prepare(l, shared, m) != 0))
            failed = 1;
    }
    if (iol_mpi_any_failed(failed))
        goto out;
    for (int id = 0; id < IOLENS_MAX_MODS; id++)
        if (w[id].n && reduce_module(&w[id]) != 0)
            goto out;
    rc = 0;
out:
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        free(w[id].out);
        free(w[id].var);
    }
    return rc;
}
