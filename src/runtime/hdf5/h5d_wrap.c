/* H5D module: the wrappers. Exactly the calls Darshan 3.5 wraps for HDF5
 * 1.10: H5Dcreate1/2, H5Dopen1/2, H5Dread, H5Dwrite, H5Dflush, H5Dclose, and
 * the generic H5Oopen, H5Oopen_by_addr, H5Oopen_by_idx and H5Oclose, through
 * which datasets can be opened and closed too (H5Oopen_by_token is HDF5
 * 1.12's). Each wrapper: the HDF5 library's definition (looked up at first
 * use; none: the call fails), the real call timed, then a note of h5d.c. */
#include "h5d_mod.h"

typedef hid_t (*create1_fn)(hid_t, const char *, hid_t, hid_t, hid_t);
typedef hid_t (*create2_fn)(hid_t, const char *, hid_t, hid_t, hid_t, hid_t, hid_t);
typedef hid_t (*open1_fn)(hid_t, const char *);
typedef hid_t (*open2_fn)(hid_t, const char *, hid_t);
typedef herr_t (*read_fn)(hid_t, hid_t, hid_t, hid_t, hid_t, void *);
typedef herr_t (*write_fn)(hid_t, hid_t, hid_t, hid_t, hid_t, const void *);
typedef herr_t (*id_fn)(hid_t);
typedef hid_t (*oopen_fn)(hid_t, const char *, hid_t);
typedef hid_t (*oopen_addr_fn)(hid_t, haddr_t);
typedef hid_t (*oopen_idx_fn)(hid_t, const char *, H5_index_t, H5_iter_order_t, hsize_t, hid_t);

static create1_fn real_create1;
static create2_fn real_create2;
static open1_fn real_open1;
static open2_fn real_open2;
static read_fn real_read;
static write_fn real_write;
static id_fn real_flush;
static id_fn real_close;
static oopen_fn real_oopen;
static oopen_addr_fn real_oopen_addr;
static oopen_idx_fn real_oopen_idx;
static id_fn real_oclose;

/* Darshan's buffer for the path of an object opened by address or index. */
#define OBJECT_NAME_CAP 256

/* The tracked dataset id, if the runtime records. */
static inline struct iol_slot *dataset_slot(hid_t id)
{
    return iol_h5_recording() ? iol_h5d_slot(id) : NULL;
}

IOL_EXPORT hid_t H5Dcreate1(hid_t loc_id, const char *name, hid_t type_id, hid_t space_id,
                            hid_t dcpl_id)
{
    create1_fn real = (create1_fn)iol_h5_next((void **)&real_create1, "H5Dcreate1");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(loc_id, name, type_id, space_id, dcpl_id);
    double t0 = iol_now();
    hid_t ret = real(loc_id, name, type_id, space_id, dcpl_id);
    double t1 = iol_now();
    iol_h5d_note_open(ret, loc_id, name, type_id, space_id, dcpl_id, 1, t0, t1);
    return ret;
}

IOL_EXPORT hid_t H5Dcreate2(hid_t loc_id, const char *name, hid_t type_id, hid_t space_id,
                            hid_t lcpl_id, hid_t dcpl_id, hid_t dapl_id)
{
    create2_fn real = (create2_fn)iol_h5_next((void **)&real_create2, "H5Dcreate2");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(loc_id, name, type_id, space_id, lcpl_id, dcpl_id, dapl_id);
    double t0 = iol_now();
    hid_t ret = real(loc_id, name, type_id, space_id, lcpl_id, dcpl_id, dapl_id);
    double t1 = iol_now();
    iol_h5d_note_open(ret, loc_id, name, type_id, space_id, dcpl_id, 0, t0, t1);
    return ret;
}

IOL_EXPORT hid_t H5Dopen1(hid_t loc_id, const char *name)
{
    open1_fn real = (open1_fn)iol_h5_next((void **)&real_open1, "H5Dopen1");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(loc_id, name);
    double t0 = iol_now();
    hid_t ret = real(loc_id, name);
    double t1 = iol_now();
    iol_h5d_note_reopen(ret, loc_id, name, 1, t0, t1);
    return ret;
}

IOL_EXPORT hid_t H5Dopen2(hid_t loc_id, const char *name, hid_t dapl_id)
{
    open2_fn real = (open2_fn)iol_h5_next((void **)&real_open2, "H5Dopen2");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(loc_id, name, dapl_id);
    double t0 = iol_now();
    hid_t ret = real(loc_id, name, dapl_id);
    double t1 = iol_now();
    iol_h5d_note_reopen(ret, loc_id, name, 0, t0, t1);
    return ret;
}

IOL_EXPORT herr_t H5Dread(hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id,
                          hid_t file_space_id, hid_t dxpl_id, void *buf)
{
    read_fn real = (read_fn)iol_h5_next((void **)&real_read, "H5Dread");
    if (!real)
        return -1;
    struct iol_slot *s = dataset_slot(dset_id);
    if (!s)
        return real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    double t0 = iol_now();
    herr_t ret = real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    double t1 = iol_now();
    if (ret >= 0)
        iol_h5d_note_rw(s, 0, file_space_id, dxpl_id, t0, t1);
    return ret;
}

