/* Finding the HDF5 library's functions at run time (see h5_lib.h). */
#include "h5_lib.h"

#include "core/diag.h"

#include <dlfcn.h>
#include <link.h>
#include <sched.h>
#include <string.h>

_Atomic int iol_h5_lib_state;
struct iol_h5_lib iol_h5;

/* Paths of the loaded objects whose file name holds "libhdf5" (the C
 * library, not its _hl, _cpp or Fortran companions, whose dependency it is
 * anyway), collected while the loader's list is held and opened after. */
#define H5_LIBS_MAX 4
struct h5_libs {
    char path[H5_LIBS_MAX][IOL_PATH_MAX];
    int n;
};

static int collect_hdf5(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct h5_libs *libs = arg;
    const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    (void)size;
    if (!base || strncmp(base + 1, "libhdf5", 7) != 0 || libs->n == H5_LIBS_MAX ||
        strlen(info->dlpi_name) >= IOL_PATH_MAX)
        return 0;
    memcpy(libs->path[libs->n++], info->dlpi_name, strlen(info->dlpi_name) + 1);
    return 0;
}

/* name in a libhdf5 that is loaded but not in the global scope (a Python
 * extension's, loaded with RTLD_LOCAL): its calls still reach the wrappers,
 * which must forward them there. @return the definition, or NULL. */
static void *local_definition(const char *name)
{
    static struct h5_libs libs; /* first use only; too large for the stack */
    void *p = NULL;
    libs.n = 0;
    dl_iterate_phdr(collect_hdf5, &libs);
    for (int i = 0; i < libs.n && !p; i++) {
        void *h = dlopen(libs.path[i], RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            p = dlsym(h, name);
            dlclose(h);
        }
    }
    return p;
}

void *iol_h5_next_slow(void **cached, const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        p = local_definition(name);
    if (p)
        __atomic_store_n(cached, p, __ATOMIC_RELEASE);
    return p;
}

/* One helper's definition, or NULL. */
static void *helper(const char *name)
{
    void *p = NULL;
    return iol_h5_next_slow(&p, name);
}

/* Every helper of struct iol_h5_lib. */
static void fill_helpers(struct iol_h5_lib *h)
{
    h->Fget_name = (ssize_t(*)(hid_t, char *, size_t))helper("H5Fget_name");
    h->Iget_name = (ssize_t(*)(hid_t, char *, size_t))helper("H5Iget_name");
    h->Iget_file_id = (hid_t(*)(hid_t))helper("H5Iget_file_id");
    h->Iget_type = (H5I_type_t(*)(hid_t))helper("H5Iget_type");
    h->Dget_type = (hid_t(*)(hid_t))helper("H5Dget_type");
    h->Dget_space = (hid_t(*)(hid_t))helper("H5Dget_space");
    h->Dget_create_plist = (hid_t(*)(hid_t))helper("H5Dget_create_plist");
    h->Tclose = (herr_t(*)(hid_t))helper("H5Tclose");
    h->Sclose = (herr_t(*)(hid_t))helper("H5Sclose");
    h->Pclose = (herr_t(*)(hid_t))helper("H5Pclose");
    h->Tget_size = (size_t(*)(hid_t))helper("H5Tget_size");
    h->Sget_simple_extent_ndims = (int (*)(hid_t))helper("H5Sget_simple_extent_ndims");
    h->Sget_simple_extent_npoints = (hssize_t(*)(hid_t))helper("H5Sget_simple_extent_npoints");
    h->Sget_select_npoints = (hssize_t(*)(hid_t))helper("H5Sget_select_npoints");
    h->Sget_select_type = (H5S_sel_type(*)(hid_t))helper("H5Sget_select_type");
    h->Sis_regular_hyperslab = (htri_t(*)(hid_t))helper("H5Sis_regular_hyperslab");
    h->Sget_regular_hyperslab = (herr_t(*)(hid_t, hsize_t *, hsize_t *, hsize_t *,
                                           hsize_t *))helper("H5Sget_regular_hyperslab");
    h->Pget_layout = (H5D_layout_t(*)(hid_t))helper("H5Pget_layout");
    h->Pget_chunk = (int (*)(hid_t, int, hsize_t *))helper("H5Pget_chunk");
    h->Pget_driver = (hid_t(*)(hid_t))helper("H5Pget_driver");
    /* Only in a parallel libhdf5. */
    h->FD_mpio_init = (hid_t(*)(void))helper("H5FD_mpio_init");
    h->Pget_dxpl_mpio = (herr_t(*)(hid_t, int *))helper("H5Pget_dxpl_mpio");
}

/* Is the library 1.10 or later? Unknown (no H5get_libversion): no. */
static int version_usable(void)
{
    herr_t (*libversion)(unsigned *, unsigned *, unsigned *) =
        (herr_t(*)(unsigned *, unsigned *, unsigned *))helper("H5get_libversion");
    unsigned major = 0, minor = 0, release = 0;
    if (!libversion || libversion(&major, &minor, &release) < 0)
        return 0;
    if (major > 1 || (major == 1 && minor >= 10))
        return 1;
    iol_diag("HDF5 %u.%u is older than 1.10: its calls are not recorded", major, minor);
    return 0;
}

int iol_h5_recording_slow(void)
{
    int st = IOL_H5_UNKNOWN;
    if (atomic_compare_exchange_strong_explicit(&iol_h5_lib_state, &st, IOL_H5_LOOKING,
                                                memory_order_acquire,
                                                memory_order_acquire)) {
        int usable = version_usable();
        if (usable)
            fill_helpers(&iol_h5);
        st = usable ? IOL_H5_USABLE : IOL_H5_TOO_OLD;
        atomic_store_explicit(&iol_h5_lib_state, st, memory_order_release);
    }
    /* Another thread is looking: a few microseconds, once per process. */
    while (st == IOL_H5_LOOKING) {
        sched_yield();
        st = atomic_load_explicit(&iol_h5_lib_state, memory_order_acquire);
    }
    return st == IOL_H5_USABLE;
}

int iol_h5_fapl_is_mpio(hid_t fapl)
{
    if (!iol_h5.Pget_driver || !iol_h5.FD_mpio_init)
        return 0;
    hid_t mpio = iol_h5.FD_mpio_init();
    return mpio >= 0 && iol_h5.Pget_driver(fapl) == mpio;
}

int iol_h5_dxpl_is_collective(hid_t dxpl)
{
#ifdef H5_HAVE_PARALLEL
    int mode = H5FD_MPIO_INDEPENDENT;
    return iol_h5.Pget_dxpl_mpio && iol_h5.Pget_dxpl_mpio(dxpl, &mode) >= 0 &&
           mode == H5FD_MPIO_COLLECTIVE;
#else
    (void)dxpl; /* built with a serial hdf5.h: the transfer modes are unknown */
    return 0;
#endif
}
