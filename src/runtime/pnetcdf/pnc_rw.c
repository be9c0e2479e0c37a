/* PNETCDF_VAR: the 550 read and write wrappers, one per row of pnc_calls.h,
 * each exported under PnetCDF's name and checked against pnetcdf.h's
 * declaration of it (a mismatch does not compile).
 *
 * Every wrapper (IOL_PNC_WRAPPER below) does the same: the next definition
 * (looked up at first use; none: NC_ENOTBUILT), the variable's record (none,
 * or not recording: the real call alone), the real call timed, and, if it
 * succeeded, iol_pnc_note_access with what the call selected, its own
 * counter and its kind. Darshan counts a nonblocking call when it is posted,
 * with the bytes it asks for; the wait is the file's (pnc_meta.c). */
#include "pnc_calls.h"
#include "pnc_mod.h"

/* Per kind: the parameters between varid and the buffer, the same as
 * arguments, and what the note is told of the selection. */
#define IOL_PNC_SEL_PARAMS_var
#define IOL_PNC_SEL_ARGS_var
#define IOL_PNC_SEL_var {.kind = IOL_PNC_VAR}
#define IOL_PNC_SEL_PARAMS_var1 const MPI_Offset *start,
#define IOL_PNC_SEL_ARGS_var1 start,
#define IOL_PNC_SEL_var1 {.kind = IOL_PNC_VAR1}
#define IOL_PNC_SEL_PARAMS_vara const MPI_Offset *start, const MPI_Offset *count,
#define IOL_PNC_SEL_ARGS_vara start, count,
#define IOL_PNC_SEL_vara {.kind = IOL_PNC_VARA, .count = count}
#define IOL_PNC_SEL_PARAMS_vars \
    const MPI_Offset *start, const MPI_Offset *count, const MPI_Offset *stride,
#define IOL_PNC_SEL_ARGS_vars start, count, stride,
#define IOL_PNC_SEL_vars {.kind = IOL_PNC_VARS, .count = count, .stride = stride}
#define IOL_PNC_SEL_PARAMS_varm \
    const MPI_Offset *start, const MPI_Offset *count, const MPI_Offset *stride, \
        const MPI_Offset *imap,
#define IOL_PNC_SEL_ARGS_varm start, count, stride, imap,
#define IOL_PNC_SEL_varm {.kind = IOL_PNC_VARS, .count = count, .stride = stride}
#define IOL_PNC_SEL_PARAMS_varn int num, MPI_Offset *const *starts, MPI_Offset *const *counts,
#define IOL_PNC_SEL_ARGS_varn num, starts, counts,
#define IOL_PNC_SEL_varn {.kind = IOL_PNC_VARN, .num = num, .counts = counts}
#define IOL_PNC_SEL_PARAMS_vard MPI_Datatype filetype,
#define IOL_PNC_SEL_ARGS_vard filetype,
#define IOL_PNC_SEL_vard {.kind = IOL_PNC_VARD, .filetype = filetype}

/* Per shape: the buffer parameters (const for the writing ops), as arguments. */
#define IOL_PNC_CONST_put const
#define IOL_PNC_CONST_iput const
#define IOL_PNC_CONST_bput const
#define IOL_PNC_CONST_get
#define IOL_PNC_CONST_iget
#define IOL_PNC_BUF_PARAMS_typed(op, ctype) IOL_PNC_CONST_##op ctype *buf
#define IOL_PNC_BUF_ARGS_typed buf
#define IOL_PNC_BUF_PARAMS_flex(op, ctype) \
    IOL_PNC_CONST_##op ctype *buf, MPI_Offset bufcount, MPI_Datatype buftype
#define IOL_PNC_BUF_ARGS_flex buf, bufcount, buftype

