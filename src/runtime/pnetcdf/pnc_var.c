/* PNETCDF_VAR module: the record of each variable ("FILE:NAME") defined or
 * looked up by name, the table of variable ids and the counter updates, with
 * Darshan 3.5's PNETCDF_VAR v1 semantics: every read and write call counted
 * by its own counter and kind (independent, collective, nonblocking), its
 * size computed from the selection as Darshan does (see access_of), and
 * the four most common accesses as (size, last 5 lengths, last 5 strides). */
#include "pnc_mod.h"

#include <string.h>

#include "callsites/callsites.h"
#include "common/hash.h"
#include "core/counting.h"
#include "core/paths.h"
#include "core/tuples.h"
#include "mpiio/mpi_io.h"

/* One access tuple: its size, then lengths and strides of the last
 * IOLENS_PNETCDF_VAR_MAX_NDIMS dimensions. */
#define NDIMS_KEPT IOLENS_PNETCDF_VAR_MAX_NDIMS
_Static_assert(IOL_TUPLE_WORDS == 1 + 2 * NDIMS_KEPT,
               "a tuple is a size, then lengths and strides of each dimension kept");
/* Dimensions a looked-up variable may have to be recorded. */
#define LOOKUP_DIMS 1024

enum { IO_READ = 1, IO_WRITE = 2 };

/* Per-record state that is not part of the log record. */
struct var_state {
    int last_io_type;     /* IO_READ, IO_WRITE or 0: for PNETCDF_VAR_RW_SWITCHES */
    int unlimdimid;       /* the file's record dimension at the last open, or -1 */
    double last_read_end; /* ends of the last timed calls, so that overlapping */
    double last_write_end; /* calls (threads) are not counted twice */
    double last_meta_end;
    struct iol_tuples tuples; /* the access tuples counted */
};

_Atomic(struct iol_slot *) iol_pnc_varid_tab[IOL_PNC_VARIDS];
static _Atomic int varid_tab_used; /* as pnc_file.c's ncid_tab_used */

static struct iol_pool *var_pool;

/* PnetCDF and MPI functions the counting needs but does not wrap. */
typedef int (*inq_path_fn)(int, int *, char *);
typedef int (*inq_int_fn)(int, int *);
typedef int (*inq_dimlen_fn)(int, int, MPI_Offset *);
typedef int (*inq_vartype_fn)(int, int, nc_type *);
typedef int (*inq_varint_fn)(int, int, int *);
typedef int (*type_size_fn)(MPI_Datatype, int *);
static void *inq_path, *inq_unlimdim, *inq_dimlen, *inq_vartype, *inq_varndims, *inq_vardimid;
static void *mpi_type_size;

static inline struct iolens_pnetcdf_var_record *rec_of(struct iol_slot *s)
{
    return iol_slot_rec(s);
}

static inline struct var_state *state_of(struct iol_slot *s)
{
    return iol_slot_state(s, sizeof(struct iolens_pnetcdf_var_record));
}

/* ---- opens ---- */

/* Bytes of one element of an external type (Darshan's rule: 8 for any
 * type it does not list). */
static int64_t type_bytes(nc_type t)
{
    switch (t) {
    case NC_BYTE: case NC_CHAR: case NC_UBYTE: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    default: return 8;
    }
}

/* The length of dimension dim of ncid, or 0 when PnetCDF cannot tell. */
static int64_t dim_len(int ncid, int dim)
{
    inq_dimlen_fn get = (inq_dimlen_fn)iol_pnc_next(&inq_dimlen, "ncmpi_inq_dimlen");
    MPI_Offset n = 0;
    if (!get || get(ncid, dim, &n) != NC_NOERR)
        return 0;
    return (int64_t)n;
}

/* The record "FILE:name" of a variable of ncid, FILE being the cleaned path
 * PnetCDF gives for ncid; *file_id gets FILE's record id. @return it, or NULL. */
