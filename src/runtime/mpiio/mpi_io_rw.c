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
 * Each wrapper: the next PMPI_ definition (looked up at first use; none:
 * MPI_ERR_OTHER), the handle's record (none, or not recording: the real call
 * alone), the real call timed, then iol_mpiio_note_read or _write with the
 * counter of the call's kind. The PMPI_ name is an alias of the MPI_ one.
 *
 * Only while DXT_MPIIO records or MPI-IO events are on (one test of
 * iol_mpiio_rw_extra's IOL_MPIIO_RW_AT bits otherwise: wants_offset; call
 * sites do not need it), each wrapper asks MPI for the access's byte offset
 * before the real call, as Darshan does for DXT: an explicit offset through
 * the file's view (MPI_File_get_byte_offset), else the individual or shared file pointer
 * (MPI_File_get_position or _get_position_shared, then the same; for an
 * _ordered call, the shared pointer before the collective call). */
#include "mpi_io_mod.h"

/* Whether the wrappers ask MPI for the access's byte offset (DXT_MPIIO or
 * MPI-IO events on). */
static inline int wants_offset(void)
{
    return __builtin_expect(iol_mpiio_rw_extra & IOL_MPIIO_RW_AT, 0);
}

/* The real calls' types: direction, explicit offset (_at), and what follows
 * the datatype (a status; nothing for a split _begin; a request). */
typedef int (*read_fn)(MPI_File, void *, int, MPI_Datatype, MPI_Status *);
typedef int (*write_fn)(MPI_File, const void *, int, MPI_Datatype, MPI_Status *);
typedef int (*read_at_fn)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *);
typedef int (*write_at_fn)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Status *);
typedef int (*read_begin_fn)(MPI_File, void *, int, MPI_Datatype);
typedef int (*write_begin_fn)(MPI_File, const void *, int, MPI_Datatype);
typedef int (*read_at_begin_fn)(MPI_File, MPI_Offset, void *, int, MPI_Datatype);
typedef int (*write_at_begin_fn)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype);
typedef int (*read_req_fn)(MPI_File, void *, int, MPI_Datatype, MPI_Request *);
typedef int (*write_req_fn)(MPI_File, const void *, int, MPI_Datatype, MPI_Request *);
typedef int (*read_at_req_fn)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Request *);
typedef int (*write_at_req_fn)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype,
                               MPI_Request *);

static read_fn real_read;
static write_fn real_write;
static read_at_fn real_read_at;
static write_at_fn real_write_at;
static read_fn real_read_shared;
static write_fn real_write_shared;
static read_fn real_read_all;
static write_fn real_write_all;
static read_at_fn real_read_at_all;
static write_at_fn real_write_at_all;
static read_fn real_read_ordered;
static write_fn real_write_ordered;
static read_begin_fn real_read_all_begin;
static write_begin_fn real_write_all_begin;
static read_at_begin_fn real_read_at_all_begin;
static write_at_begin_fn real_write_at_all_begin;
static read_begin_fn real_read_ordered_begin;
static write_begin_fn real_write_ordered_begin;
static read_req_fn real_iread;
static write_req_fn real_iwrite;
static read_at_req_fn real_iread_at;
static write_at_req_fn real_iwrite_at;
static read_req_fn real_iread_all;
static write_req_fn real_iwrite_all;
static read_at_req_fn real_iread_at_all;
static write_at_req_fn real_iwrite_at_all;
static read_req_fn real_iread_shared;
static write_req_fn real_iwrite_shared;

/* The MPI_ names forward to the PMPI_ ones: their own next definitions are
 * looked up (the binding table lists every exported name) but never used. */
static void *unused_next;

/* The record of the handle fh, if the runtime records and tracks fh. */
static inline struct iol_slot *rw_slot(MPI_File fh)
{
    return iol_active() ? iol_mpiio_fh_slot(fh) : NULL;
}

IOL_EXPORT int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    read_fn real = (read_fn)iol_mpiio_next((void **)&real_read, "PMPI_File_read");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_INDEP_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                              MPI_Status *status) __attribute__((alias("MPI_File_read")));

