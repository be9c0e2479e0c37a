/* PnetCDF: the wrappers of the file and variable calls Darshan 3.5 wraps
 * besides reads and writes: ncmpi_create, ncmpi_open, ncmpi_close,
 * ncmpi_enddef, ncmpi_redef, ncmpi_sync, ncmpi_wait, ncmpi_wait_all
 * (PNETCDF_FILE), ncmpi_def_var and ncmpi_inq_varid (PNETCDF_VAR). Each
 * forwards to the next definition (looked up at first use; none:
 * NC_ENOTBUILT). ncmpi_begin_indep_data, ncmpi_end_indep_data and the
 * define-mode calls other than these are not wrapped (Darshan counts none). */
#include "pnc_mod.h"

typedef int (*create_fn)(MPI_Comm, const char *, int, MPI_Info, int *);
typedef int (*ncid_fn)(int);
typedef int (*wait_fn)(int, int, int *, int *);
typedef int (*def_var_fn)(int, const char *, nc_type, int, const int *, int *);
typedef int (*inq_varid_fn)(int, const char *, int *);

static void *real_create, *real_open, *real_close, *real_enddef, *real_redef, *real_sync;
static void *real_wait, *real_wait_all, *real_def_var, *real_inq_varid;

/* The body of ncmpi_create (create 1) and ncmpi_open: the real call
 * (*real_ptr, looked up as name), timed; a file opened counts in its record. */
static int open_call(void **real_ptr, const char *name, int create, MPI_Comm comm,
                     const char *path, int mode, MPI_Info info, int *ncidp)
{
    create_fn real = (create_fn)iol_pnc_next(real_ptr, name);
    if (!real)
        return NC_ENOTBUILT;
    if (!iol_active())
        return real(comm, path, mode, info, ncidp);
    double t0 = iol_now();
    int ret = real(comm, path, mode, info, ncidp);
    double t1 = iol_now();
    if (ret == NC_NOERR && ncidp)
        iol_pnc_note_file_open(create, path, *ncidp, t0, t1);
    return ret;
}

IOL_EXPORT int ncmpi_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info,
                            int *ncidp)
{
    return open_call(&real_create, "ncmpi_create", 1, comm, path, cmode, info, ncidp);
}

IOL_EXPORT int ncmpi_open(MPI_Comm comm, const char *path, int omode, MPI_Info info, int *ncidp)
{
    return open_call(&real_open, "ncmpi_open", 0, comm, path, omode, info, ncidp);
}

IOL_EXPORT int ncmpi_close(int ncid)
{
    ncid_fn real = (ncid_fn)iol_pnc_next(&real_close, "ncmpi_close");
    if (!real)
        return NC_ENOTBUILT;
    struct iol_slot *s = iol_pnc_file_slot(ncid);
    if (!s)
        return real(ncid);
    int64_t put, got;
    iol_pnc_file_sizes(ncid, &put, &got); /* gone with the handle */
    double t0 = iol_now();
    int ret = real(ncid);
    double t1 = iol_now();
    if (ret == NC_NOERR)
        iol_pnc_note_close(s, ncid, put, got, t0, t1);
    return ret;
}

/* The body of ncmpi_enddef, ncmpi_redef and ncmpi_sync: the real call
 * (*real_ptr, looked up as name), timed as the file's metadata, counting
 * counter (-1: none) when it succeeds. */
static int file_meta_call(void **real_ptr, const char *name, int ncid, int counter)
{
    ncid_fn real = (ncid_fn)iol_pnc_next(real_ptr, name);
    if (!real)
        return NC_ENOTBUILT;
    struct iol_slot *s = iol_pnc_file_slot(ncid);
    if (!s)
        return real(ncid);
    double t0 = iol_now();
    int ret = real(ncid);
    double t1 = iol_now();
    if (ret == NC_NOERR)
        iol_pnc_note_file_meta(s, counter, t0, t1);
    return ret;
}

IOL_EXPORT int ncmpi_enddef(int ncid)
{
    return file_meta_call(&real_enddef, "ncmpi_enddef", ncid, -1);
}

IOL_EXPORT int ncmpi_redef(int ncid)
{
    return file_meta_call(&real_redef, "ncmpi_redef", ncid, PNETCDF_FILE_REDEFS);
}