static struct iol_slot *var_record(int ncid, const char *name, uint64_t *file_id)
{
    inq_path_fn path_of = (inq_path_fn)iol_pnc_next(&inq_path, "ncmpi_inq_path");
    char given[IOL_PATH_MAX], full[IOL_PATH_MAX];
    int len = 0;
    if (!path_of || path_of(ncid, &len, NULL) != NC_NOERR || len < 0 || len >= IOL_PATH_MAX ||
        path_of(ncid, NULL, given) != NC_NOERR)
        return NULL;
    given[len] = '\0';
    int n = iol_path_clean(given, NULL, full);
    size_t name_len = strlen(name);
    if (n < 0 || (size_t)n + 1 + name_len >= sizeof(full))
        return NULL;
    *file_id = iol_hash64(full, (size_t)n, 0);
    full[n] = ':';
    memcpy(full + n + 1, name, name_len + 1);
    return iol_record_of_name(var_pool, full, (size_t)n + 1 + name_len);
}

void iol_pnc_note_var_open(int ncid, const char *name, nc_type xtype, int ndims,
                           const int *dimids, int varid, double t0, double t1)
{
    uint64_t file_id = 0;
    struct iol_slot *s = name ? var_record(ncid, name, &file_id) : NULL;
    if (!s)
        return;
    inq_int_fn unlim_of = (inq_int_fn)iol_pnc_next(&inq_unlimdim, "ncmpi_inq_unlimdim");
    int unlim = -1;
    if (!unlim_of || unlim_of(ncid, &unlim) != NC_NOERR)
        unlim = -1;
    /* A record variable's first dimension is the record dimension, which
     * its element count leaves out. */
    int is_record = ndims > 0 && unlim >= 0 && dimids[0] == unlim;
    int64_t npoints = 1;
    for (int i = is_record; i < ndims; i++)
        npoints *= dim_len(ncid, dimids[i]);
    if (iol_slot_lock(s) == 0) {
        struct iolens_pnetcdf_var_record *r = rec_of(s);
        struct var_state *st = state_of(s);
        r->counters[PNETCDF_VAR_OPENS]++;
        iol_set_start_end(&r->fcounters[PNETCDF_VAR_F_OPEN_START_TIMESTAMP],
                          &r->fcounters[PNETCDF_VAR_F_OPEN_END_TIMESTAMP], t0, t1);
        iol_add_time(&r->fcounters[PNETCDF_VAR_F_META_TIME], t0, t1, &st->last_meta_end);
        st->unlimdimid = unlim;
        if (is_record)
            r->counters[PNETCDF_VAR_IS_RECORD_VAR] = 1;
        r->counters[PNETCDF_VAR_NPOINTS] = npoints;
        r->counters[PNETCDF_VAR_NDIMS] = ndims;
        r->counters[PNETCDF_VAR_DATATYPE_SIZE] = type_bytes(xtype);
        r->file_rec_id = file_id;
        iol_slot_unlock(s);
    }
    if (varid >= 0 && varid < IOL_PNC_VARIDS) {
        if (!atomic_load_explicit(&varid_tab_used, memory_order_relaxed))
            atomic_store_explicit(&varid_tab_used, 1, memory_order_relaxed);
        atomic_store_explicit(&iol_pnc_varid_tab[varid], s, memory_order_release);
    }
    iol_callsites_call(IOLENS_MOD_PNETCDF_VAR, IOLENS_CALLSITES_OPEN, t0, t1);
}

void iol_pnc_note_var_lookup(int ncid, const char *name, int varid, double t0, double t1)
{
    inq_vartype_fn type_of = (inq_vartype_fn)iol_pnc_next(&inq_vartype, "ncmpi_inq_vartype");
    inq_varint_fn ndims_of = (inq_varint_fn)iol_pnc_next(&inq_varndims, "ncmpi_inq_varndims");
    inq_varint_fn dims_of = (inq_varint_fn)iol_pnc_next(&inq_vardimid, "ncmpi_inq_vardimid");
    nc_type xtype;
    int ndims, dimids[LOOKUP_DIMS];
    if (!type_of || !ndims_of || !dims_of || type_of(ncid, varid, &xtype) != NC_NOERR ||
        ndims_of(ncid, varid, &ndims) != NC_NOERR || ndims < 0 || ndims > LOOKUP_DIMS ||
        dims_of(ncid, varid, dimids) != NC_NOERR)
        return;
    iol_pnc_note_var_open(ncid, name, xtype, ndims, dimids, varid, t0, t1);
}