IOL_EXPORT int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                              MPI_Status *status)
{
    write_fn real = (write_fn)iol_mpiio_next((void **)&real_write, "PMPI_File_write");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_INDEP_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                               MPI_Status *status) __attribute__((alias("MPI_File_write")));

IOL_EXPORT int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                MPI_Datatype datatype, MPI_Status *status)
{
    read_at_fn real = (read_at_fn)iol_mpiio_next((void **)&real_read_at, "PMPI_File_read_at");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_INDEP_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                 MPI_Datatype datatype, MPI_Status *status)
    __attribute__((alias("MPI_File_read_at")));

IOL_EXPORT int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                 MPI_Datatype datatype, MPI_Status *status)
{
    write_at_fn real = (write_at_fn)iol_mpiio_next((void **)&real_write_at, "PMPI_File_write_at");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_INDEP_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                  MPI_Datatype datatype, MPI_Status *status)
    __attribute__((alias("MPI_File_write_at")));

IOL_EXPORT int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                    MPI_Status *status)
{
    read_fn real = (read_fn)iol_mpiio_next((void **)&real_read_shared, "PMPI_File_read_shared");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_INDEP_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                     MPI_Status *status)
    __attribute__((alias("MPI_File_read_shared")));

IOL_EXPORT int MPI_File_write_shared(MPI_File fh, const void *buf, int count,
                                     MPI_Datatype datatype, MPI_Status *status)
{
    write_fn real =
        (write_fn)iol_mpiio_next((void **)&real_write_shared, "PMPI_File_write_shared");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_INDEP_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_shared(MPI_File fh, const void *buf, int count,
                                      MPI_Datatype datatype, MPI_Status *status)
    __attribute__((alias("MPI_File_write_shared")));

IOL_EXPORT int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                 MPI_Status *status)
{
    read_fn real = (read_fn)iol_mpiio_next((void **)&real_read_all, "PMPI_File_read_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_COLL_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                  MPI_Status *status) __attribute__((alias("MPI_File_read_all")));

IOL_EXPORT int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                  MPI_Status *status)
{
    write_fn real = (write_fn)iol_mpiio_next((void **)&real_write_all, "PMPI_File_write_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_COLL_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                   MPI_Status *status)
    __attribute__((alias("MPI_File_write_all")));

IOL_EXPORT int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                    MPI_Datatype datatype, MPI_Status *status)
{
    read_at_fn real =
        (read_at_fn)iol_mpiio_next((void **)&real_read_at_all, "PMPI_File_read_at_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_COLL_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                     MPI_Datatype datatype, MPI_Status *status)
    __attribute__((alias("MPI_File_read_at_all")));

IOL_EXPORT int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                     MPI_Datatype datatype, MPI_Status *status)
{
    write_at_fn real =
        (write_at_fn)iol_mpiio_next((void **)&real_write_at_all, "PMPI_File_write_at_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_COLL_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                      MPI_Datatype datatype, MPI_Status *status)
    __attribute__((alias("MPI_File_write_at_all")));

IOL_EXPORT int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                     MPI_Status *status)
{
    read_fn real = (read_fn)iol_mpiio_next((void **)&real_read_ordered, "PMPI_File_read_ordered");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_COLL_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                      MPI_Status *status)
    __attribute__((alias("MPI_File_read_ordered")));

IOL_EXPORT int MPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                                      MPI_Datatype datatype, MPI_Status *status)
{
    write_fn real =
        (write_fn)iol_mpiio_next((void **)&real_write_ordered, "PMPI_File_write_ordered");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, status);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, status);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_COLL_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                                       MPI_Datatype datatype, MPI_Status *status)
    __attribute__((alias("MPI_File_write_ordered")));

IOL_EXPORT int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    read_begin_fn real =
        (read_begin_fn)iol_mpiio_next((void **)&real_read_all_begin, "PMPI_File_read_all_begin");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_SPLIT_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
    __attribute__((alias("MPI_File_read_all_begin")));

IOL_EXPORT int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                                        MPI_Datatype datatype)
{
    write_begin_fn real = (write_begin_fn)iol_mpiio_next((void **)&real_write_all_begin,
                                                         "PMPI_File_write_all_begin");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_SPLIT_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                                         MPI_Datatype datatype)
    __attribute__((alias("MPI_File_write_all_begin")));

