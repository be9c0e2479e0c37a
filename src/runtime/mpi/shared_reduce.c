/* The reduction of shared records (see shared.h), as Darshan 3.5 does it.
 *
 * For each module that has shared records and a reduction (POSIX, MPI-IO,
 * STDIO; HEATMAP records stay per rank, as in the reference), every rank
 * prepares its copies (../reduce.h), sorts its records by rank descending
 * and id ascending, which puts the shared ones last in the same order
 * everywhere, and reduces them to rank 0 with MPI_Reduce. The operation is
 * created commutative on a contiguous byte type of one record, exactly as
 * the reference does: Open MPI then picks the same algorithm, hence the
 * same combining order, and the fields taken from one operand (modes, the
 * four most common values) come out as the reference's. Two more
 * reductions, with their own commutative operation, give the variances of
 * time and bytes. Rank 0 then holds the combined records (rank -1) in place
 * of its copies; the other ranks drop theirs. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "shared.h"

static void op_posix(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    iol_reduce_combine_n(&iol_reduce_posix, in, inout, (size_t)*len);
}

static void op_mpiio(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    iol_reduce_combine_n(&iol_reduce_mpiio, in, inout, (size_t)*len);
}

static void op_stdio(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    iol_reduce_combine_n(&iol_reduce_stdio, in, inout, (size_t)*len);
}

/* Elements may sit at any offset of MPI's buffers: copied, not dereferenced. */
static void op_variance(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    for (int i = 0; i < *len; i++) {
        struct iol_variance x, y;
        unsigned char *pi = (unsigned char *)in + (size_t)i * sizeof(x);
        unsigned char *po = (unsigned char *)inout + (size_t)i * sizeof(y);
        memcpy(&x, pi, sizeof(x));
        memcpy(&y, po, sizeof(y));
        iol_variance_merge(&x, &y);
        memcpy(po, &y, sizeof(y));
    }
}

/* The modules Darshan 3.5 reduces, in increasing module id. */
static const struct {
    int mod_id;
    const struct iol_reduce_mod *m;
    MPI_User_function *op;
} reduced[] = {
    {IOLENS_MOD_POSIX, &iol_reduce_posix, op_posix},
    {IOLENS_MOD_MPIIO, &iol_reduce_mpiio, op_mpiio},
    {IOLENS_MOD_STDIO, &iol_reduce_stdio, op_stdio},
};
#define NREDUCED (sizeof(reduced) / sizeof(reduced[0]))

/* One module's reduction: its records, how many are shared, the buffers. */
struct work {
    struct iol_mpi_module *mod;
    const struct iol_reduce_mod *m;
    MPI_User_function *op;
    size_t n;                   /* shared records: the last n after the sort */
    unsigned char *out;         /* rank 0: n combined records */
    struct iol_variance *var;   /* 4n: time and bytes, sent and received */
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
 * @return 0, or -1 when this rank's records do not match the shared names. */
static int prepare(const struct iol_mpi_local *l, const uint64_t *shared, struct work *w,
                   int mod_id)
{
    struct iol_mpi_module *mod = w->mod;
    size_t sz = w->m->desc->record_size, marked = 0;

    if (!mod || mod->rec_size != sz || w->n > INT_MAX)
        return -1;
    for (size_t i = 0; i < mod->count; i++) {
        unsigned char *rec = mod->recs + i * sz;
        uint64_t id;
        memcpy(&id, rec, sizeof(id));
        const struct iol_mpi_name *nm = iol_mpi_name_find(l, id);
        if (nm && (shared[nm - l->names] & (1ULL << mod_id))) {
            iol_reduce_prepare(w->m, rec);
            marked++;
        }
    }
    if (marked != w->n)
        return -1;
    qsort(mod->recs, mod->count, sz, cmp_base);
    if (!(w->var = malloc(4 * w->n * sizeof(*w->var))))
        return -1;
    if (iol_mpi.rank == 0 && !(w->out = malloc(w->n * sz)))
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
    size_t sz = w->m->desc->record_size, n = w->n;
    unsigned char *send = w->mod->recs + (w->mod->count - n) * sz;
    struct iol_variance *vt = w->var, *vb = w->var + n, *rt = w->var + 2 * n,
                        *rb = w->var + 3 * n;

    for (size_t i = 0; i < n; i++) {
        vt[i] = iol_reduce_time_var(w->m, send + i * sz);
        vb[i] = iol_reduce_bytes_var(w->m, send + i * sz);
    }
    if (reduce_bytes(send, w->out, n, sz, w->op) != 0 ||
        reduce_bytes(vt, rt, n, sizeof(*vt), op_variance) != 0 ||
        reduce_bytes(vb, rb, n, sizeof(*vb), op_variance) != 0)
        return -1;
    if (iol_mpi.rank != 0) {
        w->mod->count -= n;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        iol_reduce_set_variances(w->m, w->out + i * sz, &rt[i], &rb[i]);
    memcpy(send, w->out, n * sz);
    return 0;
}

int iol_mpi_shared_reduce(struct iol_mpi_local *l, const uint64_t *shared)
{
    struct work w[NREDUCED];
    int off = l->disable_shared_reduction, any_off = 0, failed = 0, rc = -1;

    /* One rank's setting turns the reduction off for all: a rank that
     * skipped it would leave the others waiting in MPI_Reduce. */
    if (PMPI_Allreduce(&off, &any_off, 1, MPI_INT, MPI_LOR, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    if (any_off)
        return 0;
    memset(w, 0, sizeof(w));
    for (size_t k = 0; k < NREDUCED; k++) {
        w[k].m = reduced[k].m;
        w[k].op = reduced[k].op;
        for (size_t i = 0; i < l->nmods; i++)
            if (l->mods[i].mod_id == reduced[k].mod_id)
                w[k].mod = &l->mods[i];
        /* The same count on every rank: each globally shared name is in
         * every rank's names once, with the same module mask. */
        for (size_t i = 0; i < l->nnames; i++)
            w[k].n += (shared[i] >> reduced[k].mod_id) & 1;
        if (w[k].n && prepare(l, shared, &w[k], reduced[k].mod_id) != 0)
            failed = 1;
    }
    if (iol_mpi_any_failed(failed))
        goto out;
    for (size_t k = 0; k < NREDUCED; k++)
        if (w[k].n && reduce_module(&w[k]) != 0)
            goto out;
    rc = 0;
out:
    for (size_t k = 0; k < NREDUCED; k++) {
        free(w[k].out);
        free(w[k].var);
    }
    return rc;
}
