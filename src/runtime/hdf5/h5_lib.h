/* The HDF5 library as the H5F and H5D modules reach it. libiolens.so links
 * no HDF5 library: one build serves programs linked with the serial or the
 * parallel libhdf5 (libhdf5_serial.so.103, libhdf5_openmpi.so.103), and a
 * program without HDF5 maps none. hdf5.h is included for its types and
 * constants only; every HDF5 function, wrapped or not, is reached through a
 * pointer looked up at its first use (iol_h5_next). Constants that are plain
 * values (H5P_DEFAULT, H5S_ALL, enum members) come from the header; those
 * that call into the library (H5FD_MPIO is H5FD_mpio_init()) are looked up
 * like functions. */
#ifndef IOL_RT_H5_LIB_H
#define IOL_RT_H5_LIB_H

#include <hdf5.h>

#include <stdatomic.h>

#include "core/core.h"

/* The slow path of iol_h5_next: the first use. */
void *iol_h5_next_slow(void **cached, const char *name);

/* The HDF5 library's definition of name, looked up at the first call
 * (dlsym(RTLD_NEXT); for a libhdf5 that a program loaded with RTLD_LOCAL,
 * in the loaded libhdf5 itself). @return it, or NULL. */
static inline void *iol_h5_next(void **cached, const char *name)
{
    void *p = __atomic_load_n(cached, __ATOMIC_ACQUIRE);
    return p ? p : iol_h5_next_slow(cached, name);
}

/* What is known of the HDF5 library: IOL_H5_UNKNOWN until the first
 * recorded call looks it up (IOL_H5_LOOKING meanwhile), then IOL_H5_USABLE
 * (iol_h5 below is filled) or IOL_H5_TOO_OLD. */
enum { IOL_H5_UNKNOWN, IOL_H5_LOOKING, IOL_H5_USABLE, IOL_H5_TOO_OLD };
extern _Atomic int iol_h5_lib_state;

/* The slow path of iol_h5_recording: look the library up once.
 * @return 1 if it is usable, else 0. */
int iol_h5_recording_slow(void);

/* Is an HDF5 call to be recorded? The runtime records, and the HDF5 library
 * is 1.10 or later (hid_t is 64 bits there; a 1.8 library's calls are
 * forwarded and not counted). */
static inline int iol_h5_recording(void)
{
    if (!iol_active())
        return 0;
    return atomic_load_explicit(&iol_h5_lib_state, memory_order_acquire) == IOL_H5_USABLE ||
           iol_h5_recording_slow();
}

/* The HDF5 functions the modules call without wrapping them, each looked up
 * at its first use; NULL when the library lacks it (the MPI-IO driver's
 * functions in a serial libhdf5): the counter it feeds is then left as a
 * serial build of Darshan leaves it. */
struct iol_h5_lib {
    ssize_t (*Fget_name)(hid_t, char *, size_t);
    ssize_t (*Iget_name)(hid_t, char *, size_t);
    hid_t (*Iget_file_id)(hid_t);
    H5I_type_t (*Iget_type)(hid_t);
    hid_t (*Dget_type)(hid_t);
    hid_t (*Dget_space)(hid_t);
    hid_t (*Dget_create_plist)(hid_t);
    herr_t (*Tclose)(hid_t);
    herr_t (*Sclose)(hid_t);
    herr_t (*Pclose)(hid_t);
    size_t (*Tget_size)(hid_t);
    int (*Sget_simple_extent_ndims)(hid_t);
    hssize_t (*Sget_simple_extent_npoints)(hid_t);
    hssize_t (*Sget_select_npoints)(hid_t);
    H5S_sel_type (*Sget_select_type)(hid_t);
    htri_t (*Sis_regular_hyperslab)(hid_t);
    herr_t (*Sget_regular_hyperslab)(hid_t, hsize_t *, hsize_t *, hsize_t *, hsize_t *);
    H5D_layout_t (*Pget_layout)(hid_t);
    int (*Pget_chunk)(hid_t, int, hsize_t *);
    hid_t (*Pget_driver)(hid_t);
    hid_t (*FD_mpio_init)(void);    /* the value of H5FD_MPIO */
    herr_t (*Pget_dxpl_mpio)(hid_t, int *); /* the mode is an H5FD_mpio_xfer_t */
};

/* The functions above, filled once by iol_h5_recording_slow, before any
 * file or dataset is tracked; read only once iol_h5_recording said yes. */
extern struct iol_h5_lib iol_h5;

/* Is the file access property list fapl (not H5P_DEFAULT) set to the MPI-IO
 * driver? Darshan's H5F_USE_MPIIO; always 0 with a serial libhdf5. */
int iol_h5_fapl_is_mpio(hid_t fapl);

/* Does the transfer property list dxpl (not H5P_DEFAULT) ask for collective
 * MPI-IO? Darshan's H5D_USE_MPIIO_COLLECTIVE; always 0 with a serial libhdf5. */
int iol_h5_dxpl_is_collective(hid_t dxpl);

#endif