IOL_EXPORT int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                          MPI_Datatype datatype)
{
    read_at_begin_fn real = (read_at_begin_fn)iol_mpiio_next((void **)&real_read_at_all_begin,
                                                             "PMPI_File_read_at_all_begin");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_SPLIT_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                           MPI_Datatype datatype)
    __attribute__((alias("MPI_File_read_at_all_begin")));

IOL_EXPORT int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf,
                                           int count, MPI_Datatype datatype)
{
    write_at_begin_fn real = (write_at_begin_fn)iol_mpiio_next((void **)&real_write_at_all_begin,
                                                               "PMPI_File_write_at_all_begin");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_SPLIT_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf,
                                            int count, MPI_Datatype datatype)
    __attribute__((alias("MPI_File_write_at_all_begin")));

IOL_EXPORT int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                           MPI_Datatype datatype)
{
    read_begin_fn real = (read_begin_fn)iol_mpiio_next((void **)&real_read_ordered_begin,
                                                       "PMPI_File_read_ordered_begin");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_SPLIT_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                            MPI_Datatype datatype)
    __attribute__((alias("MPI_File_read_ordered_begin")));

IOL_EXPORT int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                            MPI_Datatype datatype)
{
    write_begin_fn real = (write_begin_fn)iol_mpiio_next((void **)&real_write_ordered_begin,
                                                         "PMPI_File_write_ordered_begin");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_SPLIT_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                             MPI_Datatype datatype)
    __attribute__((alias("MPI_File_write_ordered_begin")));

IOL_EXPORT int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    read_req_fn real = (read_req_fn)iol_mpiio_next((void **)&real_iread, "PMPI_File_iread");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_NB_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                               MPI_Request *request) __attribute__((alias("MPI_File_iread")));

IOL_EXPORT int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                               MPI_Request *request)
{
    write_req_fn real = (write_req_fn)iol_mpiio_next((void **)&real_iwrite, "PMPI_File_iwrite");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_NB_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                MPI_Request *request) __attribute__((alias("MPI_File_iwrite")));

IOL_EXPORT int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                 MPI_Datatype datatype, MPI_Request *request)
{
    read_at_req_fn real =
        (read_at_req_fn)iol_mpiio_next((void **)&real_iread_at, "PMPI_File_iread_at");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_NB_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                  MPI_Datatype datatype, MPI_Request *request)
    __attribute__((alias("MPI_File_iread_at")));

IOL_EXPORT int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                  MPI_Datatype datatype, MPI_Request *request)
{
    write_at_req_fn real =
        (write_at_req_fn)iol_mpiio_next((void **)&real_iwrite_at, "PMPI_File_iwrite_at");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_NB_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                   MPI_Datatype datatype, MPI_Request *request)
    __attribute__((alias("MPI_File_iwrite_at")));