/* Per op: the request id of the nonblocking calls, and the direction. */
#define IOL_PNC_REQ_PARAMS_put
#define IOL_PNC_REQ_PARAMS_get
#define IOL_PNC_REQ_PARAMS_iput , int *reqid
#define IOL_PNC_REQ_PARAMS_iget , int *reqid
#define IOL_PNC_REQ_PARAMS_bput , int *reqid
#define IOL_PNC_REQ_ARGS_put
#define IOL_PNC_REQ_ARGS_get
#define IOL_PNC_REQ_ARGS_iput , reqid
#define IOL_PNC_REQ_ARGS_iget , reqid
#define IOL_PNC_REQ_ARGS_bput , reqid
#define IOL_PNC_READS_put 0
#define IOL_PNC_READS_get 1
#define IOL_PNC_READS_iput 0
#define IOL_PNC_READS_iget 1
#define IOL_PNC_READS_bput 0

/* Per op and mode: the kind counter. */
#define IOL_PNC_MODE_put PNETCDF_VAR_INDEP_WRITES
#define IOL_PNC_MODE_put_all PNETCDF_VAR_COLL_WRITES
#define IOL_PNC_MODE_get PNETCDF_VAR_INDEP_READS
#define IOL_PNC_MODE_get_all PNETCDF_VAR_COLL_READS
#define IOL_PNC_MODE_iput PNETCDF_VAR_NB_WRITES
#define IOL_PNC_MODE_bput PNETCDF_VAR_NB_WRITES
#define IOL_PNC_MODE_iget PNETCDF_VAR_NB_READS

/* A call's name, its next definition's pointer, its parameters and arguments. */
#define IOL_PNC_FN(op, mode, kind, type) ncmpi_##op##_##kind##type##mode
#define IOL_PNC_NEXT(op, mode, kind, type) next_##op##_##kind##type##mode
#define IOL_PNC_PARAMS(op, kind, shape, ctype) \
    int ncid, int varid, IOL_PNC_SEL_PARAMS_##kind IOL_PNC_BUF_PARAMS_##shape(op, ctype) \
        IOL_PNC_REQ_PARAMS_##op
#define IOL_PNC_ARGS(op, kind, shape) \
    ncid, varid, IOL_PNC_SEL_ARGS_##kind IOL_PNC_BUF_ARGS_##shape IOL_PNC_REQ_ARGS_##op

/* The next definitions, then the wrappers, then the binding table. */
#define IOL_PNC_NEXT_DECL(op, OP, mode, kind, KIND, shape, type, ctype) \
    static void *IOL_PNC_NEXT(op, mode, kind, type);
IOL_PNC_CALLS(IOL_PNC_NEXT_DECL)

#define IOL_PNC_WRAPPER(op, OP, mode, kind, KIND, shape, type, ctype) \
    IOL_EXPORT int IOL_PNC_FN(op, mode, kind, type)(IOL_PNC_PARAMS(op, kind, shape, ctype)) \
    { \
        __typeof__(&IOL_PNC_FN(op, mode, kind, type)) real = \
            (__typeof__(&IOL_PNC_FN(op, mode, kind, type)))iol_pnc_next( \
                &IOL_PNC_NEXT(op, mode, kind, type), "ncmpi_" #op "_" #kind #type #mode); \
        if (!real) \
            return NC_ENOTBUILT; \
        struct iol_slot *s = iol_pnc_var_slot(varid); \
        if (!s) \
            return real(IOL_PNC_ARGS(op, kind, shape)); \
        double t0 = iol_now(); \
        int ret = real(IOL_PNC_ARGS(op, kind, shape)); \
        double t1 = iol_now(); \
        if (ret == NC_NOERR) \
            iol_pnc_note_access(s, ncid, &(struct iol_pnc_sel)IOL_PNC_SEL_##kind, \
                                PNETCDF_VAR_##OP##_##KIND, IOL_PNC_MODE_##op##mode, \
                                IOL_PNC_READS_##op, t0, t1); \
        return ret; \
    }
IOL_PNC_CALLS(IOL_PNC_WRAPPER)

#define IOL_PNC_BINDING(op, OP, mode, kind, KIND, shape, type, ctype) \
    {"ncmpi_" #op "_" #kind #type #mode, (void *)IOL_PNC_FN(op, mode, kind, type), \
     &IOL_PNC_NEXT(op, mode, kind, type)},
static const struct iol_binding bindings[] = {IOL_PNC_CALLS(IOL_PNC_BINDING)};

const struct iol_binding_table iol_pnc_rw_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