/* ---- reads and writes ---- */

/* The size in bytes of an access and its tuple, from the variable's record
 * (its dimensions, elements and element size at the last open), as Darshan
 * computes them: whole variable: its elements (times the length of the
 * file's record dimension, whenever the file has one) times the element size;
 * one element: the element size; subarray (strided, mapped): the product of
 * the counts, with the counts (and the strides, 1 when none are given) of
 * the last 5 dimensions in the tuple; several subarrays: the sum of their
 * products, or their number when no counts are given; MPI datatype: its size
 * (unlim_len and vard_size were looked up before the lock). */
static int64_t access_of(const struct iolens_pnetcdf_var_record *r,
                         const struct iol_pnc_sel *sel, int64_t unlim_len, int64_t vard_size,
                         int64_t tuple[IOL_TUPLE_WORDS])
{
    int64_t type_size = r->counters[PNETCDF_VAR_DATATYPE_SIZE];
    int64_t ndims = r->counters[PNETCDF_VAR_NDIMS];
    int64_t size = 1;

    memset(tuple, 0, IOL_TUPLE_WORDS * sizeof(tuple[0]));
    switch (sel->kind) {
    case IOL_PNC_VAR:
        size = r->counters[PNETCDF_VAR_NPOINTS];
        if (unlim_len >= 0)
            size *= unlim_len;
        size *= type_size;
        break;
    case IOL_PNC_VAR1:
        size = type_size;
        break;
    case IOL_PNC_VARA:
    case IOL_PNC_VARS: {
        int64_t first = ndims > NDIMS_KEPT ? ndims - NDIMS_KEPT : 0;
        for (int64_t i = 0; i < ndims; i++) {
            size *= sel->count[i];
            if (i < first)
                continue;
            tuple[1 + i - first] = sel->count[i];
            if (sel->kind == IOL_PNC_VARS)
                tuple[1 + NDIMS_KEPT + i - first] = sel->stride ? sel->stride[i] : 1;
        }
        size *= type_size;
        break;
    }
    case IOL_PNC_VARN:
        if (sel->counts) {
            size = 0;
            for (int i = 0; i < sel->num; i++) {
                int64_t n = 1;
                for (int64_t j = 0; j < ndims; j++)
                    n *= sel->counts[i][j];
                size += n;
            }
        } else {
            size = sel->num;
        }
        size *= type_size;
        break;
    case IOL_PNC_VARD:
        size = vard_size;
        break;
    }
    tuple[0] = size;
    return size;
}

/* Indices of the counters that differ between reads and writes. */
struct rw_kind {
    int io_type, other_type;
    int bytes, hist0, max_time_size;
    int f_start, f_end, f_max_time, f_time;
};

static const struct rw_kind kind_read = {
    IO_READ, IO_WRITE, PNETCDF_VAR_BYTES_READ, PNETCDF_VAR_SIZE_READ_AGG_0_100,
    PNETCDF_VAR_MAX_READ_TIME_SIZE, PNETCDF_VAR_F_READ_START_TIMESTAMP,
    PNETCDF_VAR_F_READ_END_TIMESTAMP, PNETCDF_VAR_F_MAX_READ_TIME, PNETCDF_VAR_F_READ_TIME,
};

static const struct rw_kind kind_write = {
    IO_WRITE, IO_READ, PNETCDF_VAR_BYTES_WRITTEN, PNETCDF_VAR_SIZE_WRITE_AGG_0_100,
    PNETCDF_VAR_MAX_WRITE_TIME_SIZE, PNETCDF_VAR_F_WRITE_START_TIMESTAMP,
    PNETCDF_VAR_F_WRITE_END_TIMESTAMP, PNETCDF_VAR_F_MAX_WRITE_TIME, PNETCDF_VAR_F_WRITE_TIME,
};

