/* The MPI-IO module's own files (mpi_io.c, mpi_io_meta.c, mpi_io_rw.c):
 * mpi.h's types, the handle table and the counter updates. What the rest of
 * the runtime sees is in mpi_io.h. Every MPI function is reached through a
 * dlsym'd PMPI_ pointer: libiolens.so links no MPI library. */
#ifndef IOL_RT_MPI_IO_MOD_H
#define IOL_RT_MPI_IO_MOD_H

#include <mpi.h>

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "dxt/dxt.h"
#include "iolens/modules/mpiio.h"
#include "mpi_io.h"

/* The binding tables of mpi_io_meta.c and mpi_io_rw.c: each function under
 * its MPI_ and its PMPI_ name (Open MPI's Fortran bindings call PMPI_). */
extern const struct iol_binding_table iol_mpiio_meta_bindings;
extern const struct iol_binding_table iol_mpiio_rw_bindings;

/* The slow path of iol_mpiio_next: the first use. */
void *iol_mpiio_next_slow(void **cached, const char *name);

/* The next definition of a PMPI_ name, looked up on first use if MPI was not
 * loaded when the runtime started (a program that dlopen()s it).
 * @return it, or NULL (the wrapper then fails with MPI_ERR_OTHER). */
static inline void *iol_mpiio_next(void **cached, const char *name)
{
    void *p = __atomic_load_n(cached, __ATOMIC_ACQUIRE);
    return p ? p : iol_mpiio_next_slow(cached, name);
}

/* ---- open handles: MPI_File -> record, without a lock or allocation ---- */

#define IOL_MPIIO_FH_BITS 12
#define IOL_MPIIO_FH_TABLE (1u << IOL_MPIIO_FH_BITS) /* entries */
#define IOL_MPIIO_FH_PROBE 32 /* entries looked at from a handle's home */

/* One open handle. key: 0 free, IOL_MPIIO_FH_BUSY while one thread fills
 * it, else the handle's bits, set (release) after slot. */
struct iol_mpiio_fh {
    _Atomic uint64_t key;
    _Atomic(struct iol_slot *) slot;
};

#define IOL_MPIIO_FH_BUSY UINT64_MAX

extern struct iol_mpiio_fh iol_mpiio_fhtab[IOL_MPIIO_FH_TABLE];

_Static_assert(sizeof(MPI_File) <= sizeof(uint64_t), "MPI_File must fit a table key");

/* The table key of a handle: its bits (a pointer in Open MPI and MPICH). */
static inline uint64_t iol_mpiio_fh_key(MPI_File fh)
{
    uint64_t key = 0;
    memcpy(&key, &fh, sizeof(fh));
    return key;
}

/* Where a key's search starts. */
static inline uint32_t iol_mpiio_fh_home(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - IOL_MPIIO_FH_BITS));
}

/* The record of an open handle. @return it, or NULL if fh is not tracked. */
static inline struct iol_slot *iol_mpiio_fh_slot(MPI_File fh)
{
    uint64_t key = iol_mpiio_fh_key(fh);
    if (key == 0 || key == IOL_MPIIO_FH_BUSY)
        return NULL;
    uint32_t h = iol_mpiio_fh_home(key);
    for (uint32_t i = 0; i < IOL_MPIIO_FH_PROBE; i++) {
        struct iol_mpiio_fh *e = &iol_mpiio_fhtab[(h + i) & (IOL_MPIIO_FH_TABLE - 1)];
        if (atomic_load_explicit(&e->key, memory_order_acquire) == key)
            return atomic_load_explicit(&e->slot, memory_order_relaxed);
    }
    return NULL;
}

/* ---- updates (mpi_io.c); t0/t1 are iol_now() around the real call ---- */

/* MPI_File_open(comm, path, amode, info, fh) returned ret: on success,
 * count the open in path's record and track the handle *fh. */
void iol_mpiio_note_open(int ret, MPI_Comm comm, const char *path, int amode, MPI_Info info,
                         const MPI_File *fh, double t0, double t1);

/* Forget the handle fh, before the real close: once freed, its value may be
 * handed to another thread's MPI_File_open, which a later forget would undo. */
void iol_mpiio_fh_forget(MPI_File fh);

/* A handle of record s was closed (forgotten before): its close is counted. */
void iol_mpiio_note_close(struct iol_slot *s, double t0, double t1);

/* MPI_File_sync on the record s returned ret. */
void iol_mpiio_note_sync(struct iol_slot *s, int ret, double t0, double t1);

/* MPI_File_set_view with info on the record s returned ret. */
void iol_mpiio_note_view(struct iol_slot *s, int ret, MPI_Info info, double t0, double t1);

/* A read (write) call on the record s returned ret: count items of type
 * are one access of the kind counted in counter (MPIIO_INDEP_READS,
 * MPIIO_COLL_READS, MPIIO_SPLIT_READS or MPIIO_NB_READS; the _WRITES ones),
 * at byte offset at (DXT_MPIIO's segment; ignored while it is off). */
void iol_mpiio_note_read(struct iol_slot *s, enum iolens_mpiio_counter counter, int ret,
                         int count, MPI_Datatype type, int64_t at, double t0, double t1);
void iol_mpiio_note_write(struct iol_slot *s, enum iolens_mpiio_counter counter, int ret,
                          int count, MPI_Datatype type, int64_t at, double t0, double t1);

/* For DXT_MPIIO and events, called only while iol_mpiio_rw_extra is set, before the real
 * call: the byte offset in the file of the view-relative offset of an
 * explicit-offset call (_dxt_offset), of the individual file pointer
 * (_dxt_position), of the shared file pointer (_dxt_shared). -1 if MPI
 * cannot tell. */
int64_t iol_mpiio_dxt_offset(MPI_File fh, MPI_Offset offset);
int64_t iol_mpiio_dxt_position(MPI_File fh);
int64_t iol_mpiio_dxt_shared(MPI_File fh);

#endif