IOL_EXPORT int ncmpi_sync(int ncid)
{
    return file_meta_call(&real_sync, "ncmpi_sync", ncid, PNETCDF_FILE_SYNCS);
}

/* Waits are counted whatever they return (a failed one as such). */
IOL_EXPORT int ncmpi_wait(int ncid, int num, int *array_of_requests, int *array_of_statuses)
{
    wait_fn real = (wait_fn)iol_pnc_next(&real_wait, "ncmpi_wait");
    if (!real)
        return NC_ENOTBUILT;
    struct iol_slot *s = iol_pnc_file_slot(ncid);
    if (!s)
        return real(ncid, num, array_of_requests, array_of_statuses);
    double t0 = iol_now();
    int ret = real(ncid, num, array_of_requests, array_of_statuses);
    double t1 = iol_now();
    iol_pnc_note_wait(s, PNETCDF_FILE_INDEP_WAITS, ret, t0, t1);
    return ret;
}

IOL_EXPORT int ncmpi_wait_all(int ncid, int num, int *array_of_requests,
                              int *array_of_statuses)
{
    wait_fn real = (wait_fn)iol_pnc_next(&real_wait_all, "ncmpi_wait_all");
    if (!real)
        return NC_ENOTBUILT;
    struct iol_slot *s = iol_pnc_file_slot(ncid);
    if (!s)
        return real(ncid, num, array_of_requests, array_of_statuses);
    double t0 = iol_now();
    int ret = real(ncid, num, array_of_requests, array_of_statuses);
    double t1 = iol_now();
    iol_pnc_note_wait(s, PNETCDF_FILE_COLL_WAITS, ret, t0, t1);
    return ret;
}

/* A variable is recorded in any file PnetCDF knows, tracked or not (its
 * record is named after the path PnetCDF gives). */
IOL_EXPORT int ncmpi_def_var(int ncid, const char *name, nc_type xtype, int ndims,
                             const int *dimidsp, int *varidp)
{
    def_var_fn real = (def_var_fn)iol_pnc_next(&real_def_var, "ncmpi_def_var");
    if (!real)
        return NC_ENOTBUILT;
    if (!iol_active())
        return real(ncid, name, xtype, ndims, dimidsp, varidp);
    double t0 = iol_now();
    int ret = real(ncid, name, xtype, ndims, dimidsp, varidp);
    double t1 = iol_now();
    if (ret == NC_NOERR && varidp)
        iol_pnc_note_var_open(ncid, name, xtype, ndims, dimidsp, *varidp, t0, t1);
    return ret;
}

IOL_EXPORT int ncmpi_inq_varid(int ncid, const char *name, int *varidp)
{
    inq_varid_fn real = (inq_varid_fn)iol_pnc_next(&real_inq_varid, "ncmpi_inq_varid");
    if (!real)
        return NC_ENOTBUILT;
    if (!iol_active())
        return real(ncid, name, varidp);
    double t0 = iol_now();
    int ret = real(ncid, name, varidp);
    double t1 = iol_now();
    if (ret == NC_NOERR && varidp)
        iol_pnc_note_var_lookup(ncid, name, *varidp, t0, t1);
    return ret;
}

static const struct iol_binding bindings[] = {
    {"ncmpi_create", (void *)ncmpi_create, &real_create},
    {"ncmpi_open", (void *)ncmpi_open, &real_open},
    {"ncmpi_close", (void *)ncmpi_close, &real_close},
    {"ncmpi_enddef", (void *)ncmpi_enddef, &real_enddef},
    {"ncmpi_redef", (void *)ncmpi_redef, &real_redef},
    {"ncmpi_sync", (void *)ncmpi_sync, &real_sync},
    {"ncmpi_wait", (void *)ncmpi_wait, &real_wait},
    {"ncmpi_wait_all", (void *)ncmpi_wait_all, &real_wait_all},
    {"ncmpi_def_var", (void *)ncmpi_def_var, &real_def_var},
    {"ncmpi_inq_varid", (void *)ncmpi_inq_varid, &real_inq_varid},
};

const struct iol_binding_table iol_pnc_meta_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