/* The size of an MPI datatype (vard's file type), 0 for the null type. */
static int64_t datatype_size(MPI_Datatype t)
{
    const MPI_Datatype *null = iol_mpiio_datatype_null();
    type_size_fn size_of = (type_size_fn)iol_pnc_next(&mpi_type_size, "PMPI_Type_size");
    int n = 0;
    if (!null || t == *null || !size_of || size_of(t, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

void iol_pnc_note_access(struct iol_slot *s, int ncid, const struct iol_pnc_sel *sel,
                         int counter, int mode, int is_read, double t0, double t1)
{
    const struct rw_kind *k = is_read ? &kind_read : &kind_write;
    struct var_state *st = state_of(s);
    int64_t unlim_len = -1, vard_size = 0, tuple[IOL_TUPLE_WORDS];
    int unlim = st->unlimdimid;

    if (sel->kind == IOL_PNC_VAR && unlim >= 0)
        unlim_len = dim_len(ncid, unlim);
    else if (sel->kind == IOL_PNC_VARD)
        vard_size = datatype_size(sel->filetype);
    if (iol_slot_lock(s) != 0)
        return;
    struct iolens_pnetcdf_var_record *r = rec_of(s);
    int64_t size = access_of(r, sel, unlim_len, vard_size, tuple);
    r->counters[counter]++;
    r->counters[k->bytes] += size;
    if (st->last_io_type == k->other_type)
        r->counters[PNETCDF_VAR_RW_SWITCHES]++;
    st->last_io_type = k->io_type;
    r->counters[k->hist0 + iol_size_bucket(size)]++;
    iol_tuples_note(&st->tuples, &r->counters[PNETCDF_VAR_ACCESS1_ACCESS],
                    &r->counters[PNETCDF_VAR_ACCESS1_COUNT], tuple);
    iol_set_start_end(&r->fcounters[k->f_start], &r->fcounters[k->f_end], t0, t1);
    if (r->fcounters[k->f_max_time] < t1 - t0) {
        r->fcounters[k->f_max_time] = t1 - t0;
        r->counters[k->max_time_size] = size;
    }
    iol_add_time(&r->fcounters[k->f_time], t0, t1,
                 k->io_type == IO_READ ? &st->last_read_end : &st->last_write_end);
    r->counters[mode]++;
    iol_slot_unlock(s);
    if (__builtin_expect(iol_callsites_on, 0))
        iol_callsites_note(IOLENS_MOD_PNETCDF_VAR, !is_read, size, t0, t1,
                           __builtin_return_address(0));
}

/* ---- the module ---- */

static void var_init_record(struct iolens_record_base *rec, void *state, const char *name)
{
    (void)rec;
    (void)name;
    ((struct var_state *)state)->unlimdimid = -1;
}

/* A fresh record set: variable ids point into the earlier set's records. */
static void var_start(struct iol_pool *pool)
{
    if (atomic_load_explicit(&varid_tab_used, memory_order_relaxed))
        for (size_t i = 0; i < IOL_PNC_VARIDS; i++)
            atomic_store_explicit(&iol_pnc_varid_tab[i], NULL, memory_order_relaxed);
    var_pool = pool;
}

static const struct iol_binding_table *const var_tables[] = {&iol_pnc_rw_bindings, NULL};

const struct iol_module iol_pnetcdf_var_module = {
    .id = IOLENS_MOD_PNETCDF_VAR,
    .name = "PNETCDF_VAR",
    .version = IOLENS_PNETCDF_VAR_VERSION,
    .record_size = sizeof(struct iolens_pnetcdf_var_record),
    .state_size = sizeof(struct var_state),
    .names_are_paths = 1,
    .bindings = var_tables,
    .bindings_at_first_use = 1, /* iol_pnc_next */
    .init_record = var_init_record,
    .start = var_start,
};
