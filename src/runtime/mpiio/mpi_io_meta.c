/* MPI-IO module: MPI_File_open, MPI_File_close, MPI_File_sync and
 * MPI_File_set_view, each under its MPI_ and its PMPI_ name (Open MPI's
 * Fortran bindings call the PMPI_ names), forwarding to the next definition
 * of the PMPI_ name. set_size, preallocate, set_info, seek and the others
 * are not wrapped: Darshan 3.5 counts nothing for them. */
#include "mpi_io_mod.h"

typedef int (*open_fn)(MPI_Comm, const char *, int, MPI_Info, MPI_File *);
typedef int (*close_fn)(MPI_File *);
typedef int (*sync_fn)(MPI_File);
typedef int (*view_fn)(MPI_File, MPI_Offset, MPI_Datatype, MPI_Datatype, const char *,
                       MPI_Info);

static open_fn real_open;
static close_fn real_close;
static sync_fn real_sync;
static view_fn real_view;
/* The MPI_ names forward to the PMPI_ ones: their own next definitions are
 * looked up (the binding table lists every exported name) but never used. */
static void *unused_next;

IOL_EXPORT int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                             MPI_File *fh)
{
    open_fn real = (open_fn)iol_mpiio_next((void **)&real_open, "PMPI_File_open");
    if (!real)
        return MPI_ERR_OTHER;
    if (!iol_active())
        return real(comm, filename, amode, info, fh);
    double t0 = iol_now();
    int ret = real(comm, filename, amode, info, fh);
    double t1 = iol_now();
    iol_mpiio_note_open(ret, comm, filename, amode, info, fh, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                              MPI_File *fh) __attribute__((alias("MPI_File_open")));

IOL_EXPORT int MPI_File_close(MPI_File *fh)
{
    close_fn real = (close_fn)iol_mpiio_next((void **)&real_close, "PMPI_File_close");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = fh && iol_active() ? iol_mpiio_fh_slot(*fh) : NULL;
    if (!s)
        return real(fh);
    iol_mpiio_fh_forget(*fh);
    double t0 = iol_now();
    int ret = real(fh);
    double t1 = iol_now();
    iol_mpiio_note_close(s, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_close(MPI_File *fh) __attribute__((alias("MPI_File_close")));

IOL_EXPORT int MPI_File_sync(MPI_File fh)
{
    sync_fn real = (sync_fn)iol_mpiio_next((void **)&real_sync, "PMPI_File_sync");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = iol_active() ? iol_mpiio_fh_slot(fh) : NULL;
    if (!s)
        return real(fh);
    double t0 = iol_now();
    int ret = real(fh);
    double t1 = iol_now();
    iol_mpiio_note_sync(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_sync(MPI_File fh) __attribute__((alias("MPI_File_sync")));

IOL_EXPORT int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                                 MPI_Datatype filetype, const char *datarep, MPI_Info info)
{
    view_fn real = (view_fn)iol_mpiio_next((void **)&real_view, "PMPI_File_set_view");
    if (!real)
        return MPI_ERR_OTHER;
    struct iol_slot *s = iol_active() ? iol_mpiio_fh_slot(fh) : NULL;
    if (!s)
        return real(fh, disp, etype, filetype, datarep, info);
    double t0 = iol_now();
    int ret = real(fh, disp, etype, filetype, datarep, info);
    double t1 = iol_now();
    iol_mpiio_note_view(s, ret, info, t0, t1);
    return ret;
}

IOL_EXPORT int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                                  MPI_Datatype filetype, const char *datarep, MPI_Info info)
    __attribute__((alias("MPI_File_set_view")));

static const struct iol_binding bindings[] = {
    {"MPI_File_open", (void *)MPI_File_open, &unused_next},
    {"PMPI_File_open", (void *)PMPI_File_open, (void **)&real_open},
    {"MPI_File_close", (void *)MPI_File_close, &unused_next},
    {"PMPI_File_close", (void *)PMPI_File_close, (void **)&real_close},
    {"MPI_File_sync", (void *)MPI_File_sync, &unused_next},
    {"PMPI_File_sync", (void *)PMPI_File_sync, (void **)&real_sync},
    {"MPI_File_set_view", (void *)MPI_File_set_view, &unused_next},
    {"PMPI_File_set_view", (void *)PMPI_File_set_view, (void **)&real_view},
};

const struct iol_binding_table iol_mpiio_meta_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