IOL_EXPORT herr_t H5Dwrite(hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id,
                           hid_t file_space_id, hid_t dxpl_id, const void *buf)
{
    write_fn real = (write_fn)iol_h5_next((void **)&real_write, "H5Dwrite");
    if (!real)
        return -1;
    struct iol_slot *s = dataset_slot(dset_id);
    if (!s)
        return real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    double t0 = iol_now();
    herr_t ret = real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    double t1 = iol_now();
    if (ret >= 0)
        iol_h5d_note_rw(s, 1, file_space_id, dxpl_id, t0, t1);
    return ret;
}

IOL_EXPORT herr_t H5Dflush(hid_t dset_id)
{
    id_fn real = (id_fn)iol_h5_next((void **)&real_flush, "H5Dflush");
    if (!real)
        return -1;
    struct iol_slot *s = dataset_slot(dset_id);
    if (!s)
        return real(dset_id);
    double t0 = iol_now();
    herr_t ret = real(dset_id);
    double t1 = iol_now();
    if (ret >= 0)
        iol_h5d_note_flush(s, t0, t1);
    return ret;
}

/* The body of H5Dclose and H5Oclose: the real call (*real_ptr, looked up as
 * name); a tracked dataset's close is counted when it succeeds. */
static herr_t close_call(void **real_ptr, const char *name, hid_t id)
{
    id_fn real = (id_fn)iol_h5_next(real_ptr, name);
    if (!real)
        return -1;
    struct iol_slot *s = dataset_slot(id);
    if (!s)
        return real(id);
    double t0 = iol_now();
    herr_t ret = real(id);
    double t1 = iol_now();
    if (ret >= 0)
        iol_h5d_note_close(s, id, t0, t1);
    return ret;
}

IOL_EXPORT herr_t H5Dclose(hid_t dset_id)
{
    return close_call((void **)&real_close, "H5Dclose", dset_id);
}

/* Is the object id, just opened, a dataset? */
static int is_dataset(hid_t id)
{
    return id >= 0 && iol_h5.Iget_type && iol_h5.Iget_type(id) == H5I_DATASET;
}

IOL_EXPORT hid_t H5Oopen(hid_t loc_id, const char *name, hid_t lapl_id)
{
    oopen_fn real = (oopen_fn)iol_h5_next((void **)&real_oopen, "H5Oopen");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(loc_id, name, lapl_id);
    double t0 = iol_now();
    hid_t ret = real(loc_id, name, lapl_id);
    double t1 = iol_now();
    if (is_dataset(ret))
        iol_h5d_note_reopen(ret, loc_id, name, 0, t0, t1);
    return ret;
}

/* A dataset opened without a name given (by address, by index): named by
 * its path, as HDF5 gives it (Darshan records nothing when that is empty). */
static void note_unnamed_open(hid_t ret, hid_t loc_id, double t0, double t1)
{
    char name[OBJECT_NAME_CAP] = {0};
    if (!is_dataset(ret) || !iol_h5.Iget_name || iol_h5.Iget_name(ret, name, sizeof(name)) == 0)
        return;
    iol_h5d_note_reopen(ret, loc_id, name, 0, t0, t1);
}

IOL_EXPORT hid_t H5Oopen_by_addr(hid_t loc_id, haddr_t addr)
{
    oopen_addr_fn real = (oopen_addr_fn)iol_h5_next((void **)&real_oopen_addr, "H5Oopen_by_addr");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(loc_id, addr);
    double t0 = iol_now();
    hid_t ret = real(loc_id, addr);
    double t1 = iol_now();
    note_unnamed_open(ret, loc_id, t0, t1);
    return ret;
}

IOL_EXPORT hid_t H5Oopen_by_idx(hid_t loc_id, const char *group_name, H5_index_t idx_type,
                                H5_iter_order_t order, hsize_t n, hid_t lapl_id)
{
    oopen_idx_fn real = (oopen_idx_fn)iol_h5_next((void **)&real_oopen_idx, "H5Oopen_by_idx");
    if (!real)
        return H5I_INVALID_HID;
    if (!iol_h5_recording())
        return real(loc_id, group_name, idx_type, order, n, lapl_id);
    double t0 = iol_now();
    hid_t ret = real(loc_id, group_name, idx_type, order, n, lapl_id);
    double t1 = iol_now();
    note_unnamed_open(ret, loc_id, t0, t1);
    return ret;
}

/* Closes any object: only a tracked dataset's close is counted. */
IOL_EXPORT herr_t H5Oclose(hid_t object_id)
{
    return close_call((void **)&real_oclose, "H5Oclose", object_id);
}

static const struct iol_binding bindings[] = {
    {"H5Dcreate1", (void *)H5Dcreate1, (void **)&real_create1},
    {"H5Dcreate2", (void *)H5Dcreate2, (void **)&real_create2},
    {"H5Dopen1", (void *)H5Dopen1, (void **)&real_open1},
    {"H5Dopen2", (void *)H5Dopen2, (void **)&real_open2},
    {"H5Dread", (void *)H5Dread, (void **)&real_read},
    {"H5Dwrite", (void *)H5Dwrite, (void **)&real_write},
    {"H5Dflush", (void *)H5Dflush, (void **)&real_flush},
    {"H5Dclose", (void *)H5Dclose, (void **)&real_close},
    {"H5Oopen", (void *)H5Oopen, (void **)&real_oopen},
    {"H5Oopen_by_addr", (void *)H5Oopen_by_addr, (void **)&real_oopen_addr},
    {"H5Oopen_by_idx", (void *)H5Oopen_by_idx, (void **)&real_oopen_idx},
    {"H5Oclose", (void *)H5Oclose, (void **)&real_oclose},
};

const struct iol_binding_table iol_h5d_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