IOL_EXPORT int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                  MPI_Request *request)
{
    read_req_fn real =
        (read_req_fn)iol_mpiio_next((void **)&real_iread_all, "PMPI_File_iread_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_NB_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                   MPI_Request *request)
    __attribute__((alias("MPI_File_iread_all")));

IOL_EXPORT int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                   MPI_Request *request)
{
    write_req_fn real =
        (write_req_fn)iol_mpiio_next((void **)&real_iwrite_all, "PMPI_File_iwrite_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_position(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_NB_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                    MPI_Request *request)
    __attribute__((alias("MPI_File_iwrite_all")));

IOL_EXPORT int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                     MPI_Datatype datatype, MPI_Request *request)
{
    read_at_req_fn real =
        (read_at_req_fn)iol_mpiio_next((void **)&real_iread_at_all, "PMPI_File_iread_at_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_NB_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                      MPI_Datatype datatype, MPI_Request *request)
    __attribute__((alias("MPI_File_iread_at_all")));

IOL_EXPORT int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                      MPI_Datatype datatype, MPI_Request *request)
{
    write_at_req_fn real =
        (write_at_req_fn)iol_mpiio_next((void **)&real_iwrite_at_all, "PMPI_File_iwrite_at_all");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, offset, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_offset(fh, offset) : 0;
    double t0 = iol_now();
    int ret = real(fh, offset, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_NB_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                       MPI_Datatype datatype, MPI_Request *request)
    __attribute__((alias("MPI_File_iwrite_at_all")));

IOL_EXPORT int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                     MPI_Request *request)
{
    read_req_fn real =
        (read_req_fn)iol_mpiio_next((void **)&real_iread_shared, "PMPI_File_iread_shared");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_read(s, MPIIO_NB_READS, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                      MPI_Request *request)
    __attribute__((alias("MPI_File_iread_shared")));

IOL_EXPORT int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                                      MPI_Datatype datatype, MPI_Request *request)
{
    write_req_fn real =
        (write_req_fn)iol_mpiio_next((void **)&real_iwrite_shared, "PMPI_File_iwrite_shared");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = rw_slot(fh);
    if (!s)
        return real(fh, buf, count, datatype, request);
    int64_t at = wants_offset() ? iol_mpiio_dxt_shared(fh) : 0;
    double t0 = iol_now();
    int ret = real(fh, buf, count, datatype, request);
    double t1 = iol_now();
    iol_mpiio_note_write(s, MPIIO_NB_WRITES, ret, count, datatype, at, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                                       MPI_Datatype datatype, MPI_Request *request)
    __attribute__((alias("MPI_File_iwrite_shared")));

static const struct iol_binding bindings[] = {
    {"MPI_File_read", (void *)MPI_File_read, &unused_next},
    {"PMPI_File_read", (void *)PMPI_File_read, (void **)&real_read},
    {"MPI_File_write", (void *)MPI_File_write, &unused_next},
    {"PMPI_File_write", (void *)PMPI_File_write, (void **)&real_write},
    {"MPI_File_read_at", (void *)MPI_File_read_at, &unused_next},
    {"PMPI_File_read_at", (void *)PMPI_File_read_at, (void **)&real_read_at},
    {"MPI_File_write_at", (void *)MPI_File_write_at, &unused_next},
    {"PMPI_File_write_at", (void *)PMPI_File_write_at, (void **)&real_write_at},
    {"MPI_File_read_shared", (void *)MPI_File_read_shared, &unused_next},
    {"PMPI_File_read_shared", (void *)PMPI_File_read_shared, (void **)&real_read_shared},
    {"MPI_File_write_shared", (void *)MPI_File_write_shared, &unused_next},
    {"PMPI_File_write_shared", (void *)PMPI_File_write_shared, (void **)&real_write_shared},
    {"MPI_File_read_all", (void *)MPI_File_read_all, &unused_next},
    {"PMPI_File_read_all", (void *)PMPI_File_read_all, (void **)&real_read_all},
    {"MPI_File_write_all", (void *)MPI_File_write_all, &unused_next},
    {"PMPI_File_write_all", (void *)PMPI_File_write_all, (void **)&real_write_all},
    {"MPI_File_read_at_all", (void *)MPI_File_read_at_all, &unused_next},
    {"PMPI_File_read_at_all", (void *)PMPI_File_read_at_all, (void **)&real_read_at_all},
    {"MPI_File_write_at_all", (void *)MPI_File_write_at_all, &unused_next},
    {"PMPI_File_write_at_all", (void *)PMPI_File_write_at_all, (void **)&real_write_at_all},
    {"MPI_File_read_ordered", (void *)MPI_File_read_ordered, &unused_next},
    {"PMPI_File_read_ordered", (void *)PMPI_File_read_ordered, (void **)&real_read_ordered},
    {"MPI_File_write_ordered", (void *)MPI_File_write_ordered, &unused_next},
    {"PMPI_File_write_ordered", (void *)PMPI_File_write_ordered, (void **)&real_write_ordered},
    {"MPI_File_read_all_begin", (void *)MPI_File_read_all_begin, &unused_next},
    {"PMPI_File_read_all_begin", (void *)PMPI_File_read_all_begin, (void **)&real_read_all_begin},
    {"MPI_File_write_all_begin", (void *)MPI_File_write_all_begin, &unused_next},
    {"PMPI_File_write_all_begin", (void *)PMPI_File_write_all_begin,
     (void **)&real_write_all_begin},
    {"MPI_File_read_at_all_begin", (void *)MPI_File_read_at_all_begin, &unused_next},
    {"PMPI_File_read_at_all_begin", (void *)PMPI_File_read_at_all_begin,
     (void **)&real_read_at_all_begin},
    {"MPI_File_write_at_all_begin", (void *)MPI_File_write_at_all_begin, &unused_next},
    {"PMPI_File_write_at_all_begin", (void *)PMPI_File_write_at_all_begin,
     (void **)&real_write_at_all_begin},
    {"MPI_File_read_ordered_begin", (void *)MPI_File_read_ordered_begin, &unused_next},
    {"PMPI_File_read_ordered_begin", (void *)PMPI_File_read_ordered_begin,
     (void **)&real_read_ordered_begin},
    {"MPI_File_write_ordered_begin", (void *)MPI_File_write_ordered_begin, &unused_next},
    {"PMPI_File_write_ordered_begin", (void *)PMPI_File_write_ordered_begin,
     (void **)&real_write_ordered_begin},
    {"MPI_File_iread", (void *)MPI_File_iread, &unused_next},
    {"PMPI_File_iread", (void *)PMPI_File_iread, (void **)&real_iread},
    {"MPI_File_iwrite", (void *)MPI_File_iwrite, &unused_next},
    {"PMPI_File_iwrite", (void *)PMPI_File_iwrite, (void **)&real_iwrite},
    {"MPI_File_iread_at", (void *)MPI_File_iread_at, &unused_next},
    {"PMPI_File_iread_at", (void *)PMPI_File_iread_at, (void **)&real_iread_at},
    {"MPI_File_iwrite_at", (void *)MPI_File_iwrite_at, &unused_next},
    {"PMPI_File_iwrite_at", (void *)PMPI_File_iwrite_at, (void **)&real_iwrite_at},
    {"MPI_File_iread_all", (void *)MPI_File_iread_all, &unused_next},
    {"PMPI_File_iread_all", (void *)PMPI_File_iread_all, (void **)&real_iread_all},
    {"MPI_File_iwrite_all", (void *)MPI_File_iwrite_all, &unused_next},
    {"PMPI_File_iwrite_all", (void *)PMPI_File_iwrite_all, (void **)&real_iwrite_all},
    {"MPI_File_iread_at_all", (void *)MPI_File_iread_at_all, &unused_next},
    {"PMPI_File_iread_at_all", (void *)PMPI_File_iread_at_all, (void **)&real_iread_at_all},
    {"MPI_File_iwrite_at_all", (void *)MPI_File_iwrite_at_all, &unused_next},
    {"PMPI_File_iwrite_at_all", (void *)PMPI_File_iwrite_at_all, (void **)&real_iwrite_at_all},
    {"MPI_File_iread_shared", (void *)MPI_File_iread_shared, &unused_next},
    {"PMPI_File_iread_shared", (void *)PMPI_File_iread_shared, (void **)&real_iread_shared},
    {"MPI_File_iwrite_shared", (void *)MPI_File_iwrite_shared, &unused_next},
    {"PMPI_File_iwrite_shared", (void *)PMPI_File_iwrite_shared, (void **)&real_iwrite_shared},
};

const struct iol_binding_table iol_mpiio_rw_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
