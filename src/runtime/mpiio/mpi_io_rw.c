/* MPI-IO module: the read and write wrappers, each under its MPI_ and its
 * PMPI_ name (Open MPI's Fortran bindings call the PMPI_ names), forwarding
 * to the next definition of the PMPI_ name. Exactly the calls Darshan 3.5
 * wraps, with its kinds: individual-pointer, explicit-offset and
 * shared-pointer calls are independent; _all, _at_all and _ordered are
 * collective; every _begin is split (the _end calls are not wrapped, so not
 * counted); every i* call is nonblocking, collective or not (MPI_Wait and
 * MPI_Test are not wrapped). A call is counted when it returns, with the
 * bytes it asked for.
 *
 * Unlike Darshan, no wrapper asks MPI for the file position first: Darshan
 * only feeds that to DXT, which iolens does not record. */
#include "mpi_io_mod.h"

/* Every wrapped read and write: its name after MPI_File_, direction (R, W),
 * whether it takes an explicit offset (AT) or not (NONE), what follows the
 * datatype (a status, nothing for a split _begin, a request), and the
 * counter of its kind. */
#define MPIIO_RW_CALLS(X) \
    X(read,                 R, NONE, STATUS,  MPIIO_INDEP_READS) \
    X(write,                W, NONE, STATUS,  MPIIO_INDEP_WRITES) \
    X(read_at,              R, AT,   STATUS,  MPIIO_INDEP_READS) \
    X(write_at,             W, AT,   STATUS,  MPIIO_INDEP_WRITES) \
    X(read_shared,          R, NONE, STATUS,  MPIIO_INDEP_READS) \
    X(write_shared,         W, NONE, STATUS,  MPIIO_INDEP_WRITES) \
    X(read_all,             R, NONE, STATUS,  MPIIO_COLL_READS) \
    X(write_all,            W, NONE, STATUS,  MPIIO_COLL_WRITES) \
    X(read_at_all,          R, AT,   STATUS,  MPIIO_COLL_READS) \
    X(write_at_all,         W, AT,   STATUS,  MPIIO_COLL_WRITES) \
    X(read_ordered,         R, NONE, STATUS,  MPIIO_COLL_READS) \
    X(write_ordered,        W, NONE, STATUS,  MPIIO_COLL_WRITES) \
    X(read_all_begin,       R, NONE, BEGIN,   MPIIO_SPLIT_READS) \
    X(write_all_begin,      W, NONE, BEGIN,   MPIIO_SPLIT_WRITES) \
    X(read_at_all_begin,    R, AT,   BEGIN,   MPIIO_SPLIT_READS) \
    X(write_at_all_begin,   W, AT,   BEGIN,   MPIIO_SPLIT_WRITES) \
    X(read_ordered_begin,   R, NONE, BEGIN,   MPIIO_SPLIT_READS) \
    X(write_ordered_begin,  W, NONE, BEGIN,   MPIIO_SPLIT_WRITES) \
    X(iread,                R, NONE, REQUEST, MPIIO_NB_READS) \
    X(iwrite,               W, NONE, REQUEST, MPIIO_NB_WRITES) \
    X(iread_at,             R, AT,   REQUEST, MPIIO_NB_READS) \
    X(iwrite_at,            W, AT,   REQUEST, MPIIO_NB_WRITES) \
    X(iread_all,            R, NONE, REQUEST, MPIIO_NB_READS) \
    X(iwrite_all,           W, NONE, REQUEST, MPIIO_NB_WRITES) \
    X(iread_at_all,         R, AT,   REQUEST, MPIIO_NB_READS) \
    X(iwrite_at_all,        W, AT,   REQUEST, MPIIO_NB_WRITES) \
    X(iread_shared,         R, NONE, REQUEST, MPIIO_NB_READS) \
    X(iwrite_shared,        W, NONE, REQUEST, MPIIO_NB_WRITES)

/* Parameter lists of a call, from its direction, offset and tail. */
#define BUF_R void *buf
#define BUF_W const void *buf
#define POS_NONE
#define POS_AT MPI_Offset offset,
#define POSARG_NONE
#define POSARG_AT offset,
#define TAIL_STATUS , MPI_Status *status
#define TAIL_BEGIN
#define TAIL_REQUEST , MPI_Request *request
#define TAILARG_STATUS , status
#define TAILARG_BEGIN
#define TAILARG_REQUEST , request
#define NOTE_R iol_mpiio_note_read
#define NOTE_W iol_mpiio_note_write
#define PARAMS(dir, pos, tail) \
    (MPI_File fh, POS_##pos BUF_##dir, int count, MPI_Datatype datatype TAIL_##tail)
#define ARGS(pos, tail) (fh, POSARG_##pos buf, count, datatype TAILARG_##tail)

/* The MPI_ names forward to the PMPI_ ones: their own next definitions are
 * looked up (the binding table lists every exported name) but never used. */
static void *unused_next;

/* One call's wrapper: the next PMPI_ definition (looked up at first use),
 * the real call timed, the access counted when the handle's file is
 * recorded; the PMPI_ name is an alias of the MPI_ one. */
#define MPIIO_WRAPPER(name, dir, pos, tail, kind) \
    static int(*real_##name) PARAMS(dir, pos, tail); \
    IOL_EXPORT int MPI_File_##name PARAMS(dir, pos, tail) \
    { \
        __typeof__(real_##name) real = \
            (__typeof__(real_##name))iol_mpiio_next((void **)&real_##name, "PMPI_File_" #name); \
        if (!real) \
            return MPI_ERR_OTHER; \
        struct iol_slot *s = iol_active() ? iol_mpiio_fh_slot(fh) : NULL; \
        if (!s) \
            return real ARGS(pos, tail); \
        double t0 = iol_now(); \
        int ret = real ARGS(pos, tail); \
        double t1 = iol_now(); \
        NOTE_##dir(s, kind, ret, count, datatype, t0, t1); \
        return ret; \
    } \
    IOL_EXPORT int PMPI_File_##name PARAMS(dir, pos, tail) \
        __attribute__((alias("MPI_File_" #name)));

MPIIO_RW_CALLS(MPIIO_WRAPPER)

#define MPIIO_BINDING(name, dir, pos, tail, kind) \
    {"MPI_File_" #name, (void *)MPI_File_##name, &unused_next}, \
    {"PMPI_File_" #name, (void *)PMPI_File_##name, (void **)&real_##name},

static const struct iol_binding bindings[] = {MPIIO_RW_CALLS(MPIIO_BINDING)};

const struct iol_binding_table iol_mpiio_rw_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
