/* The PnetCDF modules' own files: mpi.h's and pnetcdf.h's types, the tables
 * of open files (ncid) and known variables (varid), and the counter updates.
 * What the rest of the runtime sees is in pnetcdf.h. libiolens.so links no
 * PnetCDF or MPI library: every PnetCDF function, wrapped or not, is reached
 * through a pointer looked up with dlsym(RTLD_NEXT) at its first use. */
#ifndef IOL_RT_PNC_MOD_H
#define IOL_RT_PNC_MOD_H

#include <mpi.h>
#include <pnetcdf.h>

#include <stdatomic.h>
#include <stdint.h>

#include "core/core.h"
#include "iolens/modules/pnetcdf_file.h"
#include "iolens/modules/pnetcdf_var.h"
#include "pnetcdf.h"

/* The binding tables: the 10 file and variable calls (pnc_meta.c) and the
 * 550 reads and writes generated from pnc_calls.h (pnc_rw.c). */
extern const struct iol_binding_table iol_pnc_meta_bindings;
extern const struct iol_binding_table iol_pnc_rw_bindings;

/* The slow path of iol_pnc_next: the first use. */
void *iol_pnc_next_slow(void **cached, const char *name);

/* The next definition of a PnetCDF (or MPI) function, looked up on first
 * use: a program that never calls PnetCDF looks up nothing.
 * @return it, or NULL (a wrapper then fails with NC_ENOTBUILT). */
static inline void *iol_pnc_next(void **cached, const char *name)
{
    void *p = __atomic_load_n(cached, __ATOMIC_ACQUIRE);
    return p ? p : iol_pnc_next_slow(cached, name);
}

/* ---- open files and known variables: small ids -> records ---- */

/* ncids PnetCDF hands out (its NC_MAX_NFILES), and variable ids tracked:
 * a variable id past the table is not counted. */
#define IOL_PNC_NCIDS 1024
#define IOL_PNC_VARIDS 8192

extern _Atomic(struct iol_slot *) iol_pnc_ncid_tab[IOL_PNC_NCIDS];
extern _Atomic(struct iol_slot *) iol_pnc_varid_tab[IOL_PNC_VARIDS];

/* The PNETCDF_FILE record of the open file ncid, if recording.
 * @return it, or NULL. */
static inline struct iol_slot *iol_pnc_file_slot(int ncid)
{
    if (!iol_active() || ncid < 0 || ncid >= IOL_PNC_NCIDS)
        return NULL;
    return atomic_load_explicit(&iol_pnc_ncid_tab[ncid], memory_order_acquire);
}

/* The PNETCDF_VAR record of variable id varid, if recording. As in Darshan,
 * the id alone names it, whatever the file: the variable last defined or
 * looked up with that id, in any file, open or closed.
 * @return it, or NULL. */
static inline struct iol_slot *iol_pnc_var_slot(int varid)
{
    if (!iol_active() || varid < 0 || varid >= IOL_PNC_VARIDS)
        return NULL;
    return atomic_load_explicit(&iol_pnc_varid_tab[varid], memory_order_acquire);
}

/* ---- PNETCDF_FILE updates (pnc_file.c); t0/t1 are iol_now() around the call ---- */

/* ncmpi_create (created) or ncmpi_open of path returned ncid: count it in
 * path's record and track ncid. */
void iol_pnc_note_file_open(int created, const char *path, int ncid, double t0, double t1);

/* What ncmpi_close needs before the real call: the bytes PnetCDF says the
 * file's handle put and got (-1 when it cannot tell). */
void iol_pnc_file_sizes(int ncid, int64_t *put, int64_t *got);

/* ncmpi_close(ncid) of the record s succeeded: count it, forget ncid. */
void iol_pnc_note_close(struct iol_slot *s, int ncid, int64_t put, int64_t got, double t0,
                        double t1);

/* A successful ncmpi_enddef (counter -1), ncmpi_redef (PNETCDF_FILE_REDEFS)
 * or ncmpi_sync (PNETCDF_FILE_SYNCS) on the record s. */
void iol_pnc_note_file_meta(struct iol_slot *s, int counter, double t0, double t1);

/* ncmpi_wait (counter PNETCDF_FILE_INDEP_WAITS) or ncmpi_wait_all
 * (PNETCDF_FILE_COLL_WAITS) on the record s returned ret. */
void iol_pnc_note_wait(struct iol_slot *s, int counter, int ret, double t0, double t1);

/* ---- PNETCDF_VAR updates (pnc_var.c) ---- */

/* ncmpi_def_var (or ncmpi_inq_varid, which gives what def_var takes) made
 * variable varid called name, of type xtype over ndims dimensions dimids, in
 * the file ncid: count an open in the record "FILE:name", track varid. */
void iol_pnc_note_var_open(int ncid, const char *name, nc_type xtype, int ndims,
                           const int *dimids, int varid, double t0, double t1);

/* ncmpi_inq_varid(ncid, name) gave varid: look up what def_var would have
 * been given and note the open. */
void iol_pnc_note_var_lookup(int ncid, const char *name, int varid, double t0, double t1);

/* The selection kinds, as Darshan sizes them (varm as vars). */
enum iol_pnc_kind { IOL_PNC_VAR, IOL_PNC_VAR1, IOL_PNC_VARA, IOL_PNC_VARS, IOL_PNC_VARN,
                    IOL_PNC_VARD };

/* What a read or write call selected, as far as its size needs. */
struct iol_pnc_sel {
    enum iol_pnc_kind kind;
    const MPI_Offset *count, *stride; /* VARA, VARS */
    int num;                          /* VARN: num subarrays of counts */
    MPI_Offset *const *counts;
    MPI_Datatype filetype;            /* VARD */
};

/* A successful read (is_read) or write of variable s selecting sel in ncid:
 * counter is the call's own counter (PNETCDF_VAR_PUT_VARA, ...), mode its
 * kind (PNETCDF_VAR_INDEP_READS, _COLL_, _NB_, or the _WRITES ones). */
void iol_pnc_note_access(struct iol_slot *s, int ncid, const struct iol_pnc_sel *sel,
                         int counter, int mode, int is_read, double t0, double t1);

#endif
